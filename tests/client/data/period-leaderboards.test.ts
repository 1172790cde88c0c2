// @vitest-environment node
import '../node-browser';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/data/api-client';
import { clearLocalData } from '../../../src/client/data/db';
import {
  periodWindow,
  refreshPeriodLeaderboard,
} from '../../../src/client/data/period-leaderboards';
import { createBet, NO_EXPIRY_TIMER, placeWager, resolve } from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { startTestServer, type TestServer } from '../../server/harness';
import { openDevice, type Device } from './device.fixture';

// This week / This month on a device: the server's answer in the player's
// calendar is kept in Dexie, stays there offline, and is cleared with the rest at sign-out.

let server: TestServer;
const devices: Device[] = [];

beforeAll(async () => {
  server = await startTestServer(NO_EXPIRY_TIMER);
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await Promise.all(devices.splice(0).map((device) => device.close()));
});

it('keeps the week as the server summed it, offline too, until a sign-out clears it', async () => {
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const group = await createGroup(server, friend);
  await joinGroup(server, me, group);
  const bet = await createBet(server, friend, group, { baseWagerAmount: 1 });
  await placeWager(server, me, bet, 'yes', 2);
  await placeWager(server, friend, bet, 'no', 1);
  await resolve(server, friend, bet, 'yes');
  const phone = await openDevice(server, me);
  devices.push(phone);

  const now = new Date();
  await refreshPeriodLeaderboard(group.id, 'week', { now, api: phone.api, db: phone.db });
  const kept = await phone.db.periodLeaderboards.get([group.id, 'week']);
  expect(kept?.from).toBe(periodWindow('week', now).from);
  expect(new Map(kept?.members.map((member) => [member.userId, member.points]))).toEqual(
    new Map([
      [me.user.id, 1],
      [friend.user.id, -1],
    ]),
  );

  phone.setOffline(true);
  await expect(
    refreshPeriodLeaderboard(group.id, 'week', { now, api: phone.api, db: phone.db }),
  ).rejects.toBeInstanceOf(ApiError);
  expect(await phone.db.periodLeaderboards.get([group.id, 'week'])).toEqual(kept);
  phone.setOffline(false);

  // What signing out (or another user signing in) runs on the local data.
  await clearLocalData(phone.db);
  expect(await phone.db.periodLeaderboards.count()).toBe(0);
});
