import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AccountExport } from '../../../src/domain/account-data';
import { accountExportSchema } from '../../../src/domain/schemas/account-data';
import type { AuthResponse } from '../../../src/domain/auth';
import { apiTokens, refreshTokens, users } from '../../../src/server/db/schema';
import { createBet, NO_EXPIRY_TIMER, placeWager } from '../bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import { createUser, login, startTestServer, type TestServer } from '../harness';
import { assertLedgerMatchesMemberships } from '../ledger-assertions';
import { inboxOf, mute } from '../notifications/notification.factories';
import { subscribeToPush } from './account-data.factories';
import { makeToken } from './api-token.factories';

// GET /auth/users/me/export: everything Hunch holds about the caller as one JSON
// download, and nothing secret (no password hash, no token or its hash, no push keys).

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(NO_EXPIRY_TIMER);
});
afterEach(() => assertLedgerMatchesMemberships(server.database));
afterAll(() => server.close());

const exportOf = (user: AuthResponse) =>
  server.request<AccountExport>('GET', '/auth/users/me/export', { token: user.accessToken });

describe('GET /auth/users/me/export', () => {
  it("holds the player's profile, groups, wagers, comments, bets, ledger, devices and sessions", async () => {
    const maya = await createUser(server, { displayName: 'Maya Export' });
    const bo = await createPlayer(server, 'Bo');
    const group = await createGroup(server, bo);
    await joinGroup(server, maya, group);
    const theirs = await createBet(server, bo, group, { title: 'Rain on Sunday?' });
    const hers = await createBet(server, maya, group, { title: 'Cake at the party?' });
    const wager = await placeWager(server, maya, theirs, 'yes', 2);
    await placeWager(server, bo, hers, 'no', 1);
    const comment = await server.request<{ id: number }>(
      'POST',
      `/api/bets/${theirs.id}/comments`,
      {
        token: maya.accessToken,
        body: { text: 'Bring an umbrella.' },
      },
    );
    expect(comment.status, comment.text).toBe(201);
    const push = await subscribeToPush(server, maya);
    expect((await mute(server, maya, { betId: hers.id })).status).toBe(200);
    const inbox = await inboxOf(server, maya);
    await login(server, maya.email, maya.password);

    const response = await exportOf(maya);

    expect(response.status, response.text).toBe(200);
    const date = new Date().toISOString().slice(0, 10);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="hunch-export-${maya.user.id}-${date}.json"`,
    );
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const document = accountExportSchema.parse(response.body);
    expect(document.profile).toMatchObject({
      id: maya.user.id,
      displayName: 'Maya Export',
      email: maya.email,
      username: maya.user.username,
      isTemporary: false,
    });
    expect(document.memberships).toEqual([
      expect.objectContaining({
        groupId: group.id,
        groupName: group.name,
        role: 'member',
        isCreator: false,
        totalPoints: 100,
        availablePoints: 98,
        leftAt: null,
      }),
    ]);
    expect(document.wagers).toEqual([
      expect.objectContaining({
        id: wager.id,
        betId: theirs.id,
        betTitle: 'Rain on Sunday?',
        groupId: group.id,
        prediction: 'yes',
        points: 2,
      }),
    ]);
    expect(document.comments).toEqual([
      expect.objectContaining({
        id: comment.body.id,
        betId: theirs.id,
        betTitle: 'Rain on Sunday?',
        groupId: group.id,
        text: 'Bring an umbrella.',
      }),
    ]);
    expect(document.betsCreated.map((bet) => [bet.id, bet.title, bet.state])).toEqual([
      [hers.id, 'Cake at the party?', 'active'],
    ]);
    expect(document.ledger.map((row) => [row.kind, row.totalDelta, row.availableDelta])).toEqual([
      ['join_grant', 100, 100],
      ['wager_placed', 0, -2],
    ]);
    expect(document.pushSubscriptions).toEqual([
      expect.objectContaining({
        deviceName: 'Desktop Chrome',
        endpointHost: '127.0.0.1:9',
        isActive: true,
      }),
    ]);
    expect(document.notifications).toEqual(
      inbox.notifications.map(({ version: _version, ...entry }) => entry),
    );
    expect(document.notifications).toEqual([
      expect.objectContaining({ kind: 'betCreated', groupId: group.id, betId: theirs.id }),
    ]);
    expect(document.notificationSettings).toEqual({
      pushOff: [],
      mutedGroupIds: [],
      mutedBetIds: [hers.id],
    });
    expect(document.sessions).toHaveLength(2);
    expect(document.sessions.every((session) => session.isActive)).toBe(true);

    // Nothing secret, by name or by value.
    const [row] = await server.database.db.select().from(users).where(eq(users.id, maya.user.id));
    const hashes = await server.database.db
      .select({ tokenHash: refreshTokens.tokenHash, familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, maya.user.id));
    const secrets = [
      row!.passwordHash!,
      maya.password,
      maya.accessToken,
      maya.refreshToken,
      push.endpoint,
      new URL(push.endpoint).pathname,
      push.keys.p256dh,
      push.keys.auth,
      ...hashes.flatMap((hash) => [hash.tokenHash, hash.familyId]),
    ];
    for (const secret of secrets) expect(response.text).not.toContain(secret);
    // The list of API tokens is named so; no field of it, nor any other, holds a token.
    const fields = response.text.toLowerCase().replaceAll('"apitokens":', '');
    for (const field of ['password', 'token', 'hash', 'p256dh', '"auth"', 'keys', 'family'])
      expect(fields).not.toContain(field);
  });

  it("lists the player's API tokens: name, scopes, created, last used, expiry, never the token", async () => {
    const maya = await createUser(server, { displayName: 'Maya Tokens' });
    const expiresAt = new Date(server.clock.now().getTime() + 30 * 86_400_000).toISOString();
    const bot = await makeToken(server, maya, ['read'], 'Discord bot', expiresAt);
    const script = await makeToken(server, maya, ['read', 'play'], 'Script');
    expect((await server.request('GET', '/api/groups', { token: bot.token })).status).toBe(200);
    const [row] = await server.database.db.select().from(apiTokens).where(eq(apiTokens.id, bot.id));

    const response = await exportOf(maya);
    expect(response.status, response.text).toBe(200);
    expect(response.body.apiTokens).toEqual([
      {
        name: 'Discord bot',
        scopes: ['read'],
        createdAt: bot.createdAt,
        lastUsedAt: row!.lastUsedAt!.toISOString(),
        expiresAt,
      },
      {
        name: 'Script',
        scopes: ['read', 'play'],
        createdAt: script.createdAt,
        lastUsedAt: null,
        expiresAt: null,
      },
    ]);
    expect(accountExportSchema.parse(response.body).apiTokens).toHaveLength(2);
    for (const secret of [bot.token, script.token, row!.tokenHash])
      expect(response.text).not.toContain(secret);
  });

  it('exports a guest too, with an empty email and username', async () => {
    const guest = await createPlayer(server, 'Guesty');
    const response = await exportOf(guest);
    expect(response.status).toBe(200);
    expect(response.body.profile).toMatchObject({
      id: guest.user.id,
      email: '',
      username: '',
      isTemporary: true,
    });
    expect(response.body.memberships).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('GET', '/auth/users/me/export')).status).toBe(401);
  });

  it('is rate limited per player', async () => {
    const guest = await createPlayer(server, 'Greedy');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await exportOf(guest)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Another player is not held back.
    expect((await exportOf(await createPlayer(server, 'Other'))).status).toBe(200);
  });
});
