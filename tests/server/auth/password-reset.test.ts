import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, useTestServer } from '../harness';
import { startSmtpSink, type SmtpSink } from '../smtp-sink';

const SENT = { message: 'Password reset link has been sent to your email.' };
const RESET = { message: 'Your password has been reset successfully.' };
const LINK = /http:\/\/hunch\.test\/reset-password\/([\w-]+)/;

describe('password reset by mail over SMTP', () => {
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(() => smtp.close());
  const server = useTestServer(() => ({
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://hunch.test' },
  }));

  const forgot = (email: string) =>
    server.request('POST', '/auth/forgot-password', { body: { email, appName: 'hunch' } });
  const reset = (token: string, password: string) =>
    server.request('POST', '/auth/reset-password', {
      body: { token, password, passwordConfirm: password },
    });
  async function requestResetToken(email: string): Promise<string> {
    const before = smtp.mails.length;
    expect(await forgot(email)).toMatchObject({ status: 200, body: SENT });
    // Every mail the request started has been handed to the SMTP server: no second one follows.
    await server.app.mail.idle();
    const mail = await smtp.waitForMail(email);
    expect(smtp.mails.length).toBe(before + 1);
    smtp.mails.splice(smtp.mails.indexOf(mail), 1);
    return LINK.exec(mail.decoded)![1]!;
  }

  it('mails a link whose token resets the password; the old password stops working', async () => {
    const user = await createUser(server);
    const token = await requestResetToken(user.email);
    const response = await reset(token, 'New-password-42');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(RESET);
    expect((await login(server, user.email, user.password)).status).toBe(401);
    expect((await login(server, user.email, 'New-password-42')).status).toBe(200);
  });

  it('signs out every session of the user', async () => {
    const user = await createUser(server);
    const token = await requestResetToken(user.email);
    await reset(token, 'New-password-42');
    const refresh = await server.request('POST', '/auth/refresh-token', {
      body: { refreshToken: user.refreshToken },
    });
    expect(refresh.status).toBe(401);
  });

  it('accepts a token only once', async () => {
    const user = await createUser(server);
    const token = await requestResetToken(user.email);
    expect((await reset(token, 'New-password-42')).status).toBe(200);
    const again = await reset(token, 'Other-password-42');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      code: 'invalid_reset_token',
      message: expect.stringContaining('invalid or has expired'),
    });
    expect((await login(server, user.email, 'New-password-42')).status).toBe(200);
  });

  it('refuses a token older than one hour', async () => {
    const user = await createUser(server);
    const token = await requestResetToken(user.email);
    server.clock.advance(61 * 60 * 1000);
    try {
      expect((await reset(token, 'New-password-42')).status).toBe(400);
    } finally {
      server.clock.advance(-61 * 60 * 1000);
    }
    expect((await login(server, user.email, user.password)).status).toBe(200);
  });

  it('refuses an unknown token', async () => {
    const response = await reset('made-up-token', 'New-password-42');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_reset_token');
  });

  it('answers an unknown email exactly as a known one, and sends nothing', async () => {
    const before = smtp.mails.length;
    const response = await forgot('nobody-here@example.com');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(SENT);
    // A mail the request started would have reached the SMTP server once the mailer is idle.
    await server.app.mail.idle();
    expect(smtp.mails.length).toBe(before);
  });

  it('checks the forgot-password email with "Invalid email"', async () => {
    const response = await forgot('not-an-email');
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors.email).toBe('Invalid email');
  });

  it('checks the new password with the registration rules', async () => {
    const short = await reset('token', 'short');
    expect(short.status).toBe(400);
    expect(short.body.fieldErrors.password).toBe('Password must be 8–72 chars');
    const differs = await server.request('POST', '/auth/reset-password', {
      body: { token: 'token', password: 'New-password-42', passwordConfirm: 'New-password-43' },
    });
    expect(differs.body.fieldErrors.passwordConfirm).toBe('Passwords do not match');
    const noToken = await server.request('POST', '/auth/reset-password', {
      body: { token: '', password: 'New-password-42', passwordConfirm: 'New-password-42' },
    });
    expect(noToken.body.fieldErrors.token).toBe('Reset token is required');
  });
});

describe('password reset without a mail server', () => {
  const server = useTestServer({ env: { PUBLIC_URL: 'http://hunch.test' } });

  it('writes the mail to DATA_DIR/outbox as an .eml file with a working link', async () => {
    const user = await createUser(server);
    await server.request('POST', '/auth/forgot-password', {
      body: { email: user.email, appName: 'hunch' },
    });
    // The mail is written to the outbox in the background: once the mailer is idle, it is there.
    await server.app.mail.idle();
    const outbox = path.join(server.dataDir, 'outbox');
    const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(path.join(outbox, files[0]!), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(eml).toContain(`To: ${user.email}`);
    const token = LINK.exec(eml)![1]!;
    const response = await server.request('POST', '/auth/reset-password', {
      body: { token, password: 'Outbox-pass-42', passwordConfirm: 'Outbox-pass-42' },
    });
    expect(response.status).toBe(200);
  });
});
