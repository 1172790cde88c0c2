import { describe, expect, it } from 'vitest';
import { createGuest, createUser, login, newAccount, useTestServer } from '../harness';

const server = useTestServer();

const refresh = (refreshToken: unknown) =>
  server.request('POST', '/auth/refresh-token', { body: { refreshToken } });
const me = (token: string) => server.request('GET', '/auth/users/me', { token });

describe('POST /auth/refresh-token', () => {
  it('rotates the pair: the new tokens work and the user comes back', async () => {
    const user = await createUser(server);
    const response = await refresh(user.refreshToken);
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual(user.user);
    expect(response.body.refreshToken).not.toBe(user.refreshToken);
    expect((await me(response.body.accessToken)).status).toBe(200);
    expect((await refresh(response.body.refreshToken)).status).toBe(200);
  });

  it('refuses a rotated refresh token and revokes its family', async () => {
    const user = await createUser(server);
    const rotated = await refresh(user.refreshToken);
    const reuse = await refresh(user.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('invalid_refresh_token');
    // The newer token of the same family dies too: whoever replayed the old one may hold it.
    expect((await refresh(rotated.body.refreshToken)).status).toBe(401);
  });

  it('leaves the other sessions of the user alone when one family is revoked', async () => {
    const user = await createUser(server);
    const other = await login(server, user.email, user.password);
    await refresh(user.refreshToken);
    await refresh(user.refreshToken);
    expect((await refresh(other.body.refreshToken)).status).toBe(200);
  });

  it('refuses an unknown token with 401', async () => {
    const response = await refresh('not-a-real-token');
    expect(response.status).toBe(401);
  });

  it('refuses an expired refresh token', async () => {
    const user = await createUser(server);
    server.clock.advance(31 * 24 * 60 * 60 * 1000);
    try {
      expect((await refresh(user.refreshToken)).status).toBe(401);
    } finally {
      server.clock.advance(-31 * 24 * 60 * 60 * 1000);
    }
  });

  it('answers 400 "Refresh token is required" for an empty token', async () => {
    const response = await refresh('');
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors.refreshToken).toBe('Refresh token is required');
  });
});

describe('POST /auth/revoke-token', () => {
  it('makes the refresh token useless', async () => {
    const user = await createUser(server);
    const response = await server.request('POST', '/auth/revoke-token', {
      body: { refreshToken: user.refreshToken },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect((await refresh(user.refreshToken)).status).toBe(401);
  });

  it('answers the same for an unknown token', async () => {
    const response = await server.request('POST', '/auth/revoke-token', {
      body: { refreshToken: 'unknown' },
    });
    expect(response.status).toBe(200);
  });

  it('answers 400 for a missing token', async () => {
    const response = await server.request('POST', '/auth/revoke-token', { body: {} });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors.refreshToken).toBe('Refresh token is required');
  });
});

describe('GET /auth/users/me', () => {
  it('returns the full user of the access token', async () => {
    const user = await createUser(server);
    const response = await me(user.accessToken);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(user.user);
  });

  it('answers 401 without a token, with a forged one and with an expired one', async () => {
    expect((await server.request('GET', '/auth/users/me')).status).toBe(401);
    expect((await me('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged')).status).toBe(401);
    const user = await createUser(server);
    const [header, payload] = user.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = Buffer.from(JSON.stringify({ ...claims, sub: '999999' })).toString(
      'base64url',
    );
    expect((await me(`${header}.${tampered}.${user.accessToken.split('.')[2]}`)).status).toBe(401);
  });

  it('carries the claims sub, app and tmp and lasts 15 minutes', async () => {
    const guest = await createGuest(server);
    const claims = JSON.parse(
      Buffer.from(guest.accessToken.split('.')[1]!, 'base64url').toString(),
    );
    expect(claims).toMatchObject({ sub: String(guest.user.id), app: 'hunch', tmp: true });
    expect(claims.exp - claims.iat).toBe(15 * 60);
  });
});

describe('PUT /auth/users/me', () => {
  it('updates profile fields without new tokens', async () => {
    const user = await createUser(server);
    const response = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: {
        firstName: 'Grace',
        lastName: 'Hopper',
        displayName: 'Amazing Grace',
        username: 'GRACE_NEW_' + user.user.id,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      user: {
        ...user.user,
        firstName: 'Grace',
        lastName: 'Hopper',
        displayName: 'Amazing Grace',
        username: `grace_new_${user.user.id}`,
      },
    });
    expect((await me(user.accessToken)).body.displayName).toBe('Amazing Grace');
    expect((await refresh(user.refreshToken)).status).toBe(200);
  });

  it('answers 409 "Email or username already exists." for another user\'s username', async () => {
    const [a, b] = [await createUser(server), await createUser(server)];
    const username = await server.request('PUT', '/auth/users/me', {
      token: a.accessToken,
      body: { username: b.user.username },
    });
    expect(username.status).toBe(409);
    expect(username.body.message).toBe('Email or username already exists.');
  });

  it("answers another user's email as a free one: 200, the email unchanged until confirmed", async () => {
    const [a, b] = [await createUser(server), await createUser(server)];
    for (const email of [b.email, newAccount().email]) {
      const response = await server.request('PUT', '/auth/users/me', {
        token: a.accessToken,
        body: { email, currentPassword: a.password },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ user: a.user });
    }
  });

  it('lets a user keep their own email and username', async () => {
    const user = await createUser(server);
    const response = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: { email: user.email, username: user.user.username },
    });
    expect(response.status).toBe(200);
  });

  it('changes the password: new pair returned, old sessions and password revoked', async () => {
    const user = await createUser(server);
    const response = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: {
        password: 'Brand-new-pass-2',
        passwordConfirm: 'Brand-new-pass-2',
        currentPassword: user.password,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.accessToken).toEqual(expect.any(String));
    expect(response.body.refreshToken).toEqual(expect.any(String));
    expect((await refresh(user.refreshToken)).status).toBe(401);
    expect((await refresh(response.body.refreshToken)).status).toBe(200);
    expect((await login(server, user.email, user.password)).status).toBe(401);
    expect((await login(server, user.email, 'Brand-new-pass-2')).status).toBe(200);
  });

  it('answers "Please confirm your password" and "Passwords do not match"', async () => {
    const user = await createUser(server);
    const missing = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: { password: 'Brand-new-pass-2' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors.passwordConfirm).toBe('Please confirm your password');
    const differs = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: { password: 'Brand-new-pass-2', passwordConfirm: 'Brand-new-pass-3' },
    });
    expect(differs.body.fieldErrors.passwordConfirm).toBe('Passwords do not match');
  });

  it('validates each field with the registration rules', async () => {
    const user = await createUser(server);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ email: 'nope' }, 'email', 'Invalid email'],
      [{ username: 'a b' }, 'username', 'Only lowercase letters, numbers, underscore'],
      [{ displayName: 'x' }, 'displayName', 'Display name must be 2–50 chars'],
      [{ firstName: '' }, 'firstName', 'Required'],
      [{ lastName: 'L'.repeat(51) }, 'lastName', 'Max 50 chars'],
      [{ appName: '' }, 'appName', 'App name is required'],
      [{ isAdmin: true }, 'isAdmin', 'Unrecognized key: "isAdmin"'],
    ];
    for (const [body, field, message] of cases) {
      const response = await server.request('PUT', '/auth/users/me', {
        token: user.accessToken,
        body,
      });
      expect(response.status, field).toBe(400);
      expect(response.body.fieldErrors[field]).toBe(message);
    }
  });

  it('does not let a full user become temporary', async () => {
    const user = await createUser(server);
    const response = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: { isTemporary: true },
    });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('cannot_become_temporary');
  });

  it('answers 401 without a token', async () => {
    const response = await server.request('PUT', '/auth/users/me', {
      body: { displayName: 'Nobody' },
    });
    expect(response.status).toBe(401);
  });
});

describe('guest upgrade', () => {
  it('turns a guest into a full user with the same id who can sign in', async () => {
    const guest = await createGuest(server, 'Lucky Guest');
    const account = newAccount();
    const response = await server.request('PUT', '/auth/users/me', {
      token: guest.accessToken,
      body: {
        firstName: account.firstName,
        lastName: account.lastName,
        username: account.username,
        email: account.email,
        password: account.password,
        passwordConfirm: account.password,
        isTemporary: false,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({
      id: guest.user.id,
      isTemporary: false,
      displayName: 'Lucky Guest',
      email: account.email,
      username: account.username,
      roles: ['user'],
    });
    const claims = JSON.parse(
      Buffer.from(response.body.accessToken.split('.')[1], 'base64url').toString(),
    );
    expect(claims.tmp).toBe(false);
    expect((await refresh(guest.refreshToken)).status).toBe(401);
    const signIn = await login(server, account.email, account.password);
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.id).toBe(guest.user.id);
  });

  it('requires every account field for an upgrade', async () => {
    const guest = await createGuest(server);
    const response = await server.request('PUT', '/auth/users/me', {
      token: guest.accessToken,
      body: { email: newAccount().email, isTemporary: false },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('upgrade_incomplete');
    expect(Object.keys(response.body.fieldErrors).sort()).toEqual([
      'firstName',
      'lastName',
      'password',
      'passwordConfirm',
      'username',
    ]);
    expect((await me(guest.accessToken)).body.isTemporary).toBe(true);
  });

  it('refuses an upgrade to a taken email with 409', async () => {
    const existing = await createUser(server);
    const guest = await createGuest(server);
    const account = newAccount({ email: existing.email });
    const { displayName: _d, appName: _a, ...fields } = account;
    const response = await server.request('PUT', '/auth/users/me', {
      token: guest.accessToken,
      body: fields,
    });
    expect(response.status).toBe(409);
  });

  it('lets a guest change the display name while staying a guest', async () => {
    const guest = await createGuest(server);
    const response = await server.request('PUT', '/auth/users/me', {
      token: guest.accessToken,
      body: { displayName: 'Still A Guest' },
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ displayName: 'Still A Guest', isTemporary: true });
  });

  it('does not let a guest set a password without upgrading', async () => {
    const guest = await createGuest(server);
    const response = await server.request('PUT', '/auth/users/me', {
      token: guest.accessToken,
      body: { password: 'Brand-new-pass-2', passwordConfirm: 'Brand-new-pass-2' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('upgrade_required');
  });
});

describe('PUT /auth/users/me: the current password (audit item 15)', () => {
  it("refuses a full account's password or email change without the right current password, changing nothing", async () => {
    const user = await createUser(server);
    const changes = [
      { password: 'Brand-new-pass-3', passwordConfirm: 'Brand-new-pass-3' },
      { email: `changed.${user.email}` },
    ];
    for (const change of changes) {
      for (const currentPassword of [undefined, 'Wrong-password-9']) {
        const response = await server.request('PUT', '/auth/users/me', {
          token: user.accessToken,
          body: { ...change, currentPassword },
        });
        expect(response.status, JSON.stringify(change)).toBe(403);
        expect(response.body).toMatchObject({
          code: 'invalid_current_password',
          fieldErrors: { currentPassword: 'Your current password is incorrect.' },
        });
      }
    }
    expect((await login(server, user.email, user.password)).status).toBe(200);
    expect(
      (await server.request('GET', '/auth/users/me', { token: user.accessToken })).body.email,
    ).toBe(user.email);
  });

  it('accepts an email change with the current password (it waits for the mailed link), and needs none to resend the same email or change a name', async () => {
    const user = await createUser(server);
    const same = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: { email: user.email.toUpperCase(), displayName: 'Renamed' },
    });
    expect(same.status).toBe(200);
    expect(same.body.user).toMatchObject({ email: user.email, displayName: 'Renamed' });
    const changed = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: { email: `new.${user.email}`, currentPassword: user.password },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.user.email).toBe(user.email);
  });
});

describe('GET /auth/users/ids', () => {
  it("returns the caller's own bubble with its email, and skips unknown ids and users sharing no group with the caller", async () => {
    const [a, b] = [await createUser(server), await createUser(server)];
    const response = await server.request(
      'GET',
      `/auth/users/ids?ids=${a.user.id},${b.user.id},999999`,
      { token: a.accessToken },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: a.user.id, displayName: a.user.displayName, username: a.user.username, email: a.email },
    ]);
  });

  it('answers 400 for ids that are not a comma-joined list of numbers', async () => {
    const user = await createUser(server);
    for (const query of [
      '',
      '?ids=',
      '?ids=a,b',
      '?ids=1,,2',
      '?ids=-1',
      `?ids=${'1,'.repeat(200)}1`,
      '?ids=1&x=2',
      '?ids=99999999999',
    ]) {
      const response = await server.request('GET', `/auth/users/ids${query}`, {
        token: user.accessToken,
      });
      expect(response.status, query).toBe(400);
    }
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('GET', '/auth/users/ids?ids=1')).status).toBe(401);
  });
});
