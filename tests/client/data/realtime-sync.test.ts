// @vitest-environment node
import '../node-browser';
import { describe, expect, it, vi } from 'vitest';
import type { RealtimeAnnouncement } from '../../../src/client/data/realtime-sync';
import {
  refundMessage,
  REMOVED_FROM_GROUP_TEXT,
  RESULT_CHANGED_TEXT,
} from '../../../src/client/shell/realtime-announcements';
import {
  cancel,
  createBet,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { connectSocket, syncSockets } from '../../server/realtime/test-socket';
import { useDeviceServer, type Device } from './device.fixture';

// Realtime and the mirror (docs/groups-and-bets.md §4, docs/architecture.md §8) against the real server and a real
// socket.io connection: wagerPlaced moves the odds from its payload when it is newer; every
// other event asks for one pull; a reconnection pulls what the socket missed.

const { server, openDevice } = useDeviceServer(NO_EXPIRY_TIMER);

async function connectedDevice() {
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const group = await createGroup(server, friend);
  await joinGroup(server, me, group);
  const bet = await createBet(server, friend, group, { title: 'Known' });
  const phone = await openDevice(me, { withSocket: true });
  phone.local.start();
  await vi.waitFor(() => expect(phone.socket!.getSnapshot().status).toBe('connected'), {
    timeout: 5000,
  });
  await phone.local.whenIdle();
  expect(await phone.db.bets.get(bet.id)).toBeDefined();
  return { me, friend, group, bet, phone };
}

const pulls = (device: Device) =>
  device.requests.filter((request) => request.startsWith('GET /api/member/state')).length;

describe('events', () => {
  it('a friend’s new bet arrives through one pull', async () => {
    const { friend, group, phone } = await connectedDevice();
    const before = pulls(phone);

    const fresh = await createBet(server, friend, group, { title: 'Fresh' });

    await vi.waitFor(
      async () =>
        expect(await phone.db.bets.get(fresh.id)).toMatchObject({
          title: 'Fresh',
          version: expect.any(Number),
        }),
      { timeout: 5000 },
    );
    await phone.local.whenIdle();
    expect(pulls(phone) - before).toBe(1);
  });

  it('a friend’s wager moves the odds from the event itself, without a pull', async () => {
    const { friend, bet, phone } = await connectedDevice();
    const before = pulls(phone);

    await placeWager(server, friend, bet, 'no', 2);

    await vi.waitFor(
      async () =>
        expect(await phone.db.bets.get(bet.id)).toMatchObject({
          answerTotals: { no: 2 },
          wagerCount: 1,
        }),
      { timeout: 5000 },
    );
    await phone.local.whenIdle();
    expect(pulls(phone)).toBe(before);
  });

  it('an older event never overwrites a newer row', async () => {
    const { me, friend, group, bet, phone } = await connectedDevice();
    await placeWager(server, friend, bet, 'no', 2);
    await vi.waitFor(async () => expect((await phone.db.bets.get(bet.id))?.wagerCount).toBe(1), {
      timeout: 5000,
    });
    const stored = (await phone.db.bets.get(bet.id))!;

    await phone.local.realtime!.apply('wagerPlaced', {
      groupId: group.id,
      userId: friend.user.id,
      betId: bet.id,
      points: 1,
      previousPoints: 0,
      answerTotals: { yes: 1 },
      pool: 1,
      wagerCount: 0,
      version: stored.version! - 1,
    });

    expect(await phone.db.bets.get(bet.id)).toEqual(stored);
    expect(me.user.id).not.toBe(friend.user.id);
  });

  it('a resolution brings the state, the statistics and the payout through the pull', async () => {
    const { me, friend, group, bet, phone } = await connectedDevice();
    await placeWager(server, me, bet, 'yes', 1);
    await placeWager(server, friend, bet, 'no', 1);
    await vi.waitFor(async () => expect((await phone.db.bets.get(bet.id))?.wagerCount).toBe(2), {
      timeout: 5000,
    });

    expect((await resolve(server, friend, bet, 'yes')).status).toBe(200);

    await vi.waitFor(
      async () =>
        expect(await phone.db.bets.get(bet.id)).toMatchObject({
          state: 'resolved',
          correctAnswer: 'yes',
        }),
      { timeout: 5000 },
    );
    await phone.local.whenIdle();
    expect(await phone.db.betStatistics.get(bet.id)).toBeDefined();
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      totalPoints: 101,
      availablePoints: 101,
    });
    expect(await phone.db.memberships.get([group.id, friend.user.id])).toMatchObject({
      totalPoints: 99,
    });
  });

  it('a cancellation refunds the stake and says so to a player who wagered', async () => {
    const { me, friend, group, bet, phone } = await connectedDevice();
    const announcements: RealtimeAnnouncement[] = [];
    phone.local.realtime!.onAnnouncement((announcement) => announcements.push(announcement));
    await placeWager(server, me, bet, 'yes', 2);
    await vi.waitFor(async () => expect(await phone.db.wagers.count()).toBe(1), { timeout: 5000 });

    expect((await cancel(server, friend, bet)).status).toBe(200);

    await vi.waitFor(
      async () => expect(await phone.db.bets.get(bet.id)).toMatchObject({ state: 'cancelled' }),
      { timeout: 5000 },
    );
    await phone.local.whenIdle();
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 100,
    });
    expect(announcements).toEqual([{ kind: 'refund', totalRefunded: 2, participants: 1 }]);
    expect(phone.toasts.infos).toEqual([refundMessage(2, 1)]);
  });

  it('an undone resolution takes the payout back and tells a player who wagered', async () => {
    const { me, friend, group, bet, phone } = await connectedDevice();
    await placeWager(server, me, bet, 'yes', 1);
    await placeWager(server, friend, bet, 'no', 1);
    expect((await resolve(server, friend, bet, 'yes')).status).toBe(200);
    await vi.waitFor(
      async () =>
        expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
          totalPoints: 101,
        }),
      { timeout: 5000 },
    );

    const undone = await server.request('POST', `/api/bets/${bet.id}/undo-resolution`, {
      token: friend.accessToken,
    });
    expect(undone.status).toBe(200);

    await vi.waitFor(
      async () => expect(await phone.db.bets.get(bet.id)).toMatchObject({ state: 'active' }),
      { timeout: 5000 },
    );
    await phone.local.whenIdle();
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      totalPoints: 100,
      availablePoints: 99,
    });
    expect(phone.toasts.infos).toContain(RESULT_CHANGED_TEXT.undone('Known'));
    const history = await phone.db.betHistory.where('betId').equals(bet.id).sortBy('id');
    expect(history.map((entry) => entry.kind)).toEqual(['created', 'resolved', 'undone']);
  });

  it('a dispute is told to whom the inbox tells: a member who judges it, since every admin has a stake', async () => {
    const { me, friend, group, bet, phone } = await connectedDevice();
    const third = await createPlayer(server, 'Third');
    await joinGroup(server, third, group);
    // The only admin (the creator) and the third member have a stake; I have none, so I judge.
    await placeWager(server, friend, bet, 'yes', 1);
    await placeWager(server, third, bet, 'no', 1);
    expect((await resolve(server, friend, bet, 'yes')).status).toBe(200);
    await vi.waitFor(
      async () => expect(await phone.db.bets.get(bet.id)).toMatchObject({ state: 'resolved' }),
      { timeout: 5000 },
    );
    const disputed = await server.request('POST', `/api/bets/${bet.id}/dispute`, {
      token: third.accessToken,
      body: { reason: 'It was a no, I watched it.' },
    });
    expect(disputed.status, disputed.text).toBe(200);

    await vi.waitFor(
      () => expect(phone.toasts.infos).toEqual([RESULT_CHANGED_TEXT.disputed('Known')]),
      {
        timeout: 5000,
      },
    );
    const inbox = await server.request('GET', '/api/notifications', { token: me.accessToken });
    expect(JSON.stringify(inbox.body)).toContain('disputeOpened');
  });

  it('a player removed by an admin is told once, and the group leaves the device', async () => {
    const { me, friend, group, phone } = await connectedDevice();

    const removed = await server.request(
      'DELETE',
      `/api/groups/${group.id}/members/${me.user.id}`,
      {
        token: friend.accessToken,
      },
    );
    expect(removed.status, removed.text).toBe(200);

    await vi.waitFor(async () => expect(await phone.db.groups.get(group.id)).toBeUndefined(), {
      timeout: 5000,
    });
    await phone.local.whenIdle();
    expect(phone.toasts.infos).toEqual([
      REMOVED_FROM_GROUP_TEXT(friend.user.displayName, group.name),
    ]);
    expect(phone.toasts.infos[0]).toBe(`${friend.user.displayName} removed you from ${group.name}`);
  });

  it('a new member joins the leaderboard', async () => {
    const { group, phone } = await connectedDevice();
    const newcomer = await createPlayer(server, 'Newcomer');

    await joinGroup(server, newcomer, group);

    await vi.waitFor(
      async () =>
        expect(await phone.db.memberships.get([group.id, newcomer.user.id])).toMatchObject({
          totalPoints: 100,
        }),
      { timeout: 5000 },
    );
  });
});

describe('a reconnection', () => {
  it('pulls what the socket missed while it was down', async () => {
    const { me, friend, group, phone } = await connectedDevice();
    // The witness: another socket of the same player, told whatever the phone's would be told.
    const witness = await connectSocket(server, me.accessToken);
    phone.socket!.stop();
    const missed = await createBet(server, friend, group, { title: 'Missed' });
    try {
      await witness.waitFor('betCreated', (payload) => payload.betId === missed.id);
      // One more round trip to the player's sockets: a frame the phone's socket had been sent
      // with the witness's has been read by now, and what it started is tracked by whenIdle.
      await syncSockets(server, { client: witness, userId: me.user.id });
    } finally {
      witness.close();
    }
    await phone.local.whenIdle();
    expect(await phone.db.bets.get(missed.id)).toBeUndefined();

    phone.socket!.start();

    await vi.waitFor(
      async () => expect(await phone.db.bets.get(missed.id)).toMatchObject({ title: 'Missed' }),
      { timeout: 5000 },
    );
  });
});
