// @vitest-environment node
import '../node-browser';
import { describe, expect, it } from 'vitest';
import { createBetActions } from '../../../src/client/bets/bet-actions';
import { readNextActionableBet, readNextBetToResolve } from '../../../src/client/bets/use-bets';
import { ApiError } from '../../../src/client/data/api-client';
import {
  createBet,
  DAY,
  expiresIn,
  NO_EXPIRY_TIMER,
  placeWager,
} from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { useDeviceServer } from '../data/device.fixture';
import { SYNC_PUSH_PATH } from '../../../src/domain/constants';

// The bet actions the screens call (docs/groups-and-bets.md §4), on a device against the real server: each
// shows at once in the mirror and the queues derived from it, and the pull that follows
// brings the server's rows (the payout, the statistics).

const { server, openDevice } = useDeviceServer(NO_EXPIRY_TIMER);

async function setUp() {
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const group = await createGroup(server, friend);
  await joinGroup(server, me, group);
  const bet = await createBet(server, friend, group, { title: 'Rain?', baseWagerAmount: 2 });
  const phone = await openDevice(me);
  await phone.local.sync();
  const actions = createBetActions({
    db: phone.db,
    api: phone.api,
    session: phone.session,
    local: phone.local,
  });
  const settle = () => phone.local.whenIdle();
  return { me, friend, group, bet, phone, actions, settle };
}

const request = (groupId: number, title = 'Mine') => ({
  title,
  betType: 'yes_no' as const,
  betTypeConfig: {},
  baseWagerAmount: 1,
  expiresAt: expiresIn(server, DAY),
  groupId,
});

describe('bet actions', () => {
  it('creates a bet into its creator’s resolve queue', async () => {
    const { me, group, phone, actions, settle } = await setUp();

    const bet = await actions.createBet(request(group.id));
    await settle();

    expect(bet.id).toBeGreaterThan(0);
    expect(await phone.db.bets.get(bet.id)).toMatchObject({
      title: 'Mine',
      state: 'active',
      version: expect.any(Number),
    });
    expect((await readNextBetToResolve(phone.db, me.user.id))?.id).toBe(bet.id);
  });

  it('places a wager: it leaves the bet queue, the odds move and available points drop by the stake', async () => {
    const { me, group, bet, phone, actions, settle } = await setUp();
    expect((await readNextActionableBet(phone.db, me.user.id, Date.now()))?.id).toBe(bet.id);

    await actions.placeWager(bet.id, 'yes', 4);
    await settle();

    expect(await readNextActionableBet(phone.db, me.user.id, Date.now())).toBeNull();
    expect(await phone.db.bets.get(bet.id)).toMatchObject({
      answerTotals: { yes: 4 },
      wagerCount: 1,
    });
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 96,
      totalPoints: 100,
    });
  });

  it('changing a wager moves the points by the difference only', async () => {
    const { me, group, bet, phone, actions, settle } = await setUp();
    const first = await actions.placeWager(bet.id, 'yes', 4);
    await settle();

    const changed = await actions.placeWager(bet.id, 'no', 6);
    await settle();

    expect(changed.id).toBe(first.id);
    expect(await phone.db.wagers.toArray()).toEqual([
      expect.objectContaining({ id: first.id, prediction: 'no', points: 6 }),
    ]);
    expect(await phone.db.bets.get(bet.id)).toMatchObject({
      answerTotals: { no: 6 },
      wagerCount: 1,
    });
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 94,
    });
  });

  it('resolving takes the bet out of the resolve queue, and the pull brings the payout and the statistics', async () => {
    const { me, friend, group, phone, actions, settle } = await setUp();
    const mine = await actions.createBet(request(group.id));
    await actions.placeWager(mine.id, 'yes', 2);
    await placeWager(server, friend, mine, 'no', 2);

    const resolved = await actions.resolveBet(mine.id, 'yes');
    await settle();

    expect(resolved.state).toBe('resolved');
    expect(await readNextBetToResolve(phone.db, me.user.id)).toBeNull();
    expect(await phone.db.betStatistics.get(mine.id)).toBeDefined();
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      totalPoints: 102,
      availablePoints: 102,
    });
  });

  it('cancelling refunds the player at once and reports the pool refunded', async () => {
    const { me, friend, group, phone, actions, settle } = await setUp();
    const mine = await actions.createBet(request(group.id));
    await actions.placeWager(mine.id, 'yes', 2);
    await placeWager(server, friend, mine, 'no', 1);
    await phone.local.sync();

    const result = await actions.cancelBet(mine.id);
    await settle();

    expect(result).toMatchObject({ refundedPoints: 3, isQueued: false });
    expect(await phone.db.bets.get(mine.id)).toMatchObject({ state: 'cancelled' });
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 100,
    });
  });

  it('offline, a bet is created under a temporary id, pending, and the network back, the server’s id replaces it', async () => {
    const { group, phone, actions, settle } = await setUp();
    phone.setOffline(true);

    const pending = await actions.createBet(request(group.id, 'Offline bet'));

    expect(pending.id).toBeLessThan(0);
    expect(pending.pendingWriteId).toBeDefined();
    expect(phone.toasts.infos).toContain(
      "You're offline. Your bet will be created when you're back.",
    );
    phone.setOffline(false);
    await phone.local.sync();
    await settle();
    const stored = (await phone.db.bets.toArray()).filter((bet) => bet.title === 'Offline bet');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id).toBeGreaterThan(0);
    expect(stored[0]!.pendingWriteId).toBeUndefined();
  });

  it('offline, resolving shows the bet resolved at once and is delivered once', async () => {
    const { group, phone, actions, settle } = await setUp();
    const mine = await actions.createBet(request(group.id));
    await settle();
    phone.requests.length = 0;
    phone.setOffline(true);

    const pending = await actions.resolveBet(mine.id, 'no');

    expect(pending).toMatchObject({
      state: 'resolved',
      correctAnswer: 'no',
      pendingWriteId: expect.any(String),
    });
    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.sync();
    await settle();
    expect(phone.requests.filter((line) => line === `POST ${SYNC_PUSH_PATH}`)).toHaveLength(1);
    expect(await phone.db.bets.get(mine.id)).toMatchObject({
      state: 'resolved',
      correctAnswer: 'no',
    });
    expect((await phone.db.bets.get(mine.id))?.pendingWriteId).toBeUndefined();
  });

  it('a refused wager leaves the mirror and the points untouched and rejects with the server message', async () => {
    const { me, group, bet, phone, actions } = await setUp();

    const failure = await actions.placeWager(bet.id, 'yes', 5).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect(await phone.db.wagers.count()).toBe(0);
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 100,
    });
    expect(await phone.db.bets.get(bet.id)).toMatchObject({ wagerCount: 0 });
  });
});

describe('the resolve queue of a group admin', () => {
  it('holds a bet of the group abandoned by its creator (closed a day without a result), from the mirror', async () => {
    const admin = await createPlayer(server, 'Admin');
    const member = await createPlayer(server, 'Member');
    const group = await createGroup(server, admin);
    await joinGroup(server, member, group);
    const bet = await createBet(server, member, group, {
      title: 'Left behind?',
      expiresAt: expiresIn(server, DAY),
    });
    const phone = await openDevice(admin);
    await phone.local.sync();
    const closedAt = Date.parse(bet.expiresAt);

    expect(await readNextBetToResolve(phone.db, admin.user.id, closedAt + DAY - 60_000)).toBeNull();
    expect((await readNextBetToResolve(phone.db, admin.user.id, closedAt + DAY))?.id).toBe(bet.id);
    // Not for a member who is not an admin.
    const other = await createPlayer(server, 'Other');
    await joinGroup(server, other, group);
    const otherPhone = await openDevice(other);
    await otherPhone.local.sync();
    expect(await readNextBetToResolve(otherPhone.db, other.user.id, closedAt + DAY)).toBeNull();
  });

  it('holds a bet whose creator left, at once, as the server lets an admin resolve it then', async () => {
    const admin = await createPlayer(server, 'Admin');
    const leaver = await createPlayer(server, 'Leaver');
    const group = await createGroup(server, admin);
    await joinGroup(server, leaver, group);
    const bet = await createBet(server, leaver, group, { title: 'Orphaned?' });
    const left = await server.request('POST', `/api/groups/${group.id}/leave`, {
      token: leaver.accessToken,
    });
    expect(left.status).toBe(200);
    const phone = await openDevice(admin);
    await phone.local.sync();

    expect((await readNextBetToResolve(phone.db, admin.user.id, Date.now()))?.id).toBe(bet.id);
  });
});
