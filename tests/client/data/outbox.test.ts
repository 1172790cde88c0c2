// @vitest-environment node
import '../node-browser';
import { describe, expect, it, vi } from 'vitest';
import { createBetActions } from '../../../src/client/bets/bet-actions';
import { placeWagerMutator } from '../../../src/client/data/bet-mutators';
import { ApiError, refusalText } from '../../../src/client/data/api-client';
import {
  createGroupMutator,
  joinPrivateGroupMutator,
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
import { SYNC_PUSH_PATH } from '../../../src/domain/constants';

// The outbox (docs/architecture.md §8) against the real server: named mutators applied at once,
// pushed in order as numbered mutations (POST /api/sync/push), re-applied on top of every pull
// until a pull reports their id applied, a refusal undone with its message, temporary ids
// rewritten before a dependent write goes.

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

  it('is applied once even when its first answer was lost (the same client and mutation id)', async () => {
    const { me, bet, phone, actions } = await setUp();
    phone.setOffline(true);
    await actions.placeWager(bet.id, 'yes', 2);
    const [entry] = await phone.db.outbox.toArray();
    expect(entry).toMatchObject({
      clientGroupID: expect.any(String),
      clientID: expect.any(String),
      mutationID: 1,
    });
    // The push reaches the server but its answer never comes back (as if the network dropped).
    const lost = await server.request('POST', SYNC_PUSH_PATH, {
      token: me.accessToken,
      body: {
        clientGroupID: entry!.clientGroupID,
        clientID: entry!.clientID,
        mutations: [
          {
            id: 1,
            name: 'placeWager',
            args: { body: { betId: bet.id, prediction: 'yes', points: 2 } },
          },
        ],
      },
    });
    expect(lost.body.results).toMatchObject([{ id: 1, ok: true }]);

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

    await phone.local.run(joinPrivateGroupMutator, {
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

  it("without a message of the server's own, is said in the write's own words, waited for or not", async () => {
    const { bet, phone, actions } = await setUp();
    const send = globalThis.fetch;
    // A refusal that is not our server's (a proxy's): no message to show.
    const proxy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation((input, init) =>
        String(input).endsWith(SYNC_PUSH_PATH)
          ? Promise.resolve(new Response(null, { status: 403 }))
          : send(input, init),
      );
    try {
      const failure = await actions.placeWager(bet.id, 'yes', 2).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect(failure).toMatchObject({ status: 403, message: 'Failed to submit wager' });
      expect(refusalText(failure)).toBe('Failed to submit wager');

      phone.setOffline(true);
      await actions.placeWager(bet.id, 'yes', 2);
      expect(phone.toasts.infos).toEqual([
        "You're offline. Your wager will be sent when you're back.",
      ]);
      phone.setOffline(false);
      await phone.local.outbox.flush();
      // Nobody waited: it names itself and its bet (from the mirror), then the words.
      const said = `Your 2 points on '${bet.title}' came back. Failed to submit wager`;
      expect(await phone.db.outbox.toArray()).toEqual([
        expect.objectContaining({ status: 'failed', error: said }),
      ]);
      expect(phone.toasts.errors).toEqual([said]);
    } finally {
      proxy.mockRestore();
    }
  });

  it('sent by a screen that waits for nothing (send) is the outbox’s toast, never a rejection', async () => {
    const { bet, phone } = await setUp();
    // 999 points on a bet of base 1: the server refuses it with its own message.
    const result = await phone.local.outbox.send(placeWagerMutator, {
      betId: bet.id,
      prediction: 'yes',
      points: 999,
      tempId: phone.local.outbox.tempId(),
    });
    expect(result).toBeUndefined();
    expect(phone.toasts.errors).toHaveLength(1);
    expect(phone.toasts.errors[0]).not.toBe('Failed to submit wager');
    expect(await phone.db.wagers.where('betId').equals(bet.id).count()).toBe(0);
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
    expect(entry).toMatchObject({
      status: 'failed',
      error: `Your 2 points on '${bet.title}' came back: betting had closed`,
      errorCode: 'bet_closed',
    });
    expect(phone.toasts.errors).toEqual([entry!.error]);
    expect(await phone.db.wagers.count()).toBe(0);
    expect(await phone.db.bets.get(bet.id)).toMatchObject({ state: 'cancelled' });
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 100,
    });

    await phone.local.outbox.discard(entry!.id);
    expect(await phone.db.outbox.count()).toBe(0);
  });

  it('can be retried: it goes out again as a new mutation', async () => {
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

    // …and a retry sends it again under a new number (refused again: its expiry has passed).
    await phone.local.outbox.retry(entry!.id);
    await phone.local.whenIdle();
    expect(await phone.db.outbox.get(entry!.id)).toMatchObject({
      status: 'failed',
      mutationID: entry!.mutationID! + 1,
    });
    expect(me.user.id).toBeGreaterThan(0);
  });
});

describe('the push', () => {
  it('carries ten queued writes in one request, in order, each applied once', async () => {
    const { me, friend, group, phone } = await setUp();
    const bets = [];
    for (let index = 0; index < 10; index += 1)
      bets.push(
        await createBet(server, friend, group, { title: `Bet ${index}`, baseWagerAmount: 1 }),
      );
    await phone.local.sync();
    phone.setOffline(true);
    for (const bet of bets)
      await phone.local.run(placeWagerMutator, {
        betId: bet.id,
        prediction: 'yes',
        points: 1,
        tempId: phone.local.outbox.tempId(),
      });
    expect(
      (await phone.db.outbox.toArray()).map((entry) => entry.mutationID).sort((a, b) => a! - b!),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    phone.requests.length = 0;
    phone.setOffline(false);
    await phone.local.outbox.flush();

    const writes = phone.requests.filter((request) => !request.startsWith('GET'));
    expect(writes).toEqual([`POST ${SYNC_PUSH_PATH}`]);
    await phone.local.whenIdle();
    expect(await phone.db.outbox.count()).toBe(0);
    for (const bet of bets) expect(await serverWagerCount(bet.id, me.accessToken)).toBe(1);
    expect(await phone.db.memberships.get([group.id, me.user.id])).toMatchObject({
      availablePoints: 90,
    });
  });

  it('leaves a write drawn until a pull reports its id applied, then drops it', async () => {
    const { me, bet, phone, actions } = await setUp();
    phone.setOffline(true);
    const queued = await actions.placeWager(bet.id, 'yes', 2);
    const [entry] = await phone.db.outbox.toArray();
    // Another sender (the service worker) pushed it; the device has not heard.
    await server.request('POST', SYNC_PUSH_PATH, {
      token: me.accessToken,
      body: {
        clientGroupID: entry!.clientGroupID,
        clientID: entry!.clientID,
        mutations: [
          {
            id: 1,
            name: 'placeWager',
            args: { body: { betId: bet.id, prediction: 'yes', points: 2 } },
          },
        ],
      },
    });
    phone.setOffline(false);

    // A pull alone: its rows hold the write, and it says so.
    await phone.local.syncEngine.pull();

    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.shadow.count()).toBe(0);
    const wagers = await phone.db.wagers.toArray();
    expect(wagers).toHaveLength(1);
    expect(wagers[0]!.id).not.toBe(queued.id);
    expect(wagers[0]!.pendingWriteId).toBeUndefined();
    expect(await serverWagerCount(bet.id, me.accessToken)).toBe(1);
  });

  it('learns of a refusal from the pull: not drawn, kept as refused, named with its bet', async () => {
    const { me, friend, bet, phone, actions } = await setUp();
    phone.setOffline(true);
    await actions.placeWager(bet.id, 'yes', 2);
    const [entry] = await phone.db.outbox.toArray();
    expect((await cancel(server, friend, bet)).status).toBe(200);
    const pushed = await server.request('POST', SYNC_PUSH_PATH, {
      token: me.accessToken,
      body: {
        clientGroupID: entry!.clientGroupID,
        clientID: entry!.clientID,
        mutations: [
          {
            id: 1,
            name: 'placeWager',
            args: { body: { betId: bet.id, prediction: 'yes', points: 2 } },
          },
        ],
      },
    });
    expect(pushed.body.results[0].error.code).toBe('bet_closed');
    const refusal = `Your 2 points on '${bet.title}' came back: betting had closed`;
    phone.setOffline(false);

    await phone.local.syncEngine.pull();

    expect(await phone.db.outbox.get(entry!.id)).toMatchObject({
      status: 'failed',
      error: refusal,
      errorCode: 'bet_closed',
    });
    expect(phone.toasts.errors).toEqual([refusal]);
    expect(await phone.db.wagers.count()).toBe(0);
  });

  it('names the row a write created, from the pull, in the writes queued behind it', async () => {
    const { me, group, phone } = await setUp();
    phone.setOffline(true);
    const betTemp = phone.local.outbox.tempId();
    const request = {
      title: 'Numbered by the pull',
      betType: 'yes_no' as const,
      betTypeConfig: {},
      baseWagerAmount: 1,
      expiresAt: expiresIn(server, DAY),
      groupId: group.id,
    };
    await phone.local.run(createBetMutator, { tempId: betTemp, request });
    await phone.local.run(placeWagerMutator, {
      betId: betTemp,
      prediction: 'yes',
      points: 1,
      tempId: phone.local.outbox.tempId(),
    });
    const [create] = await phone.db.outbox.orderBy('createdAt').toArray();
    const pushed = await server.request('POST', SYNC_PUSH_PATH, {
      token: me.accessToken,
      body: {
        clientGroupID: create!.clientGroupID,
        clientID: create!.clientID,
        mutations: [{ id: 1, name: 'createBet', args: { body: request } }],
      },
    });
    const betId = pushed.body.results[0].createdId as number;
    phone.setOffline(false);

    await phone.local.syncEngine.pull();
    const [wager] = await phone.db.outbox.toArray();
    expect(wager).toMatchObject({ mutator: 'placeWager', args: { betId }, mutationID: 2 });

    await phone.local.sync();
    await phone.local.whenIdle();
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await serverWagerCount(betId, me.accessToken)).toBe(1);
    expect(await phone.db.bets.get(betId)).toMatchObject({ wagerCount: 1 });
  });

  it('numbers again the writes behind one discarded before it went, and sends them', async () => {
    const { me, friend, group, phone } = await setUp();
    const bets = [
      await createBet(server, friend, group, { title: 'One', baseWagerAmount: 1 }),
      await createBet(server, friend, group, { title: 'Two', baseWagerAmount: 1 }),
    ];
    await phone.local.sync();
    phone.setOffline(true);
    for (const bet of bets)
      await phone.local.run(placeWagerMutator, {
        betId: bet.id,
        prediction: 'yes',
        points: 1,
        tempId: phone.local.outbox.tempId(),
      });
    const [first] = await phone.db.outbox.orderBy('createdAt').toArray();
    await phone.local.outbox.discard(first!.id);
    phone.setOffline(false);

    await phone.local.sync();
    await phone.local.whenIdle();

    expect(await phone.db.outbox.count()).toBe(0);
    expect(await serverWagerCount(bets[0]!.id, me.accessToken)).toBe(0);
    expect(await serverWagerCount(bets[1]!.id, me.accessToken)).toBe(1);
  });
});
