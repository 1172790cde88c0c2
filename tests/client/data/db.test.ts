import { Dexie } from 'dexie';
import { expect, it } from 'vitest';
import { openHunchDb } from '../../../src/client/data/db';
import { legacyRequest } from '../../../src/client/data/mutators';

// The Dexie schema upgrades in place (issue 13 §6): a version 4 database with writes still
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
  await v4.table('bets').put({ id: 3, groupId: 1, title: 'Rain?', isUnwagered: true, isToResolve: false, isListed: true });
  v4.close();

  const db = openHunchDb(name);
  const [entry] = await db.outbox.toArray();

  expect(entry).toEqual({ id: 'key-1', userId: 7, mutator: 'request', args: { kind: 'placeWager', method: 'POST', path: '/api/bets/wagers', body: { betId: 3, prediction: 'yes', points: 2 } }, createdAt: 1, status: 'pending', attempts: 1 });
  expect(legacyRequest.request(entry!.args as never)).toEqual({ method: 'POST', path: '/api/bets/wagers', body: { betId: 3, prediction: 'yes', points: 2 } });
  expect(await db.bets.get(3)).toEqual({ id: 3, groupId: 1, title: 'Rain?' });
  expect(db.tables.map((table) => table.name).sort()).toEqual(['betStatistics', 'bets', 'groups', 'memberships', 'meta', 'outbox', 'shadow', 'wagers']);
  db.close();
  await db.delete();
});
