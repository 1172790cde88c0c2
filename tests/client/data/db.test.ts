import { Dexie } from 'dexie';
import { expect, it, vi } from 'vitest';
import { CURSOR_KEY, openHunchDb } from '../../../src/client/data/db';
import { placeWagerMutator } from '../../../src/client/data/bet-mutators';
import { textsOf } from '../../../src/client/data/mutators';
import { keyOf, SYNCED_STORES } from '../../../src/client/data/synced-tables';

// The Dexie schema upgrades in place: a version 4 database with writes still waiting opens
// with those writes kept, each made the write its request was (versions 5 and 15); a version
// 14 database's writes are named by the write each is (version 15).

it('keeps the pending writes of a version 4 outbox, each the write its request was', async () => {
  const name = 'hunch-upgrade-test';
  const v4 = new Dexie(name);
  v4.version(4).stores({
    meta: '&key',
    groups: '&id, name',
    memberships: '&[groupId+userId], groupId, userId',
    leaderboard: '&[groupId+userId], groupId',
    userBubbles: '&id',
    bets: 'id, groupId, state, expiresAt, createdBy',
    wagers: 'id, betId, userId, [betId+userId]',
    betStatistics: '&betId',
    outbox: 'id, createdAt, status, userId',
  });
  await v4.open();
  await v4.table('outbox').put({
    id: 'key-1',
    userId: 7,
    kind: 'placeWager',
    method: 'POST',
    path: '/api/bets/wagers',
    body: { betId: 3, prediction: 'yes', points: 2 },
    createdAt: 1,
    status: 'sending',
    attempts: 1,
    undo: [{ table: 'wagers', key: -5 }],
    meta: { tempId: -5 },
  });
  await v4.table('bets').put({
    id: 3,
    groupId: 1,
    title: 'Rain?',
    isUnwagered: true,
    isToResolve: false,
    isListed: true,
  });
  v4.close();

  const db = openHunchDb(name);
  const [entry] = await db.outbox.toArray();

  // Version 15 made it the write its request was: a new wager, with the wager's arguments.
  expect(entry).toEqual({
    id: 'key-1',
    userId: 7,
    mutator: 'placeWager',
    args: { betId: 3, prediction: 'yes', points: 2 },
    createdAt: 1,
    status: 'pending',
    attempts: 1,
  });
  expect(placeWagerMutator.push(entry!.args as never)).toEqual({
    body: { betId: 3, prediction: 'yes', points: 2 },
  });
  // It reads as the write it is: a new wager, its refusal naming its points and its bet.
  const texts = textsOf(placeWagerMutator, entry!.args as never);
  expect(texts.refusedAs?.("'Rain?'")).toBe("Your 2 points on 'Rain?' came back");
  expect(texts.label).toBe('Wager');
  expect(await db.bets.get(3)).toEqual({ id: 3, groupId: 1, title: 'Rain?' });
  expect(db.tables.map((table) => table.name).sort()).toEqual([
    'betHistory',
    'betStatistics',
    'bets',
    'comments',
    'groups',
    'held',
    'memberStats',
    'memberships',
    'meta',
    'notificationSettings',
    'notifications',
    'outbox',
    'periodLeaderboards',
    'rounds',
    'seasons',
    'shadow',
    'wagers',
  ]);
  db.close();
  await db.delete();
});

it('adds the comments table to a version 5 mirror and forgets its cursor once, keeping waiting writes', async () => {
  const name = 'hunch-upgrade-v6-test';
  const v5 = new Dexie(name);
  v5.version(5).stores({
    meta: '&key',
    groups: '&id, name',
    memberships: '&[groupId+userId], groupId, userId',
    bets: 'id, groupId, state, expiresAt, createdBy',
    wagers: 'id, betId, userId, [betId+userId]',
    betStatistics: '&betId',
    outbox: 'id, createdAt, status, userId',
    shadow: '&id',
  });
  await v5.open();
  await v5.table('meta').put({ key: CURSOR_KEY, value: { userId: 7, cursor: 'abc' } });
  await v5.table('outbox').put({
    id: 'key-2',
    userId: 7,
    mutator: 'placeWager',
    args: {},
    createdAt: 1,
    status: 'pending',
    attempts: 0,
  });
  v5.close();

  const db = openHunchDb(name);

  // Without the cursor, the next pull starts from nothing and brings every comment.
  expect(await db.meta.get(CURSOR_KEY)).toBeUndefined();
  expect(await db.outbox.count()).toBe(1);
  expect(await db.comments.count()).toBe(0);
  db.close();
  await db.delete();
});

it('adds the rounds table to a version 15 mirror and forgets its cursor once, keeping waiting writes', async () => {
  const name = 'hunch-upgrade-v16-test';
  const v15 = new Dexie(name);
  v15.version(15).stores({ meta: '&key', outbox: 'id, createdAt, status, userId' });
  await v15.open();
  await v15.table('meta').put({ key: CURSOR_KEY, value: { userId: 7, cursor: 'abc' } });
  await v15.table('outbox').put({
    id: 'key-3',
    userId: 7,
    mutator: 'placeWager',
    args: {},
    createdAt: 1,
    status: 'pending',
    attempts: 0,
  });
  v15.close();

  const db = openHunchDb(name);

  // Without the cursor, the next pull starts from nothing and brings every round.
  expect(await db.meta.get(CURSOR_KEY)).toBeUndefined();
  expect(await db.outbox.count()).toBe(1);
  expect(await db.rounds.count()).toBe(0);
  db.close();
  await db.delete();
});

it('adds the bet history, the inbox and the period leaderboards to a version 6 mirror and forgets its cursor, keeping waiting writes', async () => {
  const name = 'hunch-upgrade-v9-test';
  const v6 = new Dexie(name);
  v6.version(6).stores({
    meta: '&key',
    groups: '&id, name',
    memberships: '&[groupId+userId], groupId, userId',
    bets: 'id, groupId, state, expiresAt, createdBy',
    wagers: 'id, betId, userId, [betId+userId]',
    betStatistics: '&betId',
    outbox: 'id, createdAt, status, userId',
    shadow: '&id',
    comments: 'id, betId, groupId',
  });
  await v6.open();
  await v6.table('meta').put({ key: CURSOR_KEY, value: { userId: 7, cursor: 'abc' } });
  await v6.table('outbox').put({
    id: 'key-3',
    userId: 7,
    mutator: 'resolveBet',
    args: {},
    createdAt: 1,
    status: 'pending',
    attempts: 0,
  });
  v6.close();

  const db = openHunchDb(name);

  // The next pull starts from nothing: it brings every history line and the picks of closed bets.
  expect(await db.meta.get(CURSOR_KEY)).toBeUndefined();
  expect(await db.outbox.count()).toBe(1);
  expect(await db.betHistory.count()).toBe(0);
  // The period leaderboards last seen are a table of their own, outside the pull.
  await db.periodLeaderboards.put({
    groupId: 1,
    period: 'week',
    from: '2026-11-23T00:00:00.000Z',
    previousFrom: '2026-11-16T00:00:00.000Z',
    members: [],
    fetchedAt: 1,
  });
  expect(await db.periodLeaderboards.get([1, 'week'])).toMatchObject({ groupId: 1 });
  db.close();
  await db.delete();
});

// From version 14 on, the synced tables' stores are their entries in synced-tables.ts.

/** What version 14 installed, as it was written out before the stores came from the list. */
const VERSION_14 = {
  meta: '&key',
  groups: '&id, name',
  memberships: '&[groupId+userId], groupId, userId',
  bets: 'id, groupId, state, expiresAt, createdBy, [state+expiresAt], [groupId+createdBy]',
  wagers: 'id, betId, userId, [betId+userId]',
  betStatistics: '&betId',
  outbox: 'id, createdAt, status, userId',
  shadow: '&id',
  comments: 'id, betId, groupId',
  betHistory: 'id, betId, groupId',
  notifications: 'id, updatedAt',
  notificationSettings: '&id',
  periodLeaderboards: '&[groupId+period]',
  memberStats: '&key',
  seasons: 'id, groupId',
  held: 'id, userId',
};

it('keeps every store and primary key a version 14 device holds (a table is only ever added)', async () => {
  const name = 'hunch-v14-stores-test';
  const v14 = new Dexie(name);
  v14.version(14).stores(VERSION_14);
  await v14.open();
  const installed = new Map(
    v14.tables.map((table) => [table.name, table.schema.primKey.keyPath] as const),
  );
  v14.close();

  const db = openHunchDb(name);
  await db.open();
  for (const [table, keyPath] of installed)
    expect(db.table(table).schema.primKey.keyPath, table).toEqual(keyPath);
  for (const [table, store] of Object.entries(SYNCED_STORES)) {
    const declared = VERSION_14[table as keyof typeof VERSION_14];
    if (declared !== undefined) expect(store, table).toBe(declared);
  }
  expect(keyOf('memberships', { groupId: 4, userId: 9 })).toEqual([4, 9]);
  expect(keyOf('betStatistics', { betId: 12 })).toBe(12);
  db.close();
  await db.delete();
});

it('adds a table a later list declares to the installed database, with no version of its own, and keeps the rows held', async () => {
  // What a new synced table relies on: Dexie 4 extends the installed schema itself.
  const name = 'hunch-added-table-test';
  const before = new Dexie(name);
  before.version(14).stores(VERSION_14);
  await before.open();
  await before.table('bets').put({ id: 3, groupId: 1, state: 'active' });
  before.close();

  // Dexie says what it does (a warning, once, on the upgrade).
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const after = new Dexie(name);
  after.version(14).stores({ ...VERSION_14, reactions: 'id, betId, groupId' });
  await after.open();
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('Schema was extended'));
  warn.mockRestore();
  await after.table('reactions').put({ id: 1, betId: 3, groupId: 1 });

  expect(await after.table('bets').get(3)).toMatchObject({ state: 'active' });
  expect(await after.table('reactions').where('betId').equals(3).count()).toBe(1);
  after.close();
  await after.delete();
});

it('names each write a version 14 device queued or held by the write it is', async () => {
  const name = 'hunch-v15-names-test';
  const v14 = new Dexie(name);
  v14.version(14).stores(VERSION_14);
  await v14.open();
  const queued = (id: string, mutator: string, args: object) => ({
    id,
    userId: 7,
    mutator,
    args,
    createdAt: 1,
    status: 'pending',
    attempts: 0,
    clientGroupID: 'g',
    clientID: 'c',
    mutationID: Number(id.slice(1)),
  });
  await v14
    .table('outbox')
    .bulkPut([
      queued('q1', 'joinGroup', { privacy: 'public', groupName: 'Friends' }),
      queued('q2', 'joinGroup', { privacy: 'private', groupId: 4, inviteCode: 'ABC' }),
      queued('q3', 'placeWager', { betId: 3, prediction: 'no', points: 5, wagerId: 8 }),
      queued('q4', 'placeWager', { betId: 3, prediction: 'no', points: 5, tempId: -2 }),
      queued('q5', 'setFloorTopUp', { groupId: 4, floorTopUp: false }),
      queued('q6', 'addComment', { tempId: -3, betId: 3, text: 'Hi' }),
      queued('q7', 'readNotifications', { ids: [1, 2] }),
      queued('q8', 'readNotifications', { upTo: '2026-11-01T00:00:00.000Z' }),
      queued('q9', 'cancelBet', { betId: 3 }),
    ]);
  await v14.table('held').put({
    id: 'h1',
    userId: 7,
    mutator: 'addComment',
    args: { tempId: -4, betId: 3, text: 'Later' },
    createdAt: 2,
  });
  v14.close();

  const db = openHunchDb(name);
  const named = Object.fromEntries(
    (await db.outbox.toArray()).map((entry) => [entry.id, [entry.mutator, entry.args]]),
  );
  expect(named).toEqual({
    q1: ['joinPublicGroup', { privacy: 'public', groupName: 'Friends' }],
    q2: ['joinPrivateGroup', { privacy: 'private', groupId: 4, inviteCode: 'ABC' }],
    q3: ['updateWager', { betId: 3, prediction: 'no', points: 5, wagerId: 8 }],
    q4: ['placeWager', { betId: 3, prediction: 'no', points: 5, tempId: -2 }],
    q5: ['updateGroupSettings', { groupId: 4, floorTopUp: false }],
    q6: ['postComment', { tempId: -3, betId: 3, text: 'Hi' }],
    q7: ['markNotificationsRead', { ids: [1, 2] }],
    q8: ['markAllNotificationsRead', { upTo: '2026-11-01T00:00:00.000Z' }],
    q9: ['cancelBet', { betId: 3 }],
  });
  // Numbered as before: one already pushed is the same mutation to the server.
  expect((await db.outbox.get('q3'))?.mutationID).toBe(3);
  expect((await db.held.get('h1'))?.mutator).toBe('postComment');
  db.close();
  await db.delete();
});
