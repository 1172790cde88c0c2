import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { safeLogging } from '../../src/server/logging';
import { freePort } from '../e2e/server-process';
import { createUser, login, useTestServer } from './harness';

// What an operator reads in the log (docs/self-hosting.md, Logs): one line per request, no
// email address anywhere, a mail that failed as an error without its recipient, and one warning
// when PUBLIC_URL is missing for the requests that arrive (issue 42, points 13 and 16).

function logCapture() {
  let logged = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged += String(chunk);
      done();
    },
  });
  return {
    logger: { level: 'info', ...safeLogging, stream },
    lines: () => logged.split('\n').filter(Boolean),
  };
}

const SENT = { message: 'Password reset link has been sent to your email.' };

describe('request lines', () => {
  const capture = logCapture();
  const server = useTestServer({ logger: capture.logger });

  it('are one per request: method, path, status, time and request id', async () => {
    const before = capture.lines().length;
    await server.request('GET', '/healthz?token=abc');
    const lines = capture
      .lines()
      .slice(before)
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      method: 'GET',
      url: '/healthz?[redacted]',
      statusCode: 200,
      reqId: expect.any(String),
      responseTime: expect.any(Number),
    });
    expect(lines[0].msg).toMatch(/^GET \/healthz\?\[redacted\] 200 [\d.]+ ms$/);
  });

  it('hold no email address after sign-up, login, a reset mail to the outbox and a reset', async () => {
    const user = await createUser(server);
    expect((await login(server, user.email, user.password)).status).toBe(200);
    expect((await login(server, user.email, 'wrong-password-1')).status).toBe(401);
    const forgot = await server.request('POST', '/auth/forgot-password', {
      body: { email: user.email, appName: 'hunch' },
    });
    expect(forgot.body).toEqual(SENT);
    await server.app.mail.idle();
    await server.request('POST', '/auth/reset-password', {
      body: {
        token: 'not-a-token',
        password: 'New-password-42',
        passwordConfirm: 'New-password-42',
      },
    });
    const log = capture.lines().join('\n');
    expect(log).toContain('mail written to the outbox');
    expect(log).toContain('POST /auth/register 201');
    expect(log).not.toContain(user.email);
    expect(log).not.toMatch(/[\w.+-]+@example\.com/);
  });
});

describe('a mail server that fails', () => {
  const capture = logCapture();
  let smtpPort = 0;
  const server = useTestServer(async () => {
    smtpPort = await freePort();
    return { logger: capture.logger, env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } };
  });

  it('logs the failed send as an error without the address; the reset answer says nothing either way', async () => {
    const user = await createUser(server);
    const known = await server.request('POST', '/auth/forgot-password', {
      body: { email: user.email, appName: 'hunch' },
    });
    const unknown = await server.request('POST', '/auth/forgot-password', {
      body: { email: 'nobody-here@example.com', appName: 'hunch' },
    });
    expect(known).toMatchObject({ status: 200, body: SENT });
    expect(unknown).toMatchObject({ status: unknown.status, body: SENT });
    expect(known.status).toBe(unknown.status);
    await server.app.mail.idle();
    const errors = capture
      .lines()
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0].msg).toMatch(/^mail could not be sent: /);
    expect(capture.lines().join('\n')).not.toContain(user.email);
  });
});

describe('PUBLIC_URL unset', () => {
  const capture = logCapture();
  const server = useTestServer({ logger: capture.logger, env: { PUBLIC_URL: '' } });
  const warnings = () => capture.lines().filter((line) => line.includes('PUBLIC_URL is not set'));

  it('is warned about once, when requests arrive for another host', async () => {
    // fetch sets Host itself: inject says another.
    const get = (host: string) =>
      server.app.inject({ method: 'GET', url: '/healthz', headers: { host } });
    expect((await get('localhost:3000')).statusCode).toBe(200);
    expect((await get('127.0.0.1')).statusCode).toBe(200);
    expect(warnings()).toEqual([]);
    expect((await get('hunch.example.com')).statusCode).toBe(200);
    expect((await get('hunch.example.com')).statusCode).toBe(200);
    expect(warnings()).toHaveLength(1);
    expect(JSON.parse(warnings()[0]!)).toMatchObject({ level: 40 });
    expect(warnings()[0]).toContain('requests arrive for the host hunch.example.com');
  });
});
