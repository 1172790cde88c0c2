// @vitest-environment node
import '../node-browser';
import { describe, expect, it } from 'vitest';
import { placeWagerMutator } from '../../../src/client/data/bet-mutators';
import { CURSOR_KEY, LAST_SYNCED_KEY, SYNC_CLIENT_KEY } from '../../../src/client/data/db';
import { MIRROR_SHAPE, MIRROR_TABLES, SYNCED_TABLES } from '../../../src/client/data/synced-tables';
import { SYNC_PUSH_PATH } from '../../../src/domain/constants';
import {
  cancel,
  createBet,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { useDeviceServer, type Device } from './device.fixture';

// The pull (docs/architecture.md §8) against the real server: GET /api/member/state?cursor=… into
// the Dexie mirror, page by page, one merge per row type, a row replaced only by a newer one.

const { server, openDevice: device } = useDeviceServer(NO_EXPIRY_TIMER);

/** Two groups of the player, each with bets in every state and the player's wagers on some. */
async function playerWithTwoGroups() {
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const groups = [
    await createGroup(server, friend, { privacy: 'private' }),
    await createGroup(server, me),
  ];
  await joinGroup(server, me, groups[0]!);
  await joinGroup(server, friend, groups[1]!);
  const bets = [];
  for (const group of groups) {
    const open = await createBet(server, friend, group, { title: 'Open' });
    const wagered = await createBet(server, me, group, { title: 'Wagered' });
    const settled = await createBet(server, friend, group, { title: 'Settled' });
    const called = await createBet(server, me, group, { title: 'Called off' });
    await placeWager(server, me, wagered, 'yes', 2);
    await placeWager(server, friend, wagered, 'no', 1);
    await placeWager(server, me, settled, 'yes', 1);
    await placeWager(server, friend, settled, 'no', 3);
    expect((await resolve(server, friend, settled, 'no')).status).toBe(200);
    expect((await cancel(server, me, called)).status).toBe(200);
    bets.push({ open, wagered, settled, called });
  }
  return { me, friend, groups, bets };
}

/** How many rows a pull writes into the mirror tables (Dexie's hooks see every put and delete). */
function countWrites(device: Device) {
  let writes = 0;
  for (const name of MIRROR_TABLES) {
    const table = device.db.table(name);
    table.hook('creating', () => void (writes += 1));
    table.hook('updating', () => void (writes += 1));
    table.hook('deleting', () => void (writes += 1));
  }
  return () => writes;
}

describe('the first sync', () => {
  it('fills every table for every group of the player', async () => {
    const { me, friend, groups, bets } = await playerWithTwoGroups();
    const phone = await device(me);
    await phone.local.sync();

    expect((await phone.db.groups.toArray()).map((group) => group.id).sort()).toEqual(
      groups.map((group) => group.id).sort(),
    );
    for (const group of groups) {
      // Every member, with their points: the leaderboard needs no other call.
      const members = await phone.db.memberships.where('groupId').equals(group.id).toArray();
      expect(members.map((member) => member.userId).sort()).toEqual(
        [me.user.id, friend.user.id].sort(),
      );
      expect(
        members.every((member) => typeof member.version === 'number' && member.userName !== ''),
      ).toBe(true);
      // Every bet in every state, with live totals.
      const stored = await phone.db.bets.where('groupId').equals(group.id).toArray();
      expect(stored.map((bet) => bet.state).sort()).toEqual([
        'active',
        'active',
        'cancelled',
        'resolved',
      ]);
    }
    const wagered = await phone.db.bets.get(bets[0]!.wagered.id);
    expect(wagered).toMatchObject({ answerTotals: { yes: 2, no: 1 }, wagerCount: 2 });
    // Only the player's own wagers; statistics of the resolved bets.
    const wagers = await phone.db.wagers.toArray();
    expect(wagers.every((wager) => wager.userId === me.user.id)).toBe(true);
    expect(wagers).toHaveLength(4);
    expect((await phone.db.betStatistics.toArray()).map((row) => row.betId).sort()).toEqual(
      bets.map((set) => set.settled.id).sort(),
    );
    // The cursor and the freshness are stored; the active group is one of the player's.
    expect((await phone.db.meta.get(CURSOR_KEY))?.value).toMatchObject({ userId: me.user.id });
    expect(typeof (await phone.db.meta.get(LAST_SYNCED_KEY))?.value).toBe('number');
    expect(groups.map((group) => group.id)).toContain(phone.activeGroup.getSnapshot()?.id);
    // One call: no group list, leaderboard or users lookup; it names the device's client group.
    expect(phone.requests).toEqual([
      expect.stringMatching(/^GET \/api\/member\/state\?cursor=0&clientGroupID=[\w-]+$/),
    ]);
  });

  it('writes nothing on a second pull when nothing changed, in one small request', async () => {
    const { me } = await playerWithTwoGroups();
    const phone = await device(me);
    await phone.local.sync();
    const writes = countWrites(phone);
    phone.requests.length = 0;

    await phone.local.sync();

    expect(writes()).toBe(0);
    expect(phone.requests).toHaveLength(1);
    expect(phone.requests[0]).toMatch(/^GET \/api\/member\/state\?cursor=(?!0$)/);
  });
});

describe('a cursor the server cannot use', () => {
  it('starts over with a full sync when the server refuses the stored cursor (400)', async () => {
    const { me, groups } = await playerWithTwoGroups();
    const phone = await device(me);
    await phone.local.sync();
    // Longer than any cursor the server takes: the pull answers 400 for it.
    await phone.db.meta.put({
      key: CURSOR_KEY,
      value: { userId: me.user.id, cursor: 'x'.repeat(5000) },
    });
    await phone.db.groups.clear();
    phone.requests.length = 0;

    await phone.local.sync();

    expect(phone.requests).toEqual([
      expect.stringMatching(/^GET \/api\/member\/state\?cursor=x{5000}&clientGroupID=[\w-]+$/),
      expect.stringMatching(/^GET \/api\/member\/state\?cursor=0&clientGroupID=[\w-]+$/),
    ]);
    expect((await phone.db.groups.toArray()).map((group) => group.id).sort()).toEqual(
      groups.map((group) => group.id).sort(),
    );
    const stored = (await phone.db.meta.get(CURSOR_KEY))?.value as { cursor: string };
    expect(stored.cursor).not.toMatch(/^x+$/);
  });
});

describe('a mirror whose tables changed', () => {
  it('starts over when the cursor was stored under another list of synced tables, and keeps one stored before the list was recorded', async () => {
    const { me } = await playerWithTwoGroups();
    const phone = await device(me);
    await phone.local.sync();
    const { cursor } = (await phone.db.meta.get(CURSOR_KEY))?.value as { cursor: string };
    expect((await phone.db.meta.get(CURSOR_KEY))?.value).toMatchObject({ shape: MIRROR_SHAPE });

    // Stored by a build with one table fewer (the seasons were added since).
    const older = MIRROR_TABLES.filter((table) => table !== 'seasons').join(',');
    await phone.db.meta.put({
      key: CURSOR_KEY,
      value: { userId: me.user.id, cursor, shape: older },
    });
    phone.requests.length = 0;
    await phone.local.sync();
    expect(phone.requests).toEqual([
      expect.stringMatching(/^GET \/api\/member\/state\?cursor=0&clientGroupID=[\w-]+$/),
    ]);

    // Stored before the shape was kept: a build with today's tables wrote it.
    await phone.db.meta.put({ key: CURSOR_KEY, value: { userId: me.user.id, cursor } });
    phone.requests.length = 0;
    await phone.local.sync();
    expect(phone.requests).toHaveLength(1);
    expect(phone.requests[0]).toContain(`?cursor=${encodeURIComponent(cursor)}&`);
  });
});

describe('later pulls', () => {
  it('bring only what changed: a new bet, a resolution with its payout and statistics', async () => {
    const { me, friend, groups, bets } = await playerWithTwoGroups();
    const phone = await device(me);
    await phone.local.sync();
    const fresh = await createBet(server, friend, groups[1]!, { title: 'Fresh' });
    expect((await resolve(server, me, bets[1]!.wagered, 'yes')).status).toBe(200);
    const writes = countWrites(phone);

    await phone.local.sync();

    expect(await phone.db.bets.get(fresh.id)).toMatchObject({ title: 'Fresh', state: 'active' });
    expect(await phone.db.bets.get(bets[1]!.wagered.id)).toMatchObject({
      state: 'resolved',
      correctAnswer: 'yes',
    });
    expect(await phone.db.betStatistics.get(bets[1]!.wagered.id)).toBeDefined();
    // The winner took the pool of 3 for a stake of 2.
    const mine = await phone.db.memberships.get([groups[1]!.id, me.user.id]);
    const server_ = await server.request('GET', `/api/groups/${groups[1]!.id}/membership`, {
      token: me.accessToken,
    });
    expect(mine).toMatchObject({
      totalPoints: server_.body.totalPoints,
      availablePoints: server_.body.availablePoints,
    });
    expect(writes()).toBeLessThan(15);
  });

  it('removes a group the player left, with its members, bets, wagers, statistics and history', async () => {
    const { me, groups } = await playerWithTwoGroups();
    const phone = await device(me);
    await phone.local.sync();
    const left = groups[0]!;
    expect(await phone.db.betHistory.where('groupId').equals(left.id).count()).toBeGreaterThan(0);
    expect(
      (await server.request('POST', `/api/groups/${left.id}/leave`, { token: me.accessToken }))
        .status,
    ).toBeLessThan(300);

    await phone.local.sync();

    expect(await phone.db.groups.get(left.id)).toBeUndefined();
    // Every table whose rows name their group (members, bets, comments, history, seasons).
    for (const name of MIRROR_TABLES) {
      if (SYNCED_TABLES[name].ofGroup?.index !== 'groupId') continue;
      expect(await phone.db.table(name).where('groupId').equals(left.id).count()).toBe(0);
    }
    const betIds = new Set((await phone.db.bets.toArray()).map((bet) => bet.id));
    expect((await phone.db.wagers.toArray()).every((wager) => betIds.has(wager.betId))).toBe(true);
    expect((await phone.db.betStatistics.toArray()).every((row) => betIds.has(row.betId))).toBe(
      true,
    );
    expect(phone.activeGroup.getSnapshot()?.id).toBe(groups[1]!.id);
  });

  it('removes a member who left a group still in view', async () => {
    const { me, friend, groups } = await playerWithTwoGroups();
    const phone = await device(me);
    await phone.local.sync();
    expect(
      (
        await server.request('POST', `/api/groups/${groups[1]!.id}/leave`, {
          token: friend.accessToken,
        })
      ).status,
    ).toBeLessThan(300);

    await phone.local.sync();

    expect(await phone.db.memberships.get([groups[1]!.id, friend.user.id])).toBeUndefined();
    expect(await phone.db.memberships.get([groups[1]!.id, me.user.id])).toBeDefined();
  });

  it('keeps a stored row that is newer than the one a pull brings', async () => {
    const { me, bets } = await playerWithTwoGroups();
    const phone = await device(me);
    await phone.local.sync();
    const bet = (await phone.db.bets.get(bets[0]!.open.id))!;
    // As if a socket event had brought a later version first.
    await phone.db.bets.put({ ...bet, title: 'Newer', version: bet.version! + 1000 });
    await phone.db.meta.delete(CURSOR_KEY);

    // A reset clears the server rows first: the pull's copy wins then.
    await phone.local.sync();
    expect((await phone.db.bets.get(bet.id))?.title).toBe('Open');

    await phone.db.bets.put({ ...bet, title: 'Newer', version: bet.version! + 1000 });
    await placeWager(server, me, bets[0]!.open, 'yes', 1);
    await phone.local.sync();
    expect((await phone.db.bets.get(bet.id))?.title).toBe('Newer');
  });
});

describe('the owner of the mirror', () => {
  it('starts from nothing when another user signs in on the device', async () => {
    const { me } = await playerWithTwoGroups();
    const stranger = await createPlayer(server, 'Stranger');
    const phone = await device(me);
    await phone.local.sync();
    expect(await phone.db.bets.count()).toBeGreaterThan(0);

    phone.session.signIn(stranger, true);
    await phone.local.sync();

    for (const name of MIRROR_TABLES) expect(await phone.db.table(name).count()).toBe(0);
    expect((await phone.db.meta.get(CURSOR_KEY))?.value).toMatchObject({
      userId: stranger.user.id,
    });
  });

  it('forgets everything, cursor and outbox included, at sign-out; the waiting write is held for its player', async () => {
    const { me, bets } = await playerWithTwoGroups();
    const phone = await device(me);
    phone.local.start();
    await phone.local.whenIdle();
    phone.setOffline(true);
    const { createBetActions } = await import('../../../src/client/bets/bet-actions');
    await createBetActions({
      db: phone.db,
      api: phone.api,
      session: phone.session,
      local: phone.local,
    }).placeWager(bets[0]!.open.id, 'yes', 1);
    expect(await phone.db.outbox.count()).toBe(1);

    await phone.session.logout();
    await phone.local.whenIdle();

    for (const table of phone.db.tables)
      if (table.name !== 'held') expect(await table.count()).toBe(0);
    expect(await phone.db.held.where('userId').equals(me.user.id).count()).toBe(1);
    expect(phone.activeGroup.getSnapshot()).toBeUndefined();
  });

  it('holds the waiting writes when the session expired; they go only once the same player, signed in again, sends them', async () => {
    const { me, bets } = await playerWithTwoGroups();
    const phone = await device(me);
    phone.local.start();
    await phone.local.whenIdle();
    phone.setOffline(true);
    const { createBetActions } = await import('../../../src/client/bets/bet-actions');
    await createBetActions({
      db: phone.db,
      api: phone.api,
      session: phone.session,
      local: phone.local,
    }).placeWager(bets[0]!.open.id, 'yes', 1);

    await phone.session.logout('expired');
    await phone.local.whenIdle();
    expect(await phone.db.outbox.count()).toBe(0);
    const [held] = await phone.local.held.list(me.user.id);

    phone.setOffline(false);
    phone.session.signIn(me, true);
    await phone.local.whenIdle();
    const wagersOnIt = async () =>
      (await server.request('GET', `/api/bets/user/wagers`, { token: me.accessToken })).body.filter(
        (wager: { betId: number }) => wager.betId === bets[0]!.open.id,
      );
    expect(await wagersOnIt()).toHaveLength(0);

    await phone.local.held.send(held!.id);
    await phone.local.whenIdle();
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await wagersOnIt()).toHaveLength(1);
  });

  it('sends a held write only if it never arrived: one the server applied goes silently, the other is numbered anew, once', async () => {
    const { me, bets } = await playerWithTwoGroups();
    const phone = await device(me);
    phone.local.start();
    await phone.local.whenIdle();
    phone.setOffline(true);
    const [arrived, lost] = [bets[0]!.open, bets[1]!.open];
    for (const bet of [arrived, lost])
      await phone.local.run(placeWagerMutator, {
        betId: bet.id,
        prediction: 'yes',
        points: 1,
        tempId: phone.local.outbox.tempId(),
      });
    const [first] = await phone.db.outbox.orderBy('createdAt').toArray();
    // The first reached the server (the service worker pushed it) before the session expired.
    await server.request('POST', SYNC_PUSH_PATH, {
      token: me.accessToken,
      body: {
        clientGroupID: first!.clientGroupID,
        clientID: first!.clientID,
        mutations: [
          {
            id: 1,
            name: 'placeWager',
            args: { body: { betId: arrived.id, prediction: 'yes', points: 1 } },
          },
        ],
      },
    });
    await phone.session.logout('expired');
    await phone.local.whenIdle();
    const held = await phone.local.held.list(me.user.id);
    expect(held.map((write) => [write.clientID, write.mutationID])).toEqual([
      [first!.clientID, 1],
      [first!.clientID, 2],
    ]);

    phone.setOffline(false);
    phone.session.signIn(me, true);
    await phone.local.whenIdle();
    for (const write of held) await phone.local.held.send(write.id);
    await phone.local.whenIdle();

    const wagers = (await server.request('GET', '/api/bets/user/wagers', { token: me.accessToken }))
      .body as Array<{ betId: number }>;
    expect(wagers.filter((wager) => wager.betId === arrived.id)).toHaveLength(1);
    expect(wagers.filter((wager) => wager.betId === lost.id)).toHaveLength(1);
    expect(await phone.db.held.count()).toBe(0);
    expect(await phone.db.outbox.count()).toBe(0);
    expect(phone.toasts.errors).toEqual([]);
    // The cleared local data has a new client, which numbered the lost write 1.
    expect((await phone.db.meta.get(SYNC_CLIENT_KEY))?.value).toEqual({
      clientID: expect.not.stringMatching(`^${first!.clientID}$`),
      lastMutationID: 1,
    });
  });
});

describe('a paged first sync', () => {
  it('writes each page in its own transaction and keeps the first page’s rows when the next one arrives', async () => {
    const { openHunchDb } = await import('../../../src/client/data/db');
    const { createRebaser } = await import('../../../src/client/data/mutators');
    const { createSyncEngine } = await import('../../../src/client/data/sync-engine');
    const { createActiveGroupStore } = await import('../../../src/client/data/active-group-store');
    const db = openHunchDb('hunch-paged-test');
    const group = (id: number) => ({
      id,
      name: `G${id}`,
      description: null,
      privacy: 'public' as const,
      defaultPoints: 100,
      createdByUserId: 7,
      admins: [7],
      memberUserIds: [7],
      createdAt: '',
      updatedAt: '',
      version: id,
    });
    const member = (groupId: number) => ({
      groupId,
      userId: 7,
      userName: 'Me',
      totalPoints: 100,
      availablePoints: 100,
      version: groupId,
    });
    const empty = {
      bets: [],
      wagers: [],
      statistics: [],
      removedGroupIds: [],
      removedMemberships: [],
    };
    const pages = [
      {
        cursor: 'c1',
        reset: true,
        hasMore: true,
        groups: [group(1)],
        memberships: [member(1)],
        ...empty,
      },
      {
        cursor: 'c2',
        reset: false,
        hasMore: false,
        groups: [group(2)],
        memberships: [member(2)],
        ...empty,
      },
    ];
    const asked: string[] = [];
    const api = { get: async (path: string) => (asked.push(path), pages.shift()) } as never;
    const session = { user: { id: 7, displayName: 'Me' } } as never;
    const rebaser = createRebaser({ db, mutators: {}, userName: () => 'Me' });
    const engine = createSyncEngine({
      db,
      api,
      session,
      activeGroup: createActiveGroupStore(null),
      rebaser,
    });

    await engine.pull();

    expect(asked).toEqual(['/api/member/state?cursor=0', '/api/member/state?cursor=c1']);
    expect((await db.groups.toArray()).map((row) => row.id)).toEqual([1, 2]);
    expect((await db.meta.get(CURSOR_KEY))?.value).toMatchObject({ userId: 7, cursor: 'c2' });
    db.close();
    await db.delete();
  });
});
