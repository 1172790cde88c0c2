import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, startTestServer, type TestResponse, type TestServer } from '../harness';

describe('rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimits: { loginPerIp: 6, loginPerEmail: 3, guestPerIp: 2, forgotPasswordPerIp: 2 } });
  });
  afterAll(() => server.close());

  function expectRateLimited(response: TestResponse) {
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.body.code).toBe('rate_limited');
    expect(response.body.message).toMatch(/Too many attempts/);
  }

  it('answers 429 with Retry-After after too many logins for one email', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 3; i++) expect((await login(server, user.email, 'Wrong-password-1')).status).toBe(401);
    // Even the right password waits: the limit protects the account, not the attempt.
    expectRateLimited(await login(server, user.email, user.password));
  });

  it('answers 429 after too many logins from one IP, whatever the email', async () => {
    for (let i = 0; i < 2; i++) await login(server, `someone${i}@example.com`, 'Wrong-password-1');
    const last = await login(server, 'someone-else@example.com', 'Wrong-password-1');
    expectRateLimited(last);
  });

  it('answers 429 after too many guest registrations from one IP', async () => {
    const guest = () => server.request('POST', '/auth/register-guest', { body: { displayName: 'Flood', appName: 'hunch' } });
    expect((await guest()).status).toBe(201);
    expect((await guest()).status).toBe(201);
    expectRateLimited(await guest());
  });

  it('answers 429 after too many forgot-password requests from one IP', async () => {
    const forgot = () => server.request('POST', '/auth/forgot-password', { body: { email: 'flood@example.com', appName: 'hunch' } });
    expect((await forgot()).status).toBe(200);
    expect((await forgot()).status).toBe(200);
    expectRateLimited(await forgot());
  });
});

// With REDIS_URL, instances behind a load balancer share their counts (ARCHITECTURE.md §9).
describe.runIf(process.env.REDIS_URL)('rate limits shared through Redis', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    const env = { REDIS_URL: process.env.REDIS_URL! };
    first = await startTestServer({ env, rateLimits: { loginPerEmail: 3 } });
    second = await startTestServer({ env, database: first.database, rateLimits: { loginPerEmail: 3 } });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('counts the attempts made on every instance', async () => {
    const email = `redis-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    expect((await login(first, email, 'Wrong-password-1')).status).toBe(401);
    expect((await login(second, email, 'Wrong-password-1')).status).toBe(401);
    expect((await login(first, email, 'Wrong-password-1')).status).toBe(401);
    const limited = await login(second, email, 'Wrong-password-1');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
