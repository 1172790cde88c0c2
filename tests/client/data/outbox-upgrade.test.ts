// @vitest-environment node
import '../node-browser';
import { Dexie } from 'dexie';
import { expect, it } from 'vitest';
import { SYNCED_STORES } from '../../../src/client/data/synced-tables';
import { createBet, NO_EXPIRY_TIMER, placeWager } from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { useDeviceServer } from './device.fixture';

// Writes an older app left in its outbox are delivered by this one, once (docs/architecture.md
// §8): a device whose database version 14 wrote (a join and a changed wager under the names
// that version used, and a version 4 request) opens it as version 15 and pushes each as the
// write it is.

const { server, openDevice } = useDeviceServer(NO_EXPIRY_TIMER);

/** Version 14's stores, as that app installed them. */
const VERSION_14 = {
  ...SYNCED_STORES,
  meta: '&key',
  outbox: 'id, createdAt, status, userId',
  shadow: '&id',
  periodLeaderboards: '&[groupId+period]',
  memberStats: '&key',
  held: 'id, userId',
};

it('delivers, once, the writes a version 14 outbox held', async () => {
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const group = await createGroup(server, friend, { privacy: 'private', inviteCode: undefined });
  await joinGroup(server, me, group);
  const other = await createGroup(server, friend, { privacy: 'private' });
  const bet = await createBet(server, friend, group, { title: 'Rain?', baseWagerAmount: 2 });
  const second = await createBet(server, friend, group, { title: 'Snow?', baseWagerAmount: 2 });
  const wager = await placeWager(server, me, bet, 'yes', 2);

  const dbName = `hunch-old-outbox-${process.pid}`;
  const old = new Dexie(dbName);
  old.version(14).stores(VERSION_14);
  await old.open();
  const entry = (id: string, createdAt: number, mutator: string, args: object) => ({
    id,
    userId: me.user.id,
    mutator,
    args,
    createdAt,
    status: 'pending',
    attempts: 0,
  });
  await old.table('outbox').bulkPut([
    entry('old-1', 1, 'joinGroup', {
      privacy: 'private',
      groupId: other.id,
      inviteCode: other.inviteCode,
    }),
    entry('old-2', 2, 'placeWager', {
      betId: bet.id,
      prediction: 'no',
      points: 6,
      wagerId: wager.id,
    }),
    entry('old-3', 3, 'request', {
      kind: 'placeWager',
      method: 'POST',
      path: '/api/bets/wagers',
      body: { betId: second.id, prediction: 'yes', points: 4 },
    }),
  ]);
  old.close();

  const phone = await openDevice(me, { dbName });
  await phone.local.sync();
  await phone.local.whenIdle();
  // A second flush finds nothing left to send.
  await phone.local.outbox.flush();
  await phone.local.whenIdle();

  const mine = (await server.request('GET', '/api/bets/user/wagers', { token: me.accessToken }))
    .body as Array<{ betId: number; prediction: string; points: number }>;
  expect(mine.filter((row) => row.betId === bet.id)).toMatchObject([
    { prediction: 'no', points: 6 },
  ]);
  expect(mine.filter((row) => row.betId === second.id)).toMatchObject([
    { prediction: 'yes', points: 4 },
  ]);
  const joined = await server.request('GET', `/api/groups/${other.id}/membership`, {
    token: me.accessToken,
  });
  expect(joined.status).toBe(200);
  const secondRead = await server.request('GET', `/api/bets/${second.id}`, {
    token: me.accessToken,
  });
  expect(secondRead.body.wagerCount).toBe(1);
  expect(phone.toasts.errors).toEqual([]);
  expect(await phone.db.outbox.filter((row) => row.status !== 'answered').count()).toBe(0);
  // The mirror shows what they did: the changed wager and the joined group.
  expect(await phone.db.wagers.get(wager.id)).toMatchObject({ prediction: 'no', points: 6 });
  expect(await phone.db.groups.get(other.id)).toMatchObject({ id: other.id });
});
