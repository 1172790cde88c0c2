import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bet, Wager } from '../../../src/domain/bets';
import type { Membership } from '../../../src/domain/groups';
import { createBetActions, type BetActions } from '../../../src/client/bets/bet-actions';
import { createApiClient } from '../../../src/client/data/api-client';
import { openHunchDb, type HunchDb } from '../../../src/client/data/db';
import { createOutbox, type Outbox } from '../../../src/client/data/outbox';
import { createSessionStore, type SessionStore } from '../../../src/client/data/session-store';
import { fetchUnlessOffline, startStandIn, type StandIn } from '../stand-in-server';

// The bet actions against a real local HTTP stand-in for the API and a real (fake-indexeddb)
// Dexie database: after each action the tables hold what the screens must show, the
// player's points included (spec 02 §4 "Client bet lists").

const me = { id: 7, appName: 'hunch', email: 'me@example.com', username: 'me', firstName: 'Me', lastName: 'Myself', displayName: 'Me Myself', isTemporary: false, roles: [] as string[], profilePictureUrl: null };
const at = '2030-01-01T00:00:00.000Z';
const bet = (overrides: Partial<Bet> = {}): Bet => ({
  id: 11,
  title: 'Rain?',
  description: null,
  betType: 'yes_no',
  state: 'active',
  betTypeConfig: {},
  baseWagerAmount: 2,
  groupId: 3,
  createdBy: me.id,
  expiresAt: at,
  correctAnswer: null,
  resolvedAt: null,
  resolvedBy: null,
  createdAt: at,
  updatedAt: at,
  ...overrides,
});
const membership = (availablePoints: number, totalPoints = 100): Membership => ({ groupId: 3, userId: me.id, userName: me.displayName, totalPoints, availablePoints });

// The stand-in server's state and what it was asked.
let serverBet: Bet;
let serverMembership: Membership;
let wagerPoints: number | null;
/** The next write the stand-in refuses, whatever it is. */
let refusal: { status: number; message: string; code: string } | null = null;
let calls: Array<{ method: string; path: string; body: unknown; key: string | undefined }> = [];
let standIn: StandIn;
let baseUrl: string;

const readBody = (req: IncomingMessage) =>
  new Promise<unknown>((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text ? JSON.parse(text) : undefined));
  });

beforeAll(async () => {
  standIn = await startStandIn(async (req, res) => {
    const path = req.url!;
    const body = (await readBody(req)) as Record<string, unknown> | undefined;
    calls.push({ method: req.method!, path, body, key: req.headers['idempotency-key'] as string | undefined });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (refusal && req.method !== 'GET') return send(refusal.status, { message: refusal.message, code: refusal.code });
    const wager = (): Wager => ({ id: 21, betId: serverBet.id, userId: me.id, prediction: String(body?.prediction), points: Number(body?.points), createdAt: at, updatedAt: at });
    if (req.method === 'POST' && path === '/api/bets') return send(201, bet({ title: String(body?.title) }));
    if (req.method === 'POST' && path === '/api/bets/wagers' && body?.betId !== serverBet.id) return send(422, { message: 'This bet is closed', code: 'bet_closed' });
    if (req.method === 'POST' && path === '/api/bets/wagers') {
      wagerPoints = Number(body?.points);
      serverBet = { ...serverBet, answerTotals: { [String(body?.prediction)]: wagerPoints }, wagerCount: 1 };
      return send(201, wager());
    }
    if (req.method === 'PUT' && path === '/api/bets/wagers/21') {
      wagerPoints = Number(body?.points);
      serverBet = { ...serverBet, answerTotals: { [String(body?.prediction)]: wagerPoints }, wagerCount: 1 };
      return send(200, wager());
    }
    if (req.method === 'GET' && path === `/api/bets/${serverBet.id}`) return send(200, serverBet);
    if (req.method === 'PUT' && path === `/api/bets/${serverBet.id}/resolve`) {
      serverBet = { ...serverBet, state: 'resolved', correctAnswer: String(body?.correctAnswer), resolvedAt: at, resolvedBy: me.id };
      return send(200, serverBet);
    }
    // Only the fields the tests read: whether the statistics know the result.
    if (req.method === 'GET' && path === `/api/bets/${serverBet.id}/statistics`) return send(200, { isResolved: serverBet.state === 'resolved', correctAnswer: serverBet.correctAnswer });
    if (req.method === 'POST' && path === `/api/bets/${serverBet.id}/cancel`) return send(200, { ...serverBet, state: 'cancelled' });
    if (req.method === 'GET' && path === '/api/groups/3/membership') return send(200, serverMembership);
    return send(404, { message: 'Not found', code: 'not_found' });
  });
  baseUrl = standIn.baseUrl;
});

afterAll(() => standIn.close());

let db: HunchDb;
let session: SessionStore;
let actions: BetActions;
let outbox: Outbox;
/** The browser's fetch with no network: a TypeError before any answer. */
let offline = false;
let notified: string[] = [];
let dbCount = 0;
const leaderboardRefreshes: number[] = [];

beforeEach(async () => {
  serverBet = bet();
  serverMembership = membership(100);
  wagerPoints = null;
  refusal = null;
  offline = false;
  notified = [];
  calls = [];
  db = openHunchDb(`hunch-bet-actions-${dbCount++}`);
  session = createSessionStore({ storages: { persistent: localStorage, temporary: sessionStorage } });
  session.signIn({ accessToken: 'access', refreshToken: 'refresh', user: me }, true);
  const api = createApiClient({ session, baseUrl, fetch: fetchUnlessOffline(() => offline) });
  outbox = createOutbox({ db, api, session, notifyError: (message) => notified.push(message) });
  actions = createBetActions({
    db,
    api,
    session,
    outbox,
    syncEngine: { applyLocal: (write) => write(), refreshLeaderboard: async (groupId) => void leaderboardRefreshes.push(groupId) },
  });
  await db.memberships.put(membership(100));
  await db.bets.put({ ...bet(), isUnwagered: true, isToResolve: true });
});

afterEach(async () => {
  db.close();
  await db.delete();
});

describe('bet actions', () => {
  it('creates a bet into both queues of its creator, sending an Idempotency-Key', async () => {
    await db.bets.clear();
    await actions.createBet({ title: 'New one', expiresAt: at, baseWagerAmount: 2, betType: 'yes_no', betTypeConfig: {}, groupId: 3 });
    expect(await db.bets.get(11)).toMatchObject({ title: 'New one', isUnwagered: true, isToResolve: true, isListed: true });
    expect(calls[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('places a wager: the wager is stored, the bet leaves the bet queue with fresh totals, available points drop by the stake', async () => {
    await actions.placeWager(11, 'yes', 6);
    expect(await db.wagers.where('[betId+userId]').equals([11, me.id]).first()).toMatchObject({ id: 21, prediction: 'yes', points: 6 });
    expect(await db.bets.get(11)).toMatchObject({ isUnwagered: false, isToResolve: true, answerTotals: { yes: 6 } });
    expect(await db.memberships.get([3, me.id])).toMatchObject({ availablePoints: 94, totalPoints: 100 });
  });

  it('changing a wager updates it with PUT and moves the points by the difference only', async () => {
    await actions.placeWager(11, 'yes', 6);
    await actions.placeWager(11, 'no', 2);
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.path)).toEqual(['/api/bets/wagers/21']);
    expect(await db.wagers.count()).toBe(1);
    expect(await db.wagers.get(21)).toMatchObject({ prediction: 'no', points: 2 });
    expect((await db.memberships.get([3, me.id]))?.availablePoints).toBe(98);
    // Each user action has its own key.
    const keys = calls.filter((call) => call.method !== 'GET').map((call) => call.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('resolving leaves both queues, takes the payout from the server and replaces the stale statistics', async () => {
    await actions.placeWager(11, 'yes', 6);
    await actions.loadBetStatistics(11);
    expect((await db.betStatistics.get(11))?.statistics).toMatchObject({ isResolved: false });
    serverMembership = membership(106, 106);
    await actions.resolveBet(11, 'yes');
    expect(await db.bets.get(11)).toMatchObject({ state: 'resolved', correctAnswer: 'yes', isUnwagered: false, isToResolve: false });
    expect(await db.memberships.get([3, me.id])).toMatchObject({ availablePoints: 106, totalPoints: 106 });
    expect((await db.betStatistics.get(11))?.statistics).toMatchObject({ isResolved: true, correctAnswer: 'yes' });
    expect(leaderboardRefreshes).toContain(3);
  });

  it('cancelling refunds the player at once and reports the pool refunded', async () => {
    await actions.placeWager(11, 'yes', 6);
    const { refundedPoints } = await actions.cancelBet(11);
    expect(refundedPoints).toBe(6);
    expect(await db.bets.get(11)).toMatchObject({ state: 'cancelled', isUnwagered: false, isToResolve: false });
    expect((await db.memberships.get([3, me.id]))?.availablePoints).toBe(100);
  });

  it('creating a bet offline shows it at once under a temporary id, pending; the network back, the server id replaces it', async () => {
    await db.bets.clear();
    offline = true;
    const pending = await actions.createBet({ title: 'New one', expiresAt: at, baseWagerAmount: 2, betType: 'yes_no', groupId: 3 });
    expect(pending.id).toBeLessThan(0);
    expect(pending.pendingWriteId).toBeDefined();
    expect(await db.bets.get(pending.id)).toMatchObject({ title: 'New one', state: 'active', isUnwagered: true, isToResolve: true, pendingWriteId: pending.pendingWriteId });
    offline = false;
    await outbox.flush();
    expect(await db.bets.get(pending.id)).toBeUndefined();
    const created = await db.bets.get(11);
    expect(created).toMatchObject({ title: 'New one', isUnwagered: true, isToResolve: true });
    expect(created?.pendingWriteId).toBeUndefined();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.key)).toEqual([pending.pendingWriteId]);
  });

  it('a refused bet is rolled back with the server message', async () => {
    await db.bets.clear();
    refusal = { status: 403, message: 'You are not a member of this group', code: 'forbidden' };
    await expect(actions.createBet({ title: 'New one', expiresAt: at, baseWagerAmount: 2, betType: 'yes_no', groupId: 3 })).rejects.toMatchObject({ status: 403, message: 'You are not a member of this group' });
    expect(await db.bets.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('resolving offline shows the bet resolved and out of both queues, pending; a replay refused puts it back', async () => {
    offline = true;
    const pending = await actions.resolveBet(11, 'yes');
    expect(pending.pendingWriteId).toBeDefined();
    expect(await db.bets.get(11)).toMatchObject({ state: 'resolved', correctAnswer: 'yes', isUnwagered: false, isToResolve: false, pendingWriteId: pending.pendingWriteId });
    offline = false;
    refusal = { status: 400, message: 'This bet has already been resolved', code: 'bet_resolved' };
    await outbox.flush();
    expect(notified).toEqual(['This bet has already been resolved']);
    const restored = await db.bets.get(11);
    expect(restored).toMatchObject({ state: 'active', correctAnswer: null, isUnwagered: true, isToResolve: true });
    expect(restored?.pendingWriteId).toBeUndefined();
  });

  it('resolving offline is delivered once when the network returns', async () => {
    offline = true;
    await actions.resolveBet(11, 'no');
    offline = false;
    await outbox.flush();
    expect(calls.filter((call) => call.path === '/api/bets/11/resolve')).toHaveLength(1);
    const resolved = await db.bets.get(11);
    expect(resolved).toMatchObject({ state: 'resolved', correctAnswer: 'no', isToResolve: false });
    expect(resolved?.pendingWriteId).toBeUndefined();
  });

  it('cancelling offline refunds the player at once, pending; a refusal takes the refund back', async () => {
    await actions.placeWager(11, 'yes', 6);
    offline = true;
    const result = await actions.cancelBet(11);
    expect(result).toMatchObject({ isQueued: true, refundedPoints: 6 });
    expect(await db.bets.get(11)).toMatchObject({ state: 'cancelled', isUnwagered: false, isToResolve: false });
    expect(await db.memberships.get([3, me.id])).toMatchObject({ availablePoints: 100, pendingWriteId: result.bet.pendingWriteId });
    offline = false;
    refusal = { status: 403, message: 'Only the creator or a group admin can cancel this bet', code: 'forbidden' };
    await outbox.flush();
    expect(notified).toEqual(['Only the creator or a group admin can cancel this bet']);
    expect(await db.bets.get(11)).toMatchObject({ state: 'active', isToResolve: true });
    expect((await db.memberships.get([3, me.id]))?.availablePoints).toBe(94);
  });

  it('a refused wager leaves Dexie and the points untouched', async () => {
    await expect(actions.placeWager(99, 'yes', 2)).rejects.toMatchObject({ status: 422, message: 'This bet is closed' });
    expect(await db.wagers.count()).toBe(0);
    expect((await db.memberships.get([3, me.id]))?.availablePoints).toBe(100);
  });
});
