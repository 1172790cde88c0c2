import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import { mirrorPullResponseSchema } from '../../../src/server/mirror/synced-tables';
import { createMirrorService } from '../../../src/server/mirror/mirror.service';
import { cancel, createBet, NO_EXPIRY_TIMER, placeWager, resolve } from '../bets/bet.factories';
import { createGroup, createPlayer, joinGroup, recordEvents } from '../groups/group.factories';
import { useTestServer } from '../harness';

// The local mirror's pull (GET /api/member/state?cursor=…, docs/architecture.md §8): a first pull
// brings every group of the player whole, later pulls only what changed, what left the
// player's view is reported, and a pull with nothing new is one small answer.

const server = useTestServer(NO_EXPIRY_TIMER);

async function pull(
  user: AuthResponse,
  cursor: string = MIRROR_START_CURSOR,
): Promise<MirrorPullResponse & { bytes: number }> {
  const response = await server.request<MirrorPullResponse>(
    'GET',
    `/api/member/state?cursor=${encodeURIComponent(cursor)}`,
    { token: user.accessToken },
  );
  expect(response.status, response.text).toBe(200);
  return {
    ...mirrorPullResponseSchema.parse(response.body),
    bytes: Buffer.byteLength(response.text),
  };
}

/** Pulls every page from `cursor` and returns the answers in order. */
async function pullAll(
  user: AuthResponse,
  cursor: string = MIRROR_START_CURSOR,
): Promise<MirrorPullResponse[]> {
  const pages: MirrorPullResponse[] = [];
  for (let next = cursor; ;) {
    const page = await pull(user, next);
    pages.push(page);
    next = page.cursor;
    if (!page.hasMore) return pages;
  }
}

async function groupWithBets() {
  const [owner, friend] = [
    await createPlayer(server, 'Owner'),
    await createPlayer(server, 'Friend'),
  ];
  const group = await createGroup(server, owner, { privacy: 'private' });
  await joinGroup(server, friend, group);
  const open = await createBet(server, owner, group, { title: 'Open' });
  const settled = await createBet(server, friend, group, { title: 'Settled' });
  const called = await createBet(server, owner, group, { title: 'Called off' });
  await placeWager(server, owner, open, 'yes', 2);
  await placeWager(server, friend, open, 'no', 1);
  await placeWager(server, owner, settled, 'yes', 1);
  await placeWager(server, friend, settled, 'no', 3);
  await resolve(server, friend, settled, 'no');
  await cancel(server, owner, called);
  return { owner, friend, group, open, settled, called };
}

describe('a first pull', () => {
  it('brings the whole group: members with points, every bet in every state with totals, own wagers, statistics', async () => {
    const { owner, friend, group, open, settled, called } = await groupWithBets();
    const [page] = await pullAll(owner);
    expect(page!.reset).toBe(true);
    expect(page!.hasMore).toBe(false);
    expect(page!.groups).toEqual([
      expect.objectContaining({
        id: group.id,
        inviteCode: group.inviteCode,
        memberUserIds: [owner.user.id, friend.user.id].sort((a, b) => a - b),
      }),
    ]);
    // The player's own points as they are; another member's total only (their open wagers are theirs).
    expect(
      page!.memberships.map((m) => [m.userId, m.totalPoints, m.availablePoints]).sort(),
    ).toEqual(
      [
        [owner.user.id, 99, 97],
        [friend.user.id, 101, 101],
      ].sort(),
    );
    const bets = new Map(page!.bets.map((bet) => [bet.id, bet]));
    expect(bets.get(open.id)).toMatchObject({
      state: 'active',
      answerTotals: { yes: 2, no: 1 },
      wagerCount: 2,
    });
    expect(bets.get(settled.id)).toMatchObject({
      state: 'resolved',
      correctAnswer: 'no',
      wagerCount: 2,
    });
    expect(bets.get(called.id)).toMatchObject({ state: 'cancelled', wagerCount: 0 });
    // Only the player's own wagers: others' picks stay hidden.
    expect(page!.wagers.map((w) => [w.betId, w.userId, w.prediction]).sort()).toEqual(
      [
        [open.id, owner.user.id, 'yes'],
        [settled.id, owner.user.id, 'yes'],
      ].sort(),
    );
    expect(page!.statistics).toEqual([
      expect.objectContaining({
        betId: settled.id,
        statistics: expect.objectContaining({
          isResolved: true,
          totalParticipants: 2,
          // The player picked yes, the answer was no: nothing won.
          userWager: { prediction: 'yes', points: 1, winnings: 0 },
        }),
      }),
    ]);
  });

  it('is paged by whole groups when the player holds more than a page', async () => {
    const player = await createPlayer(server, 'Collector');
    const groups = [];
    for (let i = 0; i < 4; i += 1) {
      const group = await createGroup(server, player);
      await createBet(server, player, group);
      await createBet(server, player, group);
      groups.push(group);
    }
    const small = createMirrorService({ db: server.database.db, pageRows: 4 });
    const caller = { id: player.user.id } as Parameters<typeof small.pull>[0];
    const pages: MirrorPullResponse[] = [];
    for (let cursor = MIRROR_START_CURSOR; ;) {
      const page = await small.pull(caller, cursor);
      pages.push(page);
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(pages.length).toBe(4);
    expect(pages.map((page) => page.reset)).toEqual([true, false, false, false]);
    expect(pages.flatMap((page) => page.groups.map((group) => group.id))).toEqual(
      groups.map((group) => group.id),
    );
    expect(pages.flatMap((page) => page.bets)).toHaveLength(8);
  });
});

describe('a pull with a cursor', () => {
  it('answers nothing but a new cursor when nothing changed, under 1 KB', async () => {
    const { owner } = await groupWithBets();
    const [first] = await pullAll(owner);
    const again = await pull(owner, first!.cursor);
    expect(again).toMatchObject({
      reset: false,
      hasMore: false,
      groups: [],
      memberships: [],
      bets: [],
      wagers: [],
      statistics: [],
      removedGroupIds: [],
      removedMemberships: [],
    });
    expect(again.bytes).toBeLessThan(1024);
  });

  it('brings only what changed: a friend’s wager is the bet with its new totals and a higher version, never their pick', async () => {
    const { owner, friend, group } = await groupWithBets();
    const fresh = await createBet(server, owner, group, { title: 'Fresh' });
    const [first] = await pullAll(owner);
    const before = first!.bets.find((bet) => bet.id === fresh.id)!;
    const recorder = recordEvents(server);
    await placeWager(server, friend, fresh, 'no', 2);
    recorder.stop();
    const delta = await pull(owner, first!.cursor);
    expect(delta.bets).toEqual([
      expect.objectContaining({ id: fresh.id, answerTotals: { no: 2 }, wagerCount: 1 }),
    ]);
    expect(delta.bets[0]!.version).toBeGreaterThan(before.version);
    expect(delta.wagers).toEqual([]);
    // Only the friend's available points moved: their membership stays behind, since its
    // arrival next to the new totals would say who wagered.
    expect(delta.memberships).toEqual([]);
    // The socket event carries the same version, so a device can order the two.
    const event = recorder.events.find((published) => published.event === 'wagerSaved');
    expect(event?.payload).toMatchObject({
      betId: fresh.id,
      version: delta.bets[0]!.version,
      wagerCount: 1,
    });
  });

  it('reports a group the player left, and a member who left a group still in view', async () => {
    const { owner, friend, group } = await groupWithBets();
    const third = await createPlayer(server, 'Third');
    await joinGroup(server, third, group);
    const [ownerFirst] = await pullAll(owner);
    const [friendFirst] = await pullAll(friend);
    expect(
      (await server.request('POST', `/api/groups/${group.id}/leave`, { token: third.accessToken }))
        .status,
    ).toBe(200);
    expect(
      (await server.request('POST', `/api/groups/${group.id}/leave`, { token: friend.accessToken }))
        .status,
    ).toBe(200);
    const ownerDelta = await pull(owner, ownerFirst!.cursor);
    expect(ownerDelta.removedMemberships.sort((a, b) => a.userId - b.userId)).toEqual(
      [
        { groupId: group.id, userId: friend.user.id },
        { groupId: group.id, userId: third.user.id },
      ].sort((a, b) => a.userId - b.userId),
    );
    expect(ownerDelta.groups.map((g) => g.memberUserIds)).toEqual([[owner.user.id]]);
    const friendDelta = await pull(friend, friendFirst!.cursor);
    expect(friendDelta.removedGroupIds).toEqual([group.id]);
    expect(friendDelta.bets).toEqual([]);
  });

  it('brings a group the player joins whole', async () => {
    const { owner, group, open } = await groupWithBets();
    const newcomer = await createPlayer(server, 'Newcomer');
    const [first] = await pullAll(newcomer);
    expect(first!.groups).toEqual([]);
    await joinGroup(server, newcomer, group);
    const delta = await pull(newcomer, first!.cursor);
    expect(delta.groups.map((g) => g.id)).toEqual([group.id]);
    expect(delta.bets).toHaveLength(3);
    expect(delta.memberships.map((m) => m.userId)).toContain(owner.user.id);
    expect(delta.bets.find((bet) => bet.id === open.id)?.answerTotals).toEqual({ yes: 2, no: 1 });
  });

  it('keeps a resolved bet’s statistics as they were at resolution, so devices never drift as members come and go', async () => {
    const { owner, group, settled } = await groupWithBets();
    const [first] = await pullAll(owner);
    expect(first!.statistics.find((entry) => entry.betId === settled.id)?.statistics).toMatchObject(
      { totalMembers: 2, participationRate: 100 },
    );
    await joinGroup(server, await createPlayer(server, 'Latecomer'), group);
    const delta = await pull(owner, first!.cursor);
    expect(delta.statistics).toEqual([]);
    const direct = await server.request('GET', `/api/bets/${settled.id}/statistics`, {
      token: owner.accessToken,
    });
    expect(direct.body).toMatchObject({ totalMembers: 2, participationRate: 100 });
  });

  it('sees a renamed member’s new name', async () => {
    const { owner, friend } = await groupWithBets();
    const [first] = await pullAll(owner);
    const renamed = await server.request('PUT', '/auth/users/me', {
      token: friend.accessToken,
      body: { displayName: 'Renamed Friend' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const delta = await pull(owner, first!.cursor);
    expect(delta.memberships).toEqual([
      expect.objectContaining({ userId: friend.user.id, userName: 'Renamed Friend' }),
    ]);
  });

  it('starts over (reset) from a cursor that is not ours or belongs to someone else', async () => {
    const { owner, friend } = await groupWithBets();
    const [ownerFirst] = await pullAll(owner);
    for (const cursor of [
      'not-a-cursor',
      Buffer.from('{"u":1,"s":"1:2:","g":["x"]}').toString('base64url'),
    ]) {
      expect(await pull(owner, cursor)).toMatchObject({ reset: true });
    }
    const stolen = await pull(friend, ownerFirst!.cursor);
    expect(stolen.reset).toBe(true);
    expect(stolen.wagers.every((wager) => wager.userId === friend.user.id)).toBe(true);
  });

  it('starts over (reset) from a cursor of the caller whose snapshot or groups PostgreSQL would refuse', async () => {
    const { owner } = await groupWithBets();
    const cursorOf = (snapshot: string, groupIds: number[] = []) =>
      Buffer.from(JSON.stringify({ u: owner.user.id, s: snapshot, g: groupIds })).toString(
        'base64url',
      );
    for (const snapshot of [
      '5:3:',
      '0:0:',
      '1:5:9',
      '0:5:',
      '4:9:2',
      '4:9:6,5',
      '1:18446744073709551616:',
      '1:9223372036854775808:',
      '4294967296:4294967299:',
      '99999999999999999999:99999999999999999999:',
    ])
      expect(await pull(owner, cursorOf(snapshot)), snapshot).toMatchObject({ reset: true });
    expect(await pull(owner, cursorOf('1:1:', [2_147_483_648]))).toMatchObject({ reset: true });
    // A well-formed snapshot still counts, in-progress transactions and all.
    expect(await pull(owner, cursorOf('3:8:3,5,7'))).toMatchObject({ reset: false });
  });

  it('answers any cursor of the caller without a 5xx (property)', async () => {
    const player = await createPlayer(server);
    const number = fc.oneof(
      fc.nat({ max: 12 }),
      fc.bigInt({ min: 0n, max: 2n ** 64n + 2n }),
      fc.constantFrom(2n ** 32n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n),
      fc.bigInt({ min: 1n, max: 2n ** 32n - 1n }).map((epoch) => epoch * 2n ** 32n),
    );
    const snapshot = fc.oneof(
      fc
        .tuple(number, number, fc.array(number, { maxLength: 4 }))
        .map(([xmin, xmax, xip]) => `${xmin}:${xmax}:${xip.join(',')}`),
      fc.string({ unit: fc.constantFrom(...'0123456789:,-+ '.split('')), maxLength: 24 }),
    );
    const groupId = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1 }), fc.double());
    const cursor = fc.oneof(
      fc
        .record({ s: snapshot, g: fc.array(groupId, { maxLength: 3 }) })
        .map(({ s, g }) =>
          Buffer.from(JSON.stringify({ u: player.user.id, s, g })).toString('base64url'),
        ),
      fc.string({ minLength: 1, maxLength: 64 }),
    );
    await fc.assert(
      fc.asyncProperty(cursor, async (text) => {
        const response = await server.request(
          'GET',
          `/api/member/state?cursor=${encodeURIComponent(text)}`,
          { token: player.accessToken },
        );
        expect(response.status, `${text}: ${response.text}`).toBeLessThan(500);
        if (response.status === 200) mirrorPullResponseSchema.parse(response.body);
        else expect(response.body).toMatchObject({ code: expect.any(String) });
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a cursor that is too long with a 400', async () => {
    const player = await createPlayer(server);
    const response = await server.request('GET', `/api/member/state?cursor=${'a'.repeat(5000)}`, {
      token: player.accessToken,
    });
    expect(response.status).toBe(400);
  });
});

// PGlite runs one transaction at a time; on PostgreSQL two can commit in the other order than
// they started, which is what a "version > last seen" cursor gets wrong.
describe.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
  'transactions committing out of order',
  () => {
    it('never skips a change that committed after a later one was pulled', async () => {
      const { owner, group, open } = await groupWithBets();
      const [first] = await pullAll(owner);
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let started!: () => void;
      const isStarted = new Promise<void>((resolve) => (started = resolve));
      const slow = server.database.db.transaction(async (tx) => {
        await tx.execute(sql`update bets set title = 'Renamed slowly' where id = ${open.id}`);
        started();
        await held;
      });
      await isStarted;
      const quick = await createBet(server, owner, group, { title: 'Quick' });
      const during = await pull(owner, first!.cursor);
      expect(during.bets.map((bet) => bet.id)).toEqual([quick.id]);
      commit();
      await slow;
      const after = await pull(owner, during.cursor);
      expect(after.bets.map((bet) => [bet.id, bet.title])).toEqual([[open.id, 'Renamed slowly']]);
    });
  },
);

describe('without a cursor', () => {
  it('keeps the spec’s member state fields', async () => {
    const { owner } = await groupWithBets();
    const response = await server.request('GET', '/api/member/state', { token: owner.accessToken });
    expect(Object.keys(response.body).sort()).toEqual([
      'betsToResolve',
      'currentUserMemberships',
      'groups',
      'unwageredBets',
    ]);
  });
});
