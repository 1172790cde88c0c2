import { randomBytes } from 'node:crypto';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_PLAYER_NAME } from '../../../src/domain/account-data';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import { notificationText } from '../../../src/domain/notification-texts';
import type { Season } from '../../../src/domain/seasons';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import { mirrorPullResponseSchema } from '../../../src/server/mirror/synced-tables';
import { bets, ledger, memberships, wagers } from '../../../src/server/db/schema';
import {
  cancel,
  createBet,
  DAY,
  expireDueBets,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  resolve,
} from '../bets/bet.factories';
import { createGroup, createPlayer, joinGroup, makeAdmin } from '../groups/group.factories';
import { createUser, login, startTestServer, type TestServer } from '../harness';
import { connectAside, waitForLockWaiters } from '../db/aside-connection';
import { assertLedgerMatchesMemberships } from '../ledger-assertions';
import { inboxOf } from '../notifications/notification.factories';
import { connectionError, connectSocket } from '../realtime/test-socket';
import { deleteAccount, subscribeToPush } from './account-data.factories';

// DELETE /auth/users/me: personal data goes at once, in one transaction; the
// user row stays as a "Deleted player" tombstone so every group's ledger, wagers and bets stay
// exactly as they were and nobody else's payout changes.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(NO_EXPIRY_TIMER);
});
afterEach(() => assertLedgerMatchesMemberships(server.database));
afterAll(() => server.close());

/** A full account with names found nowhere else in the database. */
async function createMaya() {
  const tag = randomBytes(4).toString('hex');
  return createUser(server, {
    firstName: `Mayabelle${tag}`,
    lastName: `Quintessa${tag}`,
    displayName: `Maya Q ${tag}`,
    username: `mayaq_${tag}`,
    email: `maya.${tag}@example.com`,
  });
}

/** A raw statement's rows (both drivers answer `{ rows }`). */
async function rowsOf<T>(query: SQL): Promise<T[]> {
  const result = (await server.database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Every table and text-like column of the database, from information_schema. */
async function textColumns(): Promise<Array<{ schema: string; table: string; column: string }>> {
  const rows = await rowsOf<{ table_schema: string; table_name: string; column_name: string }>(sql`
    select c.table_schema, c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables t
      on t.table_schema = c.table_schema and t.table_name = c.table_name
    where t.table_type = 'BASE TABLE'
      and c.table_schema not in ('pg_catalog', 'information_schema')
      and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')
  `);
  return rows.map((row) => ({
    schema: row.table_schema,
    table: row.table_name,
    column: row.column_name,
  }));
}

/** `schema.table.column` of every text column holding `needle` anywhere, case-insensitively. */
async function columnsHolding(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const { schema, table, column } of await textColumns()) {
    const [count] = await rowsOf<{ hits: number }>(sql`
      select count(*)::int as hits from ${sql.identifier(schema)}.${sql.identifier(table)}
      where position(lower(${needle}) in lower(${sql.identifier(column)}::text)) > 0
    `);
    if (Number(count!.hits) > 0) found.push(`${schema}.${table}.${column}`);
  }
  return found;
}

async function pointsTable() {
  return server.database.db
    .select({
      groupId: memberships.groupId,
      userId: memberships.userId,
      totalPoints: memberships.totalPoints,
      availablePoints: memberships.availablePoints,
    })
    .from(memberships)
    .orderBy(asc(memberships.groupId), asc(memberships.userId));
}

/** The groups `userId` is a current member of (their membership not left). */
async function currentGroupsOf(userId: number): Promise<number[]> {
  const rows = await server.database.db
    .select({ groupId: memberships.groupId, leftAt: memberships.leftAt })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  return rows.filter((row) => row.leftAt === null).map((row) => row.groupId);
}

async function gameRows() {
  const db = server.database.db;
  return {
    ledger: await db.select().from(ledger).orderBy(asc(ledger.id)),
    wagers: (await db.select().from(wagers).orderBy(asc(wagers.id))).map(
      ({ id, betId, userId, prediction, points }) => ({ id, betId, userId, prediction, points }),
    ),
    bets: (await db.select().from(bets).orderBy(asc(bets.id))).map(
      ({ id, groupId, createdBy, state, title }) => ({ id, groupId, createdBy, state, title }),
    ),
  };
}

async function pull(user: AuthResponse, cursor = MIRROR_START_CURSOR): Promise<MirrorPullResponse> {
  const response = await server.request(
    'GET',
    `/api/member/state?cursor=${encodeURIComponent(cursor)}`,
    { token: user.accessToken },
  );
  expect(response.status, response.text).toBe(200);
  return mirrorPullResponseSchema.parse(response.body);
}

async function pushSubscriptionCount(userId: number): Promise<number> {
  const [row] = await rowsOf<{ count: number }>(
    sql`select count(*)::int as count from push_subscriptions where user_id = ${userId}`,
  );
  return Number(row!.count);
}

async function adminsOf(viewer: AuthResponse, group: Group): Promise<number[]> {
  const response = await server.request<Group>('GET', `/api/groups/${group.id}`, {
    token: viewer.accessToken,
  });
  expect(response.status, response.text).toBe(200);
  return response.body.admins;
}

describe('DELETE /auth/users/me', () => {
  it('leaves the email, names, username and comments in no table, and every point where it was', async () => {
    const maya = await createMaya();
    const [bo, cy] = [await createPlayer(server, 'Bo'), await createPlayer(server, 'Cy')];
    const group = await createGroup(server, maya);
    await joinGroup(server, bo, group);
    await joinGroup(server, cy, group);
    const open = await createBet(server, maya, group, {
      title: 'Will the bus be late?',
      baseWagerAmount: 3,
    });
    await placeWager(server, maya, open, 'yes', 3);
    await placeWager(server, bo, open, 'no', 6);
    const settled = await createBet(server, bo, group, {
      title: 'Pizza on Friday?',
      baseWagerAmount: 2,
    });
    await placeWager(server, maya, settled, 'yes', 2);
    await placeWager(server, cy, settled, 'no', 6);
    expect(
      (
        await server.request('PUT', `/api/bets/${settled.id}/resolve`, {
          token: bo.accessToken,
          body: { correctAnswer: 'yes' },
        })
      ).status,
    ).toBe(200);
    // Her words on a bet go with her account.
    const said = 'Maya says the bus is always late';
    expect(
      (
        await server.request('POST', `/api/bets/${open.id}/comments`, {
          token: maya.accessToken,
          body: { text: said },
        })
      ).status,
    ).toBe(201);
    await subscribeToPush(server, maya);
    // A write's answer kept under its Idempotency-Key, and a reset link.
    expect(
      (
        await server.request('POST', '/api/notifications/read-all', {
          token: maya.accessToken,
          headers: { 'idempotency-key': `read-${randomBytes(4).toString('hex')}` },
          body: { upTo: new Date().toISOString() },
        })
      ).status,
    ).toBe(200);
    await server.request('POST', '/auth/forgot-password', { body: { email: maya.email } });
    // An email change waiting for its confirmation link holds her next address.
    const nextEmail = `maya.next.${randomBytes(4).toString('hex')}@example.com`;
    expect(
      (
        await server.request('PUT', '/auth/users/me', {
          token: maya.accessToken,
          body: { email: nextEmail, currentPassword: maya.password },
        })
      ).status,
    ).toBe(200);
    const personal = [
      maya.email,
      nextEmail,
      maya.user.username,
      maya.user.displayName,
      maya.user.firstName,
      maya.user.lastName,
      said,
    ];
    for (const needle of personal) expect(await columnsHolding(needle)).not.toEqual([]);
    const pointsBefore = await pointsTable();
    const rowsBefore = await gameRows();

    const response = await deleteAccount(server, maya, maya.password);

    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });
    for (const needle of personal) expect(await columnsHolding(needle), needle).toEqual([]);
    expect(await pointsTable()).toEqual(pointsBefore);
    expect(await gameRows()).toEqual(rowsBefore);
    expect(await pointsOf(server, bo, group)).toEqual({ total: 100, available: 94 });
    expect(await currentGroupsOf(maya.user.id)).toEqual([]);
  });

  it('ends her memberships: the others\' next pull and the leaderboard drop her, her bubble says "Deleted player"', async () => {
    const maya = await createMaya();
    const bo = await createPlayer(server, 'Bo');
    const group = await createGroup(server, bo);
    await joinGroup(server, maya, group);
    const bet = await createBet(server, bo, group, { baseWagerAmount: 3 });
    await placeWager(server, maya, bet, 'yes', 9);
    const first = await pull(bo);
    expect(first.memberships).toContainEqual(
      expect.objectContaining({ groupId: group.id, userId: maya.user.id }),
    );

    expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);

    const next = await pull(bo, first.cursor);
    expect(next.removedMemberships).toContainEqual({ groupId: group.id, userId: maya.user.id });
    expect(next.groups.find((g) => g.id === group.id)?.memberUserIds).toEqual([bo.user.id]);
    const leaderboard = await server.request('GET', `/api/groups/${group.id}/leaderboard`, {
      token: bo.accessToken,
    });
    expect(leaderboard.body.users.map((user: { id: number }) => user.id)).toEqual([bo.user.id]);
    // Her wager stays on the bet, under her tombstone's name.
    const bubbles = await server.request('GET', `/auth/users/ids?ids=${maya.user.id}`, {
      token: bo.accessToken,
    });
    expect(bubbles.body).toEqual([
      { id: maya.user.id, displayName: DELETED_PLAYER_NAME, username: '', email: '' },
    ]);
    expect(await currentGroupsOf(maya.user.id)).toEqual([]);
  });

  it("leaves this week's table, member counts and open bets' participation; her join leaves friends' inboxes; her settled results stay", async () => {
    const maya = await createMaya();
    const bo = await createPlayer(server, 'Bo');
    const cy = await createPlayer(server, 'Cy');
    const group = await createGroup(server, bo);
    await joinGroup(server, cy, group);
    await joinGroup(server, maya, group);
    const settled = await createBet(server, bo, group);
    await placeWager(server, maya, settled, 'yes', 1);
    await placeWager(server, bo, settled, 'no', 1);
    expect((await resolve(server, bo, settled, 'yes')).status).toBe(200);
    const open = await createBet(server, bo, group);
    await placeWager(server, bo, open, 'yes', 1);
    const joined = async (user: AuthResponse) =>
      (await inboxOf(server, user)).notifications.filter((n) => n.kind === 'memberJoined');
    expect((await joined(bo)).map((n) => notificationText(n).title)).toEqual([
      `2 players joined ${group.name}`,
    ]);
    expect((await joined(cy)).map((n) => n.count)).toEqual([1]);

    expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);

    const week = await server.request<{ members: Array<{ userId: number }> }>(
      'GET',
      `/api/groups/${group.id}/leaderboard/period?${new URLSearchParams({
        from: new Date(server.clock.now().getTime() - DAY).toISOString(),
        previousFrom: new Date(server.clock.now().getTime() - 8 * DAY).toISOString(),
      })}`,
      { token: bo.accessToken },
    );
    expect(week.status, week.text).toBe(200);
    expect(week.body.members.map((m) => m.userId).sort()).toEqual([bo.user.id, cy.user.id].sort());
    const found = await server.request<Array<{ id: number; memberCount: number }>>(
      'GET',
      `/api/groups/public?search=${encodeURIComponent(group.name)}`,
      { token: cy.accessToken },
    );
    expect(found.body.find((g) => g.id === group.id)?.memberCount).toBe(2);
    const openStats = await server.request('GET', `/api/bets/${open.id}/statistics`, {
      token: cy.accessToken,
    });
    expect(openStats.body).toMatchObject({ totalParticipants: 1, totalMembers: 2 });
    // Her settled result stays: the bet she won still counts her wager.
    const settledStats = await server.request('GET', `/api/bets/${settled.id}/statistics`, {
      token: cy.accessToken,
    });
    expect(settledStats.body).toMatchObject({ totalParticipants: 2, totalMembers: 3 });

    // Nobody's inbox says a deleted player joined: an entry of her alone is gone, a gathered one
    // counts one less and names the one who is still there.
    const [gathered] = await joined(bo);
    expect(gathered?.count).toBe(1);
    expect(notificationText(gathered!).title).toBe(`${cy.user.displayName} joined ${group.name}`);
    expect(await joined(cy)).toEqual([]);
    for (const user of [bo, cy])
      for (const entry of (await inboxOf(server, user)).notifications)
        expect(notificationText(entry).title).not.toContain(`${DELETED_PLAYER_NAME} joined`);
  });

  it('whatever players do, whoever deleted their account or left is on no current table and in no "joined" entry', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            who: fc.integer({ min: 0, max: 2 }),
            act: fc.constantFrom('wager', 'leave', 'delete', 'resolve'),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (steps) => {
          const bo = await createPlayer(server, 'Bo');
          const group = await createGroup(server, bo);
          const others = [];
          for (const name of ['Ann', 'Cal', 'Dee']) {
            const user = await createUser(server, { displayName: name });
            await joinGroup(server, user, group);
            others.push(user);
          }
          const current = new Set([bo.user.id, ...others.map((o) => o.user.id)]);
          let bet = await createBet(server, bo, group);
          let backers = new Set<number>();
          for (const { who, act } of steps) {
            const user = others[who]!;
            const here = current.has(user.user.id);
            if (act === 'wager' && here && !backers.has(user.user.id)) {
              await placeWager(server, user, bet, 'yes', 1);
              backers.add(user.user.id);
            } else if (act === 'leave' && here) {
              const left = await server.request('POST', `/api/groups/${group.id}/leave`, {
                token: user.accessToken,
              });
              expect(left.status, left.text).toBe(200);
              current.delete(user.user.id);
            } else if (act === 'delete' && here) {
              expect((await deleteAccount(server, user, user.password)).status).toBe(200);
              current.delete(user.user.id);
            } else if (act === 'resolve') {
              await placeWager(server, bo, bet, 'no', 1);
              expect((await resolve(server, bo, bet, 'yes')).status).toBe(200);
              bet = await createBet(server, bo, group);
              backers = new Set();
            }
            const expected = [...current].sort((a, b) => a - b);
            const board = await server.request('GET', `/api/groups/${group.id}/leaderboard`, {
              token: bo.accessToken,
            });
            expect(board.body.users.map((u: { id: number }) => u.id).sort()).toEqual(
              expected.sort(),
            );
            const week = await server.request<{ members: Array<{ userId: number }> }>(
              'GET',
              `/api/groups/${group.id}/leaderboard/period?${new URLSearchParams({
                from: new Date(server.clock.now().getTime() - DAY).toISOString(),
                previousFrom: new Date(server.clock.now().getTime() - 8 * DAY).toISOString(),
              })}`,
              { token: bo.accessToken },
            );
            for (const member of week.body.members) expect(current).toContain(member.userId);
            const stats = await server.request('GET', `/api/bets/${bet.id}/statistics`, {
              token: bo.accessToken,
            });
            expect(stats.body.totalMembers).toBe(current.size);
            for (const entry of (await inboxOf(server, bo)).notifications) {
              if (entry.kind !== 'memberJoined') continue;
              const text = notificationText(entry);
              expect(`${text.title} ${text.body}`).not.toContain(DELETED_PLAYER_NAME);
            }
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it('keeps her open wagers, which settle to her left membership with the ledger balanced', async () => {
    const maya = await createMaya();
    const bo = await createPlayer(server, 'Bo');
    const group = await createGroup(server, bo);
    await joinGroup(server, maya, group);
    const bet = await createBet(server, bo, group, { baseWagerAmount: 2 });
    await placeWager(server, maya, bet, 'yes', 4);
    await placeWager(server, bo, bet, 'no', 4);

    expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);
    expect((await resolve(server, bo, bet, 'yes')).status).toBe(200);

    const [row] = await server.database.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, maya.user.id));
    expect(row).toMatchObject({ totalPoints: 104, availablePoints: 104, leftAt: expect.any(Date) });
    expect(await pointsOf(server, bo, group)).toEqual({ total: 96, available: 96 });
  });

  it('lets no admin add her back', async () => {
    const maya = await createMaya();
    const bo = await createPlayer(server, 'Bo');
    const group = await createGroup(server, bo);
    await joinGroup(server, maya, group);

    expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);

    const added = await server.request('POST', `/api/groups/${group.id}/members`, {
      token: bo.accessToken,
      body: { userId: maya.user.id },
    });
    expect(added.status, added.text).toBeGreaterThanOrEqual(400);
    expect(added.status).toBeLessThan(500);
    expect(await currentGroupsOf(maya.user.id)).toEqual([]);
  });

  it('names her nowhere in a season she won: its standings and the others\' inbox say "Deleted player"', async () => {
    const maya = await createMaya();
    const bo = await createPlayer(server, 'Bo');
    const group = await createGroup(server, maya);
    await joinGroup(server, bo, group);
    const season = await server.request<Season>('POST', `/api/groups/${group.id}/seasons`, {
      token: maya.accessToken,
      body: {
        name: 'Spring cup',
        endsAt: new Date(server.clock.now().getTime() + DAY).toISOString(),
      },
    });
    expect(season.status, season.text).toBe(201);
    const bet = await createBet(server, bo, group, { baseWagerAmount: 2 });
    await placeWager(server, maya, bet, 'yes', 2);
    await placeWager(server, bo, bet, 'no', 2);
    await resolve(server, bo, bet, 'yes');
    const ended = await server.request(
      'POST',
      `/api/groups/${group.id}/seasons/${season.body.id}/end`,
      { token: maya.accessToken },
    );
    expect(ended.status, ended.text).toBe(200);
    const boText = async () => {
      const entry = (await inboxOf(server, bo)).notifications.find((n) => n.kind === 'seasonEnded');
      return notificationText(entry!).body;
    };
    expect(await boText()).toBe(
      `You finished 2nd of 2, −2 points. ${maya.user.displayName} won it.`,
    );
    const first = await pull(bo);

    expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);

    expect(await columnsHolding(maya.user.displayName)).toEqual([]);
    expect(await boText()).toBe(`You finished 2nd of 2, −2 points. ${DELETED_PLAYER_NAME} won it.`);
    const next = await pull(bo, first.cursor);
    expect(next.seasons.find((s) => s.id === season.body.id)?.standings[0]).toMatchObject({
      userId: maya.user.id,
      userName: DELETED_PLAYER_NAME,
      rank: 1,
    });
    expect(next.notifications.find((n) => n.kind === 'seasonEnded')?.payload.winnerName).toBe(
      DELETED_PLAYER_NAME,
    );
  });

  it('ends every way back in: login by the old email, refresh and the access token all fail', async () => {
    const maya = await createMaya();
    const elsewhere = await login(server, maya.email, maya.password);

    expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);

    const again = await login(server, maya.email, maya.password);
    expect(again.status).toBe(401);
    expect((again.body as unknown as { code: string }).code).toBe('invalid_credentials');
    for (const refreshToken of [maya.refreshToken, elsewhere.body.refreshToken]) {
      const refreshed = await server.request('POST', '/auth/refresh-token', {
        body: { refreshToken },
      });
      expect(refreshed.status).toBe(401);
    }
    const token = maya.accessToken;
    expect((await server.request('GET', '/auth/users/me', { token })).status).toBe(401);
    expect(
      (await server.request('PUT', '/auth/users/me', { token, body: { displayName: 'Back' } }))
        .status,
    ).toBe(401);
    expect((await server.request('GET', '/auth/users/me/export', { token })).status).toBe(401);
    expect((await deleteAccount(server, maya, maya.password)).status).toBe(401);
  });

  it('removes her push subscriptions, and her still unexpired token cannot register one again', async () => {
    const maya = await createMaya();
    const subscription = await subscribeToPush(server, maya);

    expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);

    const again = await server.request('POST', '/api/push-subscriptions', {
      token: maya.accessToken,
      body: subscription,
    });
    expect(again.status).toBe(401);
    expect(await pushSubscriptionCount(maya.user.id)).toBe(0);
  });

  it('frees the email and username for a new account', async () => {
    const maya = await createMaya();
    expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);
    const again = await server.request('POST', '/auth/register', {
      body: {
        firstName: 'New',
        lastName: 'Maya',
        displayName: 'New Maya',
        username: maya.user.username,
        email: maya.email,
        password: 'Another-horse-2',
        passwordConfirm: 'Another-horse-2',
        appName: 'hunch',
        isTemporary: false,
      },
    });
    expect(again.status, again.text).toBe(201);
    expect(again.body.user.id).not.toBe(maya.user.id);
  });

  it('drops the open sockets of the account, which cannot connect again', async () => {
    const maya = await createMaya();
    const client = await connectSocket(server, maya.accessToken);
    const dropped = new Promise<string>((resolve) =>
      client.socket.once('disconnect', (reason) => resolve(reason)),
    );
    try {
      expect((await deleteAccount(server, maya, maya.password)).status).toBe(200);
      expect(await dropped).toBe('transport close');
      expect(await connectionError(server, { auth: { token: maya.accessToken } })).toContain(
        'Authentication',
      );
    } finally {
      client.close();
    }
  });

  it('refuses a wrong or missing password with 403 invalid_current_password and changes nothing', async () => {
    const maya = await createMaya();
    for (const currentPassword of ['Wrong-horse-9', undefined]) {
      const response = await deleteAccount(server, maya, currentPassword);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('invalid_current_password');
      expect(response.body.fieldErrors.currentPassword).toEqual(expect.any(String));
    }
    const me = await server.request('GET', '/auth/users/me', { token: maya.accessToken });
    expect(me.body).toEqual(maya.user);
    expect((await login(server, maya.email, maya.password)).status).toBe(200);
  });

  it('lets a guest delete without a password', async () => {
    const guest = await createPlayer(server, 'Guesty');
    const bo = await createPlayer(server, 'Bo');
    const group = await createGroup(server, bo);
    await joinGroup(server, guest, group);

    const response = await server.request('DELETE', '/auth/users/me', {
      token: guest.accessToken,
    });

    expect(response.status, response.text).toBe(200);
    expect(await columnsHolding(guest.user.displayName)).toEqual([]);
    const refreshed = await server.request('POST', '/auth/refresh-token', {
      body: { refreshToken: guest.refreshToken },
    });
    expect(refreshed.status).toBe(401);
    expect(await pointsOf(server, bo, group)).toEqual({ total: 100, available: 100 });
  });

  it('hands admin to the longest-standing member when the only admin leaves', async () => {
    const creator = await createPlayer(server, 'Creator');
    const [early, late] = [await createPlayer(server, 'Early'), await createPlayer(server, 'Late')];
    const group = await createGroup(server, creator);
    await joinGroup(server, early, group);
    await joinGroup(server, late, group);

    expect((await deleteAccount(server, creator)).status).toBe(200);

    // The group still names its creator, who is no longer a member or an admin of it.
    expect(await adminsOf(late, group)).toEqual([early.user.id]);
    const updated = await server.request<Group>('GET', `/api/groups/${group.id}`, {
      token: late.accessToken,
    });
    expect(updated.body.createdByUserId).toBe(creator.user.id);
    expect(updated.body.memberUserIds.sort()).toEqual([early.user.id, late.user.id].sort());
  });

  it("leaves the creator's group administrable by the new admin", async () => {
    const creator = await createPlayer(server, 'Creator');
    const [early, late] = [await createPlayer(server, 'Early'), await createPlayer(server, 'Late')];
    const group = await createGroup(server, creator);
    await joinGroup(server, early, group);
    await joinGroup(server, late, group);
    const bet = await createBet(server, late, group, { baseWagerAmount: 2 });

    expect((await deleteAccount(server, creator)).status).toBe(200);

    const token = early.accessToken;
    const settings = await server.request('PATCH', `/api/groups/${group.id}/settings`, {
      token,
      body: { floorTopUp: false },
    });
    expect(settings.status, settings.text).toBe(200);
    const promoted = await server.request('POST', `/api/groups/${group.id}/admins`, {
      token,
      body: { userId: late.user.id },
    });
    expect(promoted.status, promoted.text).toBe(200);
    const removed = await server.request(
      'DELETE',
      `/api/groups/${group.id}/members/${late.user.id}`,
      {
        token,
      },
    );
    expect(removed.status, removed.text).toBe(200);
    expect((await cancel(server, early, bet)).status).toBe(200);
    expect(await adminsOf(early, group)).toEqual([early.user.id]);
  });

  it('promotes nobody when another live admin remains', async () => {
    const creator = await createPlayer(server, 'Creator');
    const [member, admin] = [
      await createPlayer(server, 'Member'),
      await createPlayer(server, 'Admin'),
    ];
    const group = await createGroup(server, creator);
    await joinGroup(server, member, group);
    await joinGroup(server, admin, group);
    await makeAdmin(server, creator, group, admin);

    expect((await deleteAccount(server, creator)).status).toBe(200);

    expect(await adminsOf(member, group)).toEqual([admin.user.id]);
  });

  it("leaves the player's open bets to be cancelled by an admin or to expire with refunds", async () => {
    const creator = await createPlayer(server, 'Creator');
    const bo = await createPlayer(server, 'Bo');
    const group = await createGroup(server, creator);
    await joinGroup(server, bo, group);
    const toCancel = await createBet(server, creator, group, { baseWagerAmount: 3 });
    const toExpire = await createBet(server, creator, group, { baseWagerAmount: 3 });
    await placeWager(server, bo, toCancel, 'yes', 3);
    await placeWager(server, bo, toExpire, 'no', 6);

    expect((await deleteAccount(server, creator)).status).toBe(200);

    expect((await cancel(server, bo, toCancel)).status).toBe(200);
    expect(await pointsOf(server, bo, group)).toEqual({ total: 100, available: 94 });
    await expireDueBets(server, new Date(server.clock.now().getTime() + 9 * DAY));
    expect(await pointsOf(server, bo, group)).toEqual({ total: 100, available: 100 });
  });
});

describe.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
  'DELETE /auth/users/me racing other requests',
  () => {
    it('refuses a push subscription whose request passed sign-in before the deletion committed', async () => {
      const maya = await createMaya();
      const aside = await connectAside(server);
      try {
        // Hold the deletion midway: it has locked her user row and waits for this session token.
        await aside.query('begin');
        await aside.query('select id from refresh_tokens where user_id = $1 for update', [
          maya.user.id,
        ]);
        const deleting = deleteAccount(server, maya, maya.password);
        await waitForLockWaiters(aside, 1);
        // Her token is still live: this request is let in, and meets the deletion in the database.
        const registering = subscribeToPush(server, maya).then(
          () => 201,
          (error: Error) => Number(/failed: (\d+)/.exec(error.message)?.[1]),
        );
        await waitForLockWaiters(aside, 2);
        await aside.query('rollback');

        expect((await deleting).status).toBe(200);
        expect(await registering).toBe(401);
        expect(await pushSubscriptionCount(maya.user.id)).toBe(0);
      } finally {
        await aside.end();
      }
    });
  },
);
