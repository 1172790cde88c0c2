import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { createGroup, createPlayer, uniqueGroupName } from '../groups/group.factories';
import { createUser, login, newAccount, useTestServer, type TestResponse } from '../harness';

describe('rate limits', () => {
  const server = useTestServer({
    rateLimits: { loginPerIp: 6, loginPerEmail: 3, guestPerIp: 2, forgotPasswordPerIp: 2 },
  });

  function expectRateLimited(response: TestResponse) {
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.body.code).toBe('rate_limited');
    expect(response.body.message).toMatch(/Too many attempts/);
  }

  it('answers 429 with Retry-After after too many logins for one email', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 3; i++)
      expect((await login(server, user.email, 'Wrong-password-1')).status).toBe(401);
    // Even the right password waits: the limit protects the account, not the attempt.
    expectRateLimited(await login(server, user.email, user.password));
  });

  it('answers 429 after too many logins from one IP, whatever the email', async () => {
    for (let i = 0; i < 2; i++) await login(server, `someone${i}@example.com`, 'Wrong-password-1');
    const last = await login(server, 'someone-else@example.com', 'Wrong-password-1');
    expectRateLimited(last);
  });

  it('answers 429 after too many guest registrations from one IP', async () => {
    const guest = () =>
      server.request('POST', '/auth/register-guest', {
        body: { displayName: 'Flood', appName: 'hunch' },
      });
    expect((await guest()).status).toBe(201);
    expect((await guest()).status).toBe(201);
    expectRateLimited(await guest());
  });

  it('answers 429 after too many forgot-password requests from one IP', async () => {
    const forgot = () =>
      server.request('POST', '/auth/forgot-password', {
        body: { email: 'flood@example.com', appName: 'hunch' },
      });
    expect((await forgot()).status).toBe(200);
    expect((await forgot()).status).toBe(200);
    expectRateLimited(await forgot());
  });
});

// The limits the audit found missing (item 10): sign-up, refresh, reset, invite-code guesses,
// and every signed-in write.
describe('more rate limits', () => {
  const server = useTestServer({
    rateLimits: {
      registerPerIp: 2,
      refreshPerIp: 2,
      resetPasswordPerIp: 2,
      joinPrivatePerUser: 3,
      writesPerUser: 6,
    },
  });

  function expectRateLimited(response: TestResponse) {
    expect(response.status, response.text).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.body.code).toBe('rate_limited');
  }

  it('answers 429 after too many sign-ups from one IP', async () => {
    expect((await server.request('POST', '/auth/register', { body: newAccount() })).status).toBe(
      201,
    );
    expect((await server.request('POST', '/auth/register', { body: newAccount() })).status).toBe(
      201,
    );
    expectRateLimited(await server.request('POST', '/auth/register', { body: newAccount() }));
  });

  it('answers 429 after too many refreshes from one IP', async () => {
    const refresh = () =>
      server.request('POST', '/auth/refresh-token', { body: { refreshToken: 'not-a-token' } });
    expect((await refresh()).status).toBe(401);
    expect((await refresh()).status).toBe(401);
    expectRateLimited(await refresh());
  });

  it('answers 429 after too many password resets from one IP, and refuses a wrong token before hashing', async () => {
    const reset = () =>
      server.request('POST', '/auth/reset-password', {
        body: {
          token: 'not-a-token',
          password: 'Correct-horse-2',
          passwordConfirm: 'Correct-horse-2',
        },
      });
    expect((await reset()).body.code).toBe('invalid_reset_token');
    expect((await reset()).body.code).toBe('invalid_reset_token');
    expectRateLimited(await reset());
  });

  it('answers 429 after a few invite-code guesses, so a code cannot be found by trying', async () => {
    const [owner, guesser] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner, { privacy: 'private' });
    const guess = (inviteCode: string) =>
      server.request('POST', '/api/groups/join-private', {
        token: guesser.accessToken,
        body: { groupId: group.id, inviteCode },
      });
    for (const code of ['aaaaaa', 'bbbbbb', 'cccccc']) expect((await guess(code)).status).toBe(403);
    // Even the right code waits now.
    expectRateLimited(await guess(group.inviteCode!));
  });

  it('answers 429 to a user writing too fast, and only to that user', async () => {
    const [flooder, other] = [await createPlayer(server), await createPlayer(server)];
    const create = (user: AuthResponse) =>
      server.request('POST', '/api/groups', {
        token: user.accessToken,
        body: { name: uniqueGroupName('Flood') },
      });
    for (let index = 0; index < 6; index++) expect((await create(flooder)).status).toBe(201);
    expectRateLimited(await create(flooder));
    // Reads are not writes, and another user writes on.
    expect(
      (await server.request('GET', '/api/groups?membership=mine', { token: flooder.accessToken }))
        .status,
    ).toBe(200);
    expect((await create(other)).status).toBe(201);
  });
});

// Behind a load balancer every request comes from the balancer, and the client's address is
// the entry the balancer appended to X-Forwarded-For: the rightmost. Whatever the client wrote
// itself stands to its left and must never be what is counted.
describe('rate limits behind one proxy (TRUST_PROXY=1)', () => {
  const server = useTestServer({
    env: { TRUST_PROXY: '1' },
    rateLimits: { guestPerIp: 2, loginPerIp: 3 },
  });
  const guest = (forwardedFor: string) =>
    server.request('POST', '/auth/register-guest', {
      body: { displayName: 'Flood', appName: 'hunch' },
      headers: { 'x-forwarded-for': forwardedFor },
    });
  const forged = fc.array(
    fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('unknown', '127.0.0.1', 'localhost', '')),
    { maxLength: 4 },
  );
  let address = 0;

  it('counts guest sign-ups by the address the proxy appended, whatever the client wrote before it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(forged, forged, forged), async (written) => {
        // A client address of its own for each run.
        address += 1;
        const client = `2001:db8::${address.toString(16)}`;
        const answers = [];
        for (const entries of written) answers.push(await guest([...entries, client].join(', ')));
        expect(answers.map((answer) => answer.status)).toEqual([201, 201, 429]);
      }),
      { numRuns: 15 },
    );
  });

  it('counts logins by that address too, and another client’s address apart', async () => {
    const login = (forwardedFor: string) =>
      server.request('POST', '/auth/login', {
        body: { email: 'nobody@example.com', password: 'Wrong-password-1' },
        headers: { 'x-forwarded-for': forwardedFor },
      });
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await login(`10.9.8.${attempt}, 198.51.100.7`)).status).toBe(401);
    expect((await login('10.9.8.200, 198.51.100.7')).status).toBe(429);
    expect((await login('198.51.100.7')).status).toBe(429);
    expect((await login('198.51.100.8')).status).toBe(401);
  });
});

describe('rate limits behind proxies named by address (TRUST_PROXY=127.0.0.1,10.0.0.0/8)', () => {
  const server = useTestServer({
    env: { TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' },
    rateLimits: { guestPerIp: 2 },
  });

  it('counts the first address from the right that is not a trusted proxy', async () => {
    const guest = (forwardedFor: string) =>
      server.request('POST', '/auth/register-guest', {
        body: { displayName: 'Flood', appName: 'hunch' },
        headers: { 'x-forwarded-for': forwardedFor },
      });
    expect((await guest('1.1.1.1, 203.0.113.9, 10.1.2.3')).status).toBe(201);
    expect((await guest('2.2.2.2, 203.0.113.9, 10.4.5.6')).status).toBe(201);
    expect((await guest('203.0.113.9')).status).toBe(429);
    expect((await guest('203.0.113.10, 10.1.2.3')).status).toBe(201);
  });
});

// With REDIS_URL, instances behind a load balancer share their counts (docs/architecture.md §9).
describe.runIf(process.env.REDIS_URL)('rate limits shared through Redis', () => {
  const env = { REDIS_URL: process.env.REDIS_URL! };
  const first = useTestServer({ env, rateLimits: { loginPerEmail: 3 } });
  const second = useTestServer(() => ({
    env,
    database: first.database,
    rateLimits: { loginPerEmail: 3 },
  }));

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
