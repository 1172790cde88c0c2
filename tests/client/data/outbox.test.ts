// @vitest-environment node
import '../node-browser';
import { describe, expect, it } from 'vitest';
import { createBetActions } from '../../../src/client/bets/bet-actions';
import { placeWagerMutator } from '../../../src/client/data/bet-mutators';
import { ApiError } from '../../../src/client/data/api-client';
import {
  createGroupMutator,
  joinGroupMutator,
  leaveGroupMutator,
} from '../../../src/client/data/group-mutators';
import { createBetMutator } from '../../../src/client/data/bet-mutators';
import {
  cancel,
  createBet,
  DAY,
  expiresIn,
  NO_EXPIRY_TIMER,
  placeWager,
} from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { useDeviceServer } from './device.fixture';

// The outbox (docs/architecture.md §8) against the real server: named mutators applied at once,
// sent with their Idempotency-Key, re-applied on top of every pull until the server has them,
// a refusal undone with its message, temporary ids rewritten before a dependent write goes.

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
  return { me, friend, group, bet, phone, actions };
}

/** The server's wagers on a bet, as its statistics count them. */
async function serverWagerCount(betId: number, token: string) {
  const response = await server.request('GET', `/api/bets/${betId}`, { token });
  return response.body.wagerCount as number;
}

describe('a write sent at once', () => {
  it('shows at once, is answered, and the pull that follows leaves the server rows unmarked', async () => {
    const { me, group, bet, phone, actions } = await setUp();

    const wager = await actions.placeWager(bet.id, 'yes', 4);

    expect(wager).toMatchObject({ betId: bet.id, points: 4 });
    await phone.local.whenIdle();
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.shadow.count()).toBe(0);
    expect(await phone.db.wagers.get(wager.id)).toMatchObject({
      points: 4,
      version: expect.any(Number),
    });
    expect((await phone.db.wagers.get(wager.id))?.pendingWriteId).toBeUndefined();
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 96,
      totalPoints: 100,
    });
    expect(await phone.db.bets.get(bet.id)).toMatchObject({
      answerTotals: { yes: 4 },
      wagerCount: 1,
    });
  });
});

describe('a write made offline', () => {
  it('is never erased by a pull while it waits, and lands on top of what others did', async () => {
    const { me, friend, group, bet, phone, actions } = await setUp();
    phone.setOffline(true);
    const queued = await actions.placeWager(bet.id, 'yes', 4);
    expect(queued.pendingWriteId).toBeDefined();
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 96,
    });

    // Meanwhile a friend wagers; the device pulls before it sends.
    await placeWager(server, friend, bet, 'no', 2);
    phone.setOffline(false);
    await phone.local.syncEngine.pull();

    const mine = await phone.db.wagers.where('[betId+userId]').equals([bet.id, me.user.id]).first();
    expect(mine).toMatchObject({ points: 4, pendingWriteId: queued.pendingWriteId });
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 96,
    });
    expect(await phone.db.bets.get(bet.id)).toMatchObject({
      answerTotals: { yes: 4, no: 2 },
      wagerCount: 2,
    });

    // Then it is sent, once; the server's rows replace the drawn ones.
    await phone.local.sync();
    await phone.local.whenIdle();
    expect(await serverWagerCount(bet.id, me.accessToken)).toBe(2);
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.shadow.count()).toBe(0);
    expect(await phone.db.bets.get(bet.id)).toMatchObject({
      answerTotals: { yes: 4, no: 2 },
      wagerCount: 2,
    });
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 96,
      totalPoints: 100,
    });
  });

  it('is sent once even when its first answer was lost (the same Idempotency-Key)', async () => {
    const { me, bet, phone, actions } = await setUp();
    phone.setOffline(true);
    await actions.placeWager(bet.id, 'yes', 2);
    const [entry] = await phone.db.outbox.toArray();
    // The request reaches the server but its answer never comes back (as if the network dropped).
    await server.request('POST', '/api/bets/wagers', {
      token: me.accessToken,
      body: { betId: bet.id, prediction: 'yes', points: 2 },
      headers: { 'Idempotency-Key': entry!.id },
    });

    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();

    expect(await serverWagerCount(bet.id, me.accessToken)).toBe(1);
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.wagers.count()).toBe(1);
  });

  it('chains: a group and a bet created offline, a wager on that bet, each arrives once with the real ids', async () => {
    const { me, phone } = await setUp();
    phone.setOffline(true);
    const groupTemp = phone.local.outbox.tempId();
    // As the create action does: the new group is the active group at once.
    phone.activeGroup.set({ id: groupTemp, name: 'Offline', availablePoints: 50 });
    await phone.local.run(createGroupMutator, {
      tempId: groupTemp,
      input: { name: `Offline ${Date.now()}`, privacy: 'public', defaultPoints: 50 },
    });
    const betTemp = phone.local.outbox.tempId();
    await phone.local.run(createBetMutator, {
      tempId: betTemp,
      request: {
        title: 'Made offline',
        betType: 'yes_no',
        betTypeConfig: {},
        baseWagerAmount: 1,
        expiresAt: expiresIn(server, DAY),
        groupId: groupTemp,
      },
    });
    const wagerTemp = phone.local.outbox.tempId();
    await phone.local.run(placeWagerMutator, {
      betId: betTemp,
      prediction: 'yes',
      points: 2,
      tempId: wagerTemp,
    });
    // All three show at once, under temporary ids.
    expect(await phone.db.bets.get(betTemp)).toMatchObject({
      title: 'Made offline',
      answerTotals: { yes: 2 },
      pendingWriteId: expect.any(String),
    });
    // The creator administers the group from the start: a role the server has too.
    expect(await phone.db.memberships.get([groupTemp, me.user.id])).toMatchObject({
      availablePoints: 48,
      role: 'admin',
    });

    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();

    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.shadow.count()).toBe(0);
    const groups = (await phone.db.groups.toArray()).filter((group) =>
      group.name.startsWith('Offline'),
    );
    expect(groups).toHaveLength(1);
    const realGroup = groups[0]!;
    expect(realGroup.id).toBeGreaterThan(0);
    const bets = await phone.db.bets.where('groupId').equals(realGroup.id).toArray();
    expect(bets).toHaveLength(1);
    expect(bets[0]).toMatchObject({
      title: 'Made offline',
      answerTotals: { yes: 2 },
      wagerCount: 1,
    });
    expect(bets[0]!.id).toBeGreaterThan(0);
    expect(await phone.db.bets.get(betTemp)).toBeUndefined();
    expect(await phone.db.wagers.where('betId').equals(bets[0]!.id).toArray()).toHaveLength(1);
    expect(await phone.db.memberships.get([realGroup.id, me.user.id])).toMatchObject({
      availablePoints: 48,
      totalPoints: 50,
    });
    // The server holds each exactly once.
    const serverBets = await server.request('GET', `/api/groups/${realGroup.id}/bets`, {
      token: me.accessToken,
    });
    expect(serverBets.body).toHaveLength(1);
    expect(serverBets.body[0].wagerCount).toBe(1);
    expect(phone.activeGroup.getSnapshot()?.id).toBe(realGroup.id);
  });
});

describe('joining a group', () => {
  it('brings its whole content and makes it the active group', async () => {
    const { friend, phone } = await setUp();
    const secret = await createGroup(server, friend, { privacy: 'private' });
    const inside = await createBet(server, friend, secret, { title: 'Inside' });

    await phone.local.run(joinGroupMutator, {
      privacy: 'private',
      groupId: secret.id,
      inviteCode: secret.inviteCode!,
    });
    await phone.local.whenIdle();

    expect(await phone.db.groups.get(secret.id)).toMatchObject({
      name: secret.name,
      version: expect.any(Number),
    });
    expect(await phone.db.bets.get(inside.id)).toMatchObject({ title: 'Inside' });
    expect(await phone.db.memberships.where('groupId').equals(secret.id).count()).toBe(2);
    expect(phone.activeGroup.getSnapshot()).toMatchObject({ id: secret.id, availablePoints: 100 });
  });
});

describe('leaving a group', () => {
  it('takes its rows away at once, keeps them away through a pull while offline, and the server agrees', async () => {
    const { me, friend, group, phone } = await setUp();
    const other = await createGroup(server, friend);
    await joinGroup(server, me, other);
    await phone.local.sync();
    phone.setOffline(true);

    await phone.local.run(leaveGroupMutator, { groupId: group.id });

    expect(await phone.db.groups.get(group.id)).toBeUndefined();
    expect(await phone.db.bets.where('groupId').equals(group.id).count()).toBe(0);
    phone.setOffline(false);
    await phone.local.syncEngine.pull();
    expect(await phone.db.groups.get(group.id)).toBeUndefined();
    expect(await phone.db.memberships.where('groupId').equals(group.id).count()).toBe(0);

    await phone.local.sync();
    await phone.local.whenIdle();
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.shadow.count()).toBe(0);
    expect(await phone.db.groups.get(group.id)).toBeUndefined();
    expect(await phone.db.groups.get(other.id)).toBeDefined();
    expect(phone.activeGroup.getSnapshot()?.id).toBe(other.id);
    const mine = await server.request('GET', '/api/member/state', { token: me.accessToken });
    expect(Object.keys(mine.body.groups)).toEqual([String(other.id)]);
  });
});

describe('an expired access token', () => {
  it('is refreshed, and the write still arrives once', async () => {
    const { me, bet, phone, actions } = await setUp();
    // The access token the device holds is no longer accepted (expired); its refresh token is.
    phone.session.signIn({ ...me, accessToken: 'expired-access-token' }, true);

    await actions.placeWager(bet.id, 'yes', 2);
    await phone.local.whenIdle();

    expect(phone.requests).toContain('POST /auth/refresh-token');
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await serverWagerCount(bet.id, phone.session.getAccessToken() ?? me.accessToken)).toBe(
      1,
    );
  });
});

describe('a write with nobody signed in', () => {
  it('is refused before it is queued, with the code the server gives a call without a token', async () => {
    const { bet, phone, actions } = await setUp();
    const anonymous = await server.request('POST', '/api/bets/wagers', {
      body: { betId: bet.id, prediction: 'yes', points: 2 },
    });
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'authentication_required' } });
    // Expired rather than signed out, so the device keeps its data to look at.
    await phone.session.logout('expired');

    const viaAction = await actions.placeWager(bet.id, 'yes', 2).catch((error: unknown) => error);
    const viaOutbox = await phone.local
      .run(placeWagerMutator, { betId: bet.id, prediction: 'yes', points: 2, tempId: -1 })
      .catch((error: unknown) => error);

    for (const refusal of [viaAction, viaOutbox]) {
      expect(refusal).toBeInstanceOf(ApiError);
      expect(refusal).toMatchObject({ status: 401, code: anonymous.body.code });
    }
    expect(await phone.db.outbox.count()).toBe(0);
  });
});

describe('a refused write', () => {
  it('disappears with the server message when the screen is waiting for it', async () => {
    const { me, group, bet, phone, actions } = await setUp();
    // 300 points is not 1, 2 or 3 times the base of 2.
    const failure = await actions.placeWager(bet.id, 'yes', 300).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).not.toBe('');
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.shadow.count()).toBe(0);
    expect(await phone.db.wagers.count()).toBe(0);
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 100,
    });
    expect((await phone.db.bets.get(bet.id))?.pendingWriteId).toBeUndefined();
  });

  it('sent later is undone, kept as refused with its message, and can be discarded', async () => {
    const { me, friend, group, bet, phone, actions } = await setUp();
    phone.setOffline(true);
    await actions.placeWager(bet.id, 'yes', 2);
    expect((await cancel(server, friend, bet)).status).toBe(200);

    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();

    const [entry] = await phone.db.outbox.toArray();
    expect(entry).toMatchObject({ status: 'failed', error: expect.any(String) });
    expect(phone.toasts.errors).toEqual([entry!.error]);
    expect(await phone.db.wagers.count()).toBe(0);
    expect(await phone.db.bets.get(bet.id)).toMatchObject({ state: 'cancelled' });
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 100,
    });

    await phone.local.outbox.discard(entry!.id);
    expect(await phone.db.outbox.count()).toBe(0);
  });

  it('can be retried: it goes out again with its own key', async () => {
    const { me, group, phone } = await setUp();
    phone.setOffline(true);
    // A bet whose expiry has passed by the time it is sent is refused…
    const betTemp = phone.local.outbox.tempId();
    await phone.local.run(createBetMutator, {
      tempId: betTemp,
      request: {
        title: 'Too late',
        betType: 'yes_no',
        betTypeConfig: {},
        baseWagerAmount: 1,
        expiresAt: new Date(Date.now() - 1000).toISOString(),
        groupId: group.id,
      },
    });
    phone.setOffline(false);
    await phone.local.sync();
    const [entry] = await phone.db.outbox.toArray();
    expect(entry?.status).toBe('failed');
    expect(await phone.db.bets.get(betTemp)).toBeUndefined();

    // …and a retry sends it again (still refused here: the same key answers the same).
    await phone.local.outbox.retry(entry!.id);
    await phone.local.whenIdle();
    expect((await phone.db.outbox.get(entry!.id))?.status).toBe('failed');
    expect(me.user.id).toBeGreaterThan(0);
  });
});
