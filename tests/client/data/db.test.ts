import { Dexie } from 'dexie';
import { expect, it } from 'vitest';
import { CURSOR_KEY, openHunchDb } from '../../../src/client/data/db';
import { legacyRequest } from '../../../src/client/data/mutators';

// The Dexie schema upgrades in place: a version 4 database with writes still
// waiting opens as version 5 with those writes kept, each still sending its own request under
// its own Idempotency-Key.

it('keeps the pending writes of a version 4 outbox, as requests sent unchanged', async () => {
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

  expect(entry).toEqual({
    id: 'key-1',
    userId: 7,
    mutator: 'request',
    args: {
      kind: 'placeWager',
      method: 'POST',
      path: '/api/bets/wagers',
      body: { betId: 3, prediction: 'yes', points: 2 },
    },
    createdAt: 1,
    status: 'pending',
    attempts: 1,
  });
  expect(legacyRequest.request(entry!.args as never)).toEqual({
    method: 'POST',
    path: '/api/bets/wagers',
    body: { betId: 3, prediction: 'yes', points: 2 },
  });
  expect(await db.bets.get(3)).toEqual({ id: 3, groupId: 1, title: 'Rain?' });
  expect(db.tables.map((table) => table.name).sort()).toEqual([
    'betStatistics',
    'bets',
    'comments',
    'groups',
    'memberships',
    'meta',
    'outbox',
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
