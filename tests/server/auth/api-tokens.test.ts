import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ApiToken } from '../../../src/domain/api-tokens';
import { tokenScopeOf } from '../../../src/domain/policies/token-scopes';
import { apiTokens } from '../../../src/server/db/schema';
import { createGuest, createUser, useTestServer, type TestServer } from '../harness';
import { betRequest } from '../bets/bet.factories';
import { createGroup } from '../groups/group.factories';
import { listSignedInRoutes } from '../route-table';
import { deleteAccount } from './account-data.factories';
import { BOTH_SCOPES, makeToken, revokeToken } from './api-token.factories';

// Personal API tokens (docs/integrations.md, "API tokens"): made by a full account, shown once,
// kept as SHA-256; a token passes on the routes its scopes allow (domain/policies/token-scopes.ts)
// and nowhere else, within its rate limits, until it is revoked, the password changes or the
// account is deleted. Two instances: session-end.test.ts (api-token-endings.ts).

const server = useTestServer();

const HK_TOKEN = /^hk_[A-Za-z0-9_-]{43}$/;

async function tokensOf(on: TestServer, accessToken: string): Promise<ApiToken[]> {
  const response = await on.request<ApiToken[]>('GET', '/api/tokens', { token: accessToken });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe('making, listing and revoking tokens', () => {
  it('shows the token once and keeps only its SHA-256', async () => {
    const user = await createUser(server);
    const made = await makeToken(server, user, ['play', 'read'], '  Discord   bot ');

    expect(made).toEqual({
      id: expect.any(Number),
      name: 'Discord bot',
      scopes: ['read', 'play'],
      token: expect.stringMatching(HK_TOKEN),
      createdAt: expect.any(String),
      expiresAt: null,
    });
    const [row] = await server.database.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.id, made.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(made.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(made.token.slice(3));
    expect(await tokensOf(server, user.accessToken)).toEqual([
      {
        id: made.id,
        name: 'Discord bot',
        scopes: ['read', 'play'],
        createdAt: made.createdAt,
        lastUsedAt: null,
        expiresAt: null,
      },
    ]);
  });

  it('refuses a guest', async () => {
    const guest = await createGuest(server, 'Guest');
    const response = await server.request('POST', '/api/tokens', {
      token: guest.accessToken,
      body: { name: 'Bot', scopes: ['read'] },
    });
    expect(response.status, response.text).toBe(403);
    expect(response.body.code).toBe('full_account_required');
  });

  it.each([
    [{ name: 'Bot', scopes: [] }, 'scopes'],
    [{ name: 'Bot', scopes: ['admin'] }, 'scopes.0'],
    [{ name: '   ', scopes: ['read'] }, 'name'],
    [{ name: 'x'.repeat(51), scopes: ['read'] }, 'name'],
    [{ scopes: ['read'] }, 'name'],
  ])('refuses %j naming the field', async (body, field) => {
    const user = await createUser(server);
    const response = await server.request('POST', '/api/tokens', {
      token: user.accessToken,
      body,
    });
    expect(response.status, response.text).toBe(400);
    expect(Object.keys(response.body.fieldErrors ?? {})).toContain(field);
    expect(await tokensOf(server, user.accessToken)).toEqual([]);
  });

  it('holds at most 20 tokens per account', async () => {
    const user = await createUser(server);
    for (let n = 0; n < 20; n += 1) await makeToken(server, user, ['read'], `Token ${n}`);
    const response = await server.request('POST', '/api/tokens', {
      token: user.accessToken,
      body: { name: 'One more', scopes: ['read'] },
    });
    expect(response.status, response.text).toBe(422);
    expect(response.body.code).toBe('too_many_api_tokens');
  });

  it("revokes at once, and only the owner's token", async () => {
    const user = await createUser(server);
    const stranger = await createUser(server);
    const made = await makeToken(server, user);
    expect((await server.request('GET', '/api/groups', { token: made.token })).status).toBe(200);

    expect((await revokeToken(server, stranger, made.id)).status).toBe(404);
    expect((await server.request('GET', '/api/groups', { token: made.token })).status).toBe(200);
    const revoked = await revokeToken(server, user, made.id);
    expect(revoked.status, revoked.text).toBe(200);

    const refused = await server.request('GET', '/api/groups', { token: made.token });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('invalid_api_token');
    expect(await tokensOf(server, user.accessToken)).toEqual([]);
    expect((await revokeToken(server, user, made.id)).status).toBe(404);
  });

  it('writes the last use at most once a minute', async () => {
    const user = await createUser(server);
    const made = await makeToken(server, user, ['read']);
    const lastUsed = async () => (await tokensOf(server, user.accessToken))[0]!.lastUsedAt;

    await server.request('GET', '/api/groups', { token: made.token });
    const first = await lastUsed();
    expect(first).not.toBeNull();
    server.clock.advance(30_000);
    await server.request('GET', '/api/groups', { token: made.token });
    expect(await lastUsed()).toBe(first);
    server.clock.advance(31_000);
    await server.request('GET', '/api/groups', { token: made.token });
    expect(Date.parse((await lastUsed())!)).toBeGreaterThanOrEqual(Date.parse(first!) + 60_000);
  });
});

describe('what a token may call', () => {
  it('reads with read, and is refused writes without play', async () => {
    const user = await createUser(server);
    const group = await createGroup(server, user);
    const reader = await makeToken(server, user, ['read']);

    const read = await server.request('GET', `/api/groups/${group.id}/bets`, {
      token: reader.token,
    });
    expect(read.status, read.text).toBe(200);
    const write = await server.request('POST', '/api/bets', {
      token: reader.token,
      body: betRequest(server, group),
    });
    expect(write.status, write.text).toBe(403);
    expect(write.body).toEqual({
      code: 'insufficient_scope',
      message: 'This API token can\'t do this: it needs the "play" scope.',
    });
    expect(write.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="play"',
    );
  });

  it('plays with play (a bet, a wager, a comment) and is refused reads without read', async () => {
    const user = await createUser(server);
    const group = await createGroup(server, user);
    const player = await makeToken(server, user, ['play']);

    const bet = await server.request('POST', '/api/bets', {
      token: player.token,
      body: betRequest(server, group),
    });
    expect(bet.status, bet.text).toBe(201);
    const wager = await server.request('POST', '/api/bets/wagers', {
      token: player.token,
      body: { betId: bet.body.id, prediction: 'yes', points: 2 },
    });
    expect(wager.status, wager.text).toBe(201);
    const comment = await server.request('POST', `/api/bets/${bet.body.id}/comments`, {
      token: player.token,
      body: { text: 'Easy money' },
    });
    expect(comment.status, comment.text).toBe(201);
    const read = await server.request('GET', `/api/bets/${bet.body.id}`, { token: player.token });
    expect(read.status).toBe(403);
    expect(read.body.code).toBe('insufficient_scope');
  });

  it('is refused what no scope allows: the account, signing in elsewhere, tokens, export', async () => {
    const user = await createUser(server);
    const made = await makeToken(server, user, BOTH_SCOPES);
    const calls: Array<[string, string, unknown?]> = [
      ['PUT', '/auth/users/me', { displayName: 'Taken over' }],
      ['DELETE', '/auth/users/me', { currentPassword: user.password }],
      ['DELETE', '/auth/users/me/sessions'],
      ['GET', '/auth/users/me/export'],
      ['POST', '/auth/device-transfers'],
      ['POST', '/api/tokens', { name: 'Another', scopes: ['read'] }],
      ['GET', '/api/tokens'],
      ['DELETE', `/api/tokens/${made.id}`],
      ['POST', '/api/groups', { name: 'Bot group', privacy: 'private', defaultPoints: 100 }],
    ];
    for (const [method, path, body] of calls) {
      const response = await server.request(method, path, { token: made.token, body });
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(403);
      expect(response.body).toEqual({
        code: 'insufficient_scope',
        message: "API tokens can't do this: sign in to Hunch to do it.",
      });
    }
    const me = await server.request('GET', '/auth/users/me', { token: made.token });
    expect(me.body.displayName).toBe(user.user.displayName);
    expect(await tokensOf(server, user.accessToken)).toHaveLength(1);
  });

  it('is refused by every signed-in route the scope table does not name, and let in by the rest', async () => {
    const user = await createUser(server);
    const made = await makeToken(server, user, BOTH_SCOPES);
    const routes = await listSignedInRoutes(server);
    const mismatches: string[] = [];
    for (const route of routes) {
      const response = await server.request(route.method, route.url, {
        token: made.token,
        body: route.method === 'GET' ? undefined : {},
      });
      const isRefused = response.status === 403 && response.body.code === 'insufficient_scope';
      const isNamed = tokenScopeOf(route.method, route.pattern) !== null;
      if (isRefused === isNamed || response.status === 401)
        mismatches.push(`${route.method} ${route.pattern} → ${response.status}`);
    }
    expect(mismatches).toEqual([]);
    expect(routes.filter((route) => tokenScopeOf(route.method, route.pattern)).length).toBe(35);
  });

  it('pushes only the writes play allows, each refused by its name', async () => {
    const user = await createUser(server);
    const group = await createGroup(server, user);
    const reader = await makeToken(server, user, ['read']);
    const player = await makeToken(server, user, ['play']);
    const device = { clientGroupID: randomUUID(), clientID: randomUUID() };
    const mutations = [
      { id: 1, name: 'createBet', args: { body: betRequest(server, group) } },
      { id: 2, name: 'leaveGroup', args: { params: { id: group.id } } },
      { id: 3, name: 'updateGroup', args: { params: { id: group.id }, body: { name: 'Mine' } } },
    ];

    const refused = await server.request('POST', '/api/sync/push', {
      token: reader.token,
      body: { ...device, mutations },
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');

    const pushed = await server.request('POST', '/api/sync/push', {
      token: player.token,
      body: { ...device, mutations },
    });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.results.map((result: { ok: boolean }) => result.ok)).toEqual([
      true,
      false,
      false,
    ]);
    expect(pushed.body.results[1].error).toMatchObject({ code: 'insufficient_scope', status: 403 });
    const still = await server.request('GET', `/api/groups/${group.id}`, {
      token: user.accessToken,
    });
    expect(still.body.name).toBe(group.name);
  });

  it('needs no CSRF header, where the app with the cookie does', async () => {
    const user = await createUser(server);
    const group = await createGroup(server, user);
    const made = await makeToken(server, user, ['play']);
    const cookie = { cookie: 'XSRF-TOKEN=from-a-browser' };

    const withAccessToken = await server.request('POST', '/api/bets', {
      token: user.accessToken,
      headers: cookie,
      body: betRequest(server, group),
    });
    expect(withAccessToken.body.code).toBe('csrf_mismatch');
    const withApiToken = await server.request('POST', '/api/bets', {
      token: made.token,
      headers: cookie,
      body: betRequest(server, group),
    });
    expect(withApiToken.status, withApiToken.text).toBe(201);
  });
});

describe('what ends a token', () => {
  const NEW_PASSWORD = 'Brand-new-pass-7';

  it('ends every token when the password changes', async () => {
    const user = await createUser(server);
    const made = await makeToken(server, user);
    expect((await server.request('GET', '/api/groups', { token: made.token })).status).toBe(200);

    const changed = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: {
        password: NEW_PASSWORD,
        passwordConfirm: NEW_PASSWORD,
        currentPassword: user.password,
      },
    });
    expect(changed.status, changed.text).toBe(200);

    const refused = await server.request('GET', '/api/groups', { token: made.token });
    expect(refused.body.code).toBe('invalid_api_token');
    expect(await tokensOf(server, changed.body.accessToken)).toEqual([]);
  });

  it('keeps tokens when only the name changes', async () => {
    const user = await createUser(server);
    const made = await makeToken(server, user);
    const renamed = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: { displayName: 'Someone else' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await server.request('GET', '/api/groups', { token: made.token })).status).toBe(200);
  });

  it('ends every token when the account is deleted', async () => {
    const user = await createUser(server);
    const made = await makeToken(server, user);
    expect((await server.request('GET', '/api/groups', { token: made.token })).status).toBe(200);

    expect((await deleteAccount(server, user, user.password)).status).toBe(200);

    const refused = await server.request('GET', '/api/groups', { token: made.token });
    expect(refused.body.code).toBe('invalid_api_token');
    expect(
      await server.database.db.select().from(apiTokens).where(eq(apiTokens.userId, user.user.id)),
    ).toEqual([]);
  });
});

describe('rate limits', () => {
  const limited = useTestServer({
    rateLimits: { tokenRequestsPerToken: 3, tokenRequestsPerUser: 5 },
  });

  it('counts per token, then per user across their tokens', async () => {
    const user = await createUser(limited);
    const first = await makeToken(limited, user, ['read']);
    const second = await makeToken(limited, user, ['read']);
    const read = (token: string) => limited.request('GET', '/api/groups', { token });

    for (let n = 0; n < 3; n += 1) expect((await read(first.token)).status).toBe(200);
    const perToken = await read(first.token);
    expect(perToken.status).toBe(429);
    expect(perToken.body.code).toBe('rate_limited');
    expect(Number(perToken.headers.get('retry-after'))).toBeGreaterThan(0);

    for (let n = 0; n < 2; n += 1) expect((await read(second.token)).status).toBe(200);
    expect((await read(second.token)).status).toBe(429);
    // The app itself is not counted by the tokens' limits.
    expect((await limited.request('GET', '/api/groups', { token: user.accessToken })).status).toBe(
      200,
    );
  });
});
