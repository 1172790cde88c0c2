import { describe, expect, it } from 'vitest';
import { createGuest, createUser, login, newAccount, useTestServer } from '../harness';

const server = useTestServer();

describe('POST /auth/register', () => {
  it('creates a full account and signs it in', async () => {
    const account = newAccount({ email: '  Grace.Hopper@Example.COM ', username: 'Grace_H' });
    const response = await server.request('POST', '/auth/register', { body: account });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      user: {
        id: expect.any(Number),
        appName: 'hunch',
        email: 'grace.hopper@example.com',
        username: 'grace_h',
        firstName: 'Ada',
        lastName: 'Lovelace',
        displayName: account.displayName,
        isTemporary: false,
        roles: ['user'],
        profilePictureUrl: null,
      },
    });
    expect(response.body.user).not.toHaveProperty('passwordHash');
  });

  it('refuses a taken email with 409 "Email or username already exists."', async () => {
    const existing = await createUser(server);
    const response = await server.request('POST', '/auth/register', {
      body: newAccount({ email: existing.email.toUpperCase() }),
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      message: 'Email or username already exists.',
      code: 'email_or_username_taken',
    });
  });

  it('refuses a taken username with 409, whatever its case', async () => {
    const existing = await createUser(server);
    const response = await server.request('POST', '/auth/register', {
      body: newAccount({ username: existing.user.username.toUpperCase() }),
    });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('email_or_username_taken');
  });

  // docs/accounts-and-shell.md §5, the shared registration schema: each rule with its exact message.
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['an invalid email', { email: 'not-an-email' }, 'email', 'Invalid email'],
    [
      'an email longer than 254 characters',
      { email: `${'a'.repeat(60)}@${'b'.repeat(190)}.com` },
      'email',
      'Invalid email',
    ],
    [
      'an email local part longer than 64 characters',
      { email: `${'a'.repeat(65)}@example.com` },
      'email',
      'Invalid email',
    ],
    ['a missing email', { email: undefined }, 'email', 'Invalid email'],
    [
      'a password shorter than 8',
      { password: 'Short1!', passwordConfirm: 'Short1!' },
      'password',
      'Password must be 8–72 chars',
    ],
    [
      'a password longer than 72',
      { password: 'A1'.repeat(37), passwordConfirm: 'A1'.repeat(37) },
      'password',
      'Password must be 8–72 chars',
    ],
    [
      'a display name shorter than 2',
      { displayName: ' A ' },
      'displayName',
      'Display name must be 2–50 chars',
    ],
    [
      'a display name longer than 50',
      { displayName: 'D'.repeat(51) },
      'displayName',
      'Display name must be 2–50 chars',
    ],
    [
      'a username with other characters',
      { username: 'ada-lovelace' },
      'username',
      'Only lowercase letters, numbers, underscore',
    ],
    ['a username shorter than 3', { username: 'ab' }, 'username', 'Username must be 3–30 chars'],
    [
      'a username longer than 30',
      { username: 'u'.repeat(31) },
      'username',
      'Username must be 3–30 chars',
    ],
    ['an empty first name', { firstName: '' }, 'firstName', 'Required'],
    ['a first name longer than 50', { firstName: 'F'.repeat(51) }, 'firstName', 'Max 50 chars'],
    ['an empty last name', { lastName: '   ' }, 'lastName', 'Required'],
    ['a last name longer than 50', { lastName: 'L'.repeat(51) }, 'lastName', 'Max 50 chars'],
    ['an empty app name', { appName: '' }, 'appName', 'App name is required'],
    ['a missing app name', { appName: undefined }, 'appName', 'App name is required'],
    [
      'a confirmation that differs',
      { passwordConfirm: 'Something-else-1' },
      'passwordConfirm',
      'Passwords do not match',
    ],
    ['an unknown key', { role: 'admin' }, 'role', 'Unrecognized key: "role"'],
  ];
  it.each(cases)(
    'refuses %s with 400 and the spec message',
    async (_name, overrides, field, message) => {
      const response = await server.request('POST', '/auth/register', {
        body: { ...newAccount(), ...overrides },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.fieldErrors[field]).toBe(message);
      expect(response.body.message).toBe(Object.values(response.body.fieldErrors)[0]);
    },
  );

  it('refuses isTemporary true: guests come from register-guest', async () => {
    const response = await server.request('POST', '/auth/register', {
      body: newAccount({ isTemporary: true }),
    });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors).toHaveProperty('isTemporary');
  });
});

describe('POST /auth/login', () => {
  it('signs a full account in with its email and password', async () => {
    const user = await createUser(server);
    const response = await login(server, user.email, user.password);
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual(user.user);
    expect(response.body.refreshToken).not.toBe(user.refreshToken);
  });

  it('accepts the email in any case and with spaces, and an explicit appName', async () => {
    const user = await createUser(server);
    const response = await server.request('POST', '/auth/login', {
      body: { email: `  ${user.email.toUpperCase()} `, password: user.password, appName: 'hunch' },
    });
    expect(response.status).toBe(200);
  });

  it('answers 401 "Invalid email or password" for a wrong password', async () => {
    const user = await createUser(server);
    const response = await login(server, user.email, 'Wrong-password-1');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      message: 'Invalid email or password',
      code: 'invalid_credentials',
    });
  });

  it('answers the same 401 for an unknown email', async () => {
    const response = await login(server, 'nobody@example.com', 'Whatever-1');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      message: 'Invalid email or password',
      code: 'invalid_credentials',
    });
  });

  it('answers 400 "Email is required" and "Password is required" for missing fields', async () => {
    const noEmail = await server.request('POST', '/auth/login', { body: { password: 'x' } });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.fieldErrors.email).toBe('Email is required');
    const emptyEmail = await server.request('POST', '/auth/login', {
      body: { email: ' ', password: 'x' },
    });
    expect(emptyEmail.body.fieldErrors.email).toBe('Email is required');
    const noPassword = await server.request('POST', '/auth/login', {
      body: { email: 'a@b.co', password: '' },
    });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.fieldErrors.password).toBe('Password is required');
  });

  it('refuses unknown keys', async () => {
    const response = await server.request('POST', '/auth/login', {
      body: { email: 'a@b.co', password: 'x', rememberMe: true },
    });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors.rememberMe).toBe('Unrecognized key: "rememberMe"');
  });
});

describe('POST /auth/register-guest', () => {
  it('creates a temporary account with no email, username or roles', async () => {
    const response = await server.request('POST', '/auth/register-guest', {
      body: { displayName: '  Lucky Guest ', appName: 'hunch' },
    });
    expect(response.status).toBe(201);
    expect(response.body.accessToken).toEqual(expect.any(String));
    expect(response.body.refreshToken).toEqual(expect.any(String));
    expect(response.body.user).toMatchObject({
      appName: 'hunch',
      displayName: 'Lucky Guest',
      isTemporary: true,
      email: '',
      username: '',
      roles: [],
    });
  });

  it('defaults the app name to hunch', async () => {
    const response = await server.request('POST', '/auth/register-guest', {
      body: { displayName: 'No App' },
    });
    expect(response.status).toBe(201);
    expect(response.body.user.appName).toBe('hunch');
  });

  it('refuses a display name outside 2–50 characters', async () => {
    for (const displayName of ['x', 'y'.repeat(51), undefined]) {
      const response = await server.request('POST', '/auth/register-guest', {
        body: { displayName, appName: 'hunch' },
      });
      expect(response.status).toBe(400);
      expect(response.body.fieldErrors.displayName).toBe('Display name must be 2–50 chars');
    }
  });

  it('refuses a display name with nothing visible in it', async () => {
    for (const displayName of ['\u200B\u200B\u200B', '\u3164\u3164', '\u0301\u0301\u0301']) {
      const response = await server.request('POST', '/auth/register-guest', {
        body: { displayName, appName: 'hunch' },
      });
      expect(response.status, JSON.stringify(displayName)).toBe(400);
      expect(response.body.fieldErrors.displayName).toMatch(/^Display name must/);
    }
  });

  it('keeps a display name composed and without invisible characters', async () => {
    const response = await server.request('POST', '/auth/register-guest', {
      body: { displayName: 'Zoe\u0301\u200B\u00A0Lee', appName: 'hunch' },
    });
    expect(response.status).toBe(201);
    expect(response.body.user.displayName).toBe('Zo\u00e9 Lee');
  });

  it('does not let a guest sign in with a password', async () => {
    const guest = await createGuest(server);
    const response = await login(server, guest.user.email || 'guest@example.com', 'Anything-1');
    expect(response.status).toBe(401);
  });
});
