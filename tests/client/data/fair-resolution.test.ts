// @vitest-environment node
import '../node-browser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFairResolutionActions } from '../../../src/client/bets/fair-resolution-actions';
import { readNextActionableBet } from '../../../src/client/bets/use-bets';
import { isWageringOpen } from '../../../src/domain/bet-lists';
import { runPicksReveal } from '../../../src/server/jobs/picks-reveal.job';
import {
  createBet,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  resolve,
} from '../../server/bets/bet.factories';
import {
  createGroup,
  createPlayer,
  joinGroup,
  makeAdmin,
} from '../../server/groups/group.factories';
import { startTestServer, type TestServer } from '../../server/harness';
import { openDevice, type Device } from './device.fixture';

// Fair resolution in the mirror and the outbox, against the real server: picks reach a device
// that pulled before the close; the history is readable offline; an undo and a dispute written
// offline show at once and arrive exactly once.

let server: TestServer;
const devices: Device[] = [];

beforeAll(async () => {
  server = await startTestServer({
    env: { ...NO_EXPIRY_TIMER.env, PICKS_REVEAL_INTERVAL_MS: '0' },
  });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await Promise.all(devices.splice(0).map((device) => device.close()));
});

async function setUp({ friendCreates = false } = {}) {
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const group = await createGroup(server, me);
  await joinGroup(server, friend, group);
  const bet = await createBet(server, friendCreates ? friend : me, group, {
    title: 'Rain?',
    expiresAt: expiresIn(server, HOUR),
  });
  await placeWager(server, me, bet, 'yes', 1);
  await placeWager(server, friend, bet, 'no', 3);
  const phone = await openDevice(server, me);
  devices.push(phone);
  await phone.local.sync();
  await phone.local.whenIdle();
  const actions = createFairResolutionActions({
    session: phone.session,
    local: phone.local,
  });
  return { me, friend, group, bet, phone, actions };
}

describe('picks in the mirror', () => {
  it('are absent while betting is open and arrive with the delta pull once it closes', async () => {
    const { me, friend, bet, phone } = await setUp();
    expect((await phone.db.bets.get(bet.id))?.picks).toBeUndefined();
    server.clock.advance(HOUR);
    await runPicksReveal({ db: server.database.db, events: server.app.events }, server.clock.now());
    await phone.local.sync();
    phone.setOffline(true);
    expect((await phone.db.bets.get(bet.id))?.picks).toEqual([
      { userId: me.user.id, userName: me.user.displayName, prediction: 'yes', points: 1 },
      { userId: friend.user.id, userName: friend.user.displayName, prediction: 'no', points: 3 },
    ]);
  });
});

describe('undo and dispute through the outbox', () => {
  it('an undo queued offline reopens the bet at once and is sent once; the history follows', async () => {
    const { me, group, bet, phone, actions } = await setUp();
    const before = await pointsOf(server, me, group);
    expect((await resolve(server, me, bet, 'yes')).status).toBe(200);
    await phone.local.sync();
    expect((await phone.db.bets.get(bet.id))?.state).toBe('resolved');

    phone.setOffline(true);
    expect(await actions.undoResolution(bet.id)).toBe('queued');
    expect(phone.toasts.infos).toEqual([
      "You're offline. The result will be undone when you're back.",
    ]);
    expect(await phone.db.bets.get(bet.id)).toMatchObject({
      state: 'active',
      correctAnswer: null,
      pendingWriteId: expect.any(String),
    });
    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    expect(await pointsOf(server, me, group)).toEqual(before);
    const mine = await phone.db.memberships.get([group.id, me.user.id]);
    expect({ total: mine?.totalPoints, available: mine?.availablePoints }).toEqual(before);
    const history = await phone.db.betHistory.where('betId').equals(bet.id).sortBy('id');
    expect(history.map((entry) => entry.kind)).toEqual(['created', 'resolved', 'undone']);
    expect(await phone.db.outbox.count()).toBe(0);
  });

  it('a dispute queued offline shows at once and is sent once; a refusal takes it back', async () => {
    const { friend, bet, phone, actions } = await setUp({ friendCreates: true });
    await expect(actions.disputeResolution(bet.id, 'Too early')).rejects.toThrow(
      'This bet has not been resolved.',
    );
    expect((await phone.db.bets.get(bet.id))?.dispute).toBeUndefined();

    expect((await resolve(server, friend, bet, 'no')).status).toBe(200);
    await phone.local.sync();
    phone.setOffline(true);
    expect(await actions.disputeResolution(bet.id, '  It rained at noon  ')).toBe('queued');
    expect((await phone.db.bets.get(bet.id))?.dispute).toMatchObject({
      state: 'open',
      reason: 'It rained at noon',
    });
    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    const read = await server.request('GET', `/api/bets/${bet.id}`, { token: friend.accessToken });
    expect(read.body.dispute).toMatchObject({ state: 'open', reason: 'It rained at noon' });
    expect((await phone.db.bets.get(bet.id))?.pendingWriteId).toBeUndefined();
    const history = await phone.db.betHistory.where('betId').equals(bet.id).sortBy('id');
    expect(history.at(-1)).toMatchObject({ kind: 'disputed', reason: 'It rained at noon' });
  });
});

describe('an admin’s review through the outbox', () => {
  it('a correction queued offline shows at once, pays the new answer once; a dismissal closes the dispute', async () => {
    const { me, friend, group } = await setUp();
    const judge = await createPlayer(server, 'Judge');
    await joinGroup(server, judge, group);
    await makeAdmin(server, me, group, judge);
    const disputed = async (title: string, isNumeric = false) => {
      const bet = await createBet(server, me, group, {
        title,
        ...(isNumeric ? { betType: 'numeric' as const, betTypeConfig: {} } : {}),
      });
      await placeWager(server, me, bet, isNumeric ? '10' : 'yes', 2);
      await placeWager(server, friend, bet, isNumeric ? '20' : 'no', 2);
      expect((await resolve(server, me, bet, isNumeric ? '10' : 'yes')).status).toBe(200);
      const dispute = await server.request('POST', `/api/bets/${bet.id}/dispute`, {
        token: friend.accessToken,
        body: { reason: 'Wrong answer' },
      });
      expect(dispute.status).toBe(200);
      return bet;
    };
    const corrected = await disputed('Goals?', true);
    const kept = await disputed('Rain?');
    const tablet = await openDevice(server, judge);
    devices.push(tablet);
    await tablet.local.sync();
    const actions = createFairResolutionActions({ session: tablet.session, local: tablet.local });

    tablet.setOffline(true);
    // Typed with a decimal comma; shown and stored as the number the server keeps.
    expect(await actions.reResolveBet(corrected.id, '19,5')).toBe('queued');
    expect(await actions.dismissDispute(kept.id)).toBe('queued');
    expect(tablet.toasts.infos).toEqual([
      "You're offline. The new result will be sent when you're back.",
      "You're offline. The dismissal will be sent when you're back.",
    ]);
    expect(await tablet.db.bets.get(corrected.id)).toMatchObject({
      correctAnswer: '19.5',
      resolvedBy: judge.user.id,
      dispute: { state: 'closed' },
      pendingWriteId: expect.any(String),
    });
    expect((await tablet.db.bets.get(kept.id))?.dispute?.state).toBe('closed');

    tablet.setOffline(false);
    await tablet.local.sync();
    await tablet.local.whenIdle();
    expect(await tablet.db.outbox.count()).toBe(0);
    const onServer = await server.request('GET', `/api/bets/${corrected.id}`, {
      token: judge.accessToken,
    });
    expect(onServer.body).toMatchObject({ correctAnswer: '19.5', dispute: { state: 'closed' } });
    const stands = await server.request('GET', `/api/bets/${kept.id}`, {
      token: judge.accessToken,
    });
    expect(stands.body).toMatchObject({ correctAnswer: 'yes', dispute: { state: 'closed' } });
    // Each bet paid its winner the pool of 4 once: the friend won "Goals?", I won "Rain?".
    const friendsRow = await tablet.db.memberships.get([group.id, friend.user.id]);
    const mine = await tablet.db.memberships.get([group.id, me.user.id]);
    expect(friendsRow?.totalPoints).toBe(mine?.totalPoints);
    const [friendsPoints, myPoints] = [
      await pointsOf(server, friend, group),
      await pointsOf(server, me, group),
    ];
    expect(friendsPoints.total).toBe(myPoints.total);
    expect(friendsRow?.totalPoints).toBe(friendsPoints.total);
  });
});

describe('a resolution undone before the expiry', () => {
  it('leaves the bet closed on a device: active, waiting for its result, in no wager queue', async () => {
    const { friend, group, bet } = await setUp({ friendCreates: true });
    const late = await createPlayer(server, 'Late');
    await joinGroup(server, late, group);
    const tablet = await openDevice(server, late);
    devices.push(tablet);
    await tablet.local.sync();
    const now = server.clock.now().getTime();
    expect((await readNextActionableBet(tablet.db, late.user.id, now))?.id).toBe(bet.id);

    expect((await resolve(server, friend, bet, 'no')).status).toBe(200);
    const undone = await server.request('POST', `/api/bets/${bet.id}/undo-resolution`, {
      token: friend.accessToken,
    });
    expect(undone.status).toBe(200);
    await tablet.local.sync();
    const stored = await tablet.db.bets.get(bet.id);
    expect(stored?.state).toBe('active');
    expect(isWageringOpen(stored!, now)).toBe(false);
    expect(await readNextActionableBet(tablet.db, late.user.id, now)).toBeNull();
  });
});
