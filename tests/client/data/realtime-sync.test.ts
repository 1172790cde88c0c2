import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Membership } from '../../../src/domain/groups';
import type { RealtimeEventName, RealtimeEventPayload } from '../../../src/domain/realtime-events';
import { createActiveGroupStore, type ActiveGroupStore } from '../../../src/client/data/active-group-store';
import type { ApiClient } from '../../../src/client/data/api-client';
import { openHunchDb, type BetRow, type HunchDb } from '../../../src/client/data/db';
import { createEventEmitter } from '../../../src/client/data/event-emitter';
import { createRealtimeSync, type RealtimeSync } from '../../../src/client/data/realtime-sync';
import type { SocketConnectedInfo } from '../../../src/client/data/socket-service';
import { createToastStore, type ToastStore } from '../../../src/client/shell/toast-store';

// Each realtime event's effect on the Dexie mirror (spec 02 §4), on a real (fake-indexeddb)
// database. The API answers from a small in-memory stand-in; the socket is an emitter.

const ME = 7;
const THEM = 8;
const OTHER = 9;
const GROUP = 1;

const membership = (points: Partial<Membership> = {}): Membership => ({ groupId: GROUP, userId: ME, userName: 'Me Myself', totalPoints: 100, availablePoints: 100, ...points });

const bet = (id: number, fields: Partial<BetRow> = {}): BetRow => ({
  id,
  title: `Bet ${id}`,
  description: null,
  betType: 'yes_no',
  state: 'active',
  betTypeConfig: { yesLabel: 'Yes', noLabel: 'No' },
  baseWagerAmount: 2,
  groupId: GROUP,
  createdBy: THEM,
  expiresAt: '2030-01-01T00:00:00.000Z',
  correctAnswer: null,
  resolvedAt: null,
  resolvedBy: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  answerTotals: {},
  wagerCount: 0,
  isUnwagered: true,
  isToResolve: false,
  ...fields,
});

let db: HunchDb;
let activeGroup: ActiveGroupStore;
let toasts: ToastStore;
let sync: RealtimeSync;
let serverMembership: Membership;
let serverBets: Record<number, Partial<BetRow>>;
let requests: string[];
type AsyncMock<A extends unknown[] = []> = ReturnType<typeof vi.fn<(...args: A) => Promise<void>>>;
let engine: { applyLocal: <T>(write: () => Promise<T>) => Promise<T>; syncAll: AsyncMock; syncMemberState: AsyncMock; loadUserBubbles: AsyncMock<[readonly number[]]> };
let socket: ReturnType<typeof fakeSocket>;
let dbCount = 0;

function fakeSocket() {
  const events = createEventEmitter<{ [E in RealtimeEventName]: RealtimeEventPayload<E> }>();
  const connected = createEventEmitter<{ connected: SocketConnectedInfo }>();
  return {
    on: events.on,
    onConnected: (listener: (info: SocketConnectedInfo) => void) => connected.on('connected', listener),
    deliver: events.emit,
    connect: (isReconnect: boolean) => connected.emit('connected', { isReconnect }),
  };
}

const api = {
  async get<T>(path: string): Promise<T> {
    requests.push(path);
    if (path === `/api/groups/${GROUP}/membership`) return serverMembership as T;
    const betMatch = path.match(/^\/api\/bets\/(\d+)$/);
    if (betMatch) {
      const { isUnwagered: _u, isToResolve: _r, isListed: _l, ...server } = { ...bet(Number(betMatch[1])), ...serverBets[Number(betMatch[1])] };
      return server as T;
    }
    throw new Error(`unexpected GET ${path}`);
  },
} as unknown as ApiClient;

async function deliver<E extends RealtimeEventName>(event: E, payload: RealtimeEventPayload<E>) {
  await sync.apply(event, payload);
  await sync.whenIdle();
}

beforeEach(async () => {
  dbCount += 1;
  db = openHunchDb(`realtime-sync-${dbCount}`);
  localStorage.clear();
  activeGroup = createActiveGroupStore(localStorage);
  activeGroup.set({ id: GROUP, name: 'Friends', availablePoints: 100 });
  toasts = createToastStore();
  serverMembership = membership();
  serverBets = {};
  requests = [];
  engine = {
    applyLocal: (write) => write(),
    syncAll: vi.fn(async () => undefined),
    syncMemberState: vi.fn(async () => undefined),
    loadUserBubbles: vi.fn(async (_ids: readonly number[]) => undefined),
  };
  socket = fakeSocket();
  sync = createRealtimeSync({ db, api, session: { user: { id: ME } as never }, activeGroup, syncEngine: engine, socket, toasts, ownWagerGraceMs: 0 });
  await db.groups.put({ id: GROUP, name: 'Friends', memberUserIds: [ME, THEM], admins: [THEM] });
  await db.memberships.put(membership());
  await db.leaderboard.bulkPut([
    { groupId: GROUP, userId: ME, name: 'Me Myself', points: 100 },
    { groupId: GROUP, userId: THEM, name: 'Them Other', points: 3 },
  ]);
});

afterEach(async () => {
  sync.stop();
  db.close();
  await db.delete();
});

describe('betCreated', () => {
  it('adds the bet to the unwagered queue of everyone, as an active bet with no wagers', async () => {
    await deliver('betCreated', { betId: 5, title: 'Rain tomorrow?', betType: 'yes_no', betTypeConfig: { yesLabel: 'Yes', noLabel: 'No' }, baseWagerAmount: 2, createdBy: THEM, expiresAt: '2030-01-01T00:00:00.000Z', groupId: GROUP });
    expect(await db.bets.get(5)).toMatchObject({ id: 5, title: 'Rain tomorrow?', state: 'active', groupId: GROUP, createdBy: THEM, isUnwagered: true, isToResolve: false, answerTotals: {}, correctAnswer: null });
  });

  it('puts the creator’s own bet in their resolve queue too', async () => {
    await deliver('betCreated', { betId: 6, title: 'Mine', betType: 'numeric', betTypeConfig: {}, baseWagerAmount: 1, createdBy: ME, expiresAt: '2030-01-01T00:00:00.000Z', groupId: GROUP });
    expect(await db.bets.get(6)).toMatchObject({ isUnwagered: true, isToResolve: true });
  });

  it('keeps a bet the creator’s action already recorded', async () => {
    await db.bets.put(bet(7, { createdBy: ME, description: 'From the form', isUnwagered: false, isToResolve: true }));
    await deliver('betCreated', { betId: 7, title: 'Bet 7', betType: 'yes_no', betTypeConfig: {}, baseWagerAmount: 2, createdBy: ME, expiresAt: '2030-01-01T00:00:00.000Z', groupId: GROUP });
    expect(await db.bets.get(7)).toMatchObject({ description: 'From the form', isUnwagered: false });
  });
});

describe('wagerPlaced', () => {
  it('moves only the odds when another player wagers: the viewer’s points stay (the reference app’s bug is not copied)', async () => {
    await db.bets.put(bet(5));
    await deliver('wagerPlaced', { groupId: GROUP, userId: THEM, betId: 5, points: 4, previousPoints: 0, answerTotals: { yes: 4 }, pool: 4 });
    expect(await db.bets.get(5)).toMatchObject({ answerTotals: { yes: 4 }, wagerCount: 1, isUnwagered: true });
    expect(await db.memberships.get([GROUP, ME])).toMatchObject({ availablePoints: 100 });
    expect(requests).toEqual([]);
  });

  it('takes the player’s own bet out of the unwagered queue and reloads their points when no local write recorded it', async () => {
    await db.bets.put(bet(5));
    serverMembership = membership({ availablePoints: 94 });
    await deliver('wagerPlaced', { groupId: GROUP, userId: ME, betId: 5, points: 6, previousPoints: 0, answerTotals: { yes: 6 }, pool: 6 });
    expect(await db.bets.get(5)).toMatchObject({ isUnwagered: false, answerTotals: { yes: 6 } });
    expect(await db.memberships.get([GROUP, ME])).toMatchObject({ availablePoints: 94, totalPoints: 100 });
    expect(activeGroup.getSnapshot()).toMatchObject({ availablePoints: 94 });
  });

  it('does not apply the player’s wager twice when the local write already shows it', async () => {
    await db.bets.put(bet(5, { isUnwagered: false }));
    await db.wagers.put({ id: 11, betId: 5, userId: ME, prediction: 'yes', points: 6, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' });
    await db.memberships.put(membership({ availablePoints: 94 }));
    await deliver('wagerPlaced', { groupId: GROUP, userId: ME, betId: 5, points: 6, previousPoints: 0, answerTotals: { yes: 6 }, pool: 6 });
    expect(await db.memberships.get([GROUP, ME])).toMatchObject({ availablePoints: 94 });
    expect(requests).toEqual([]);
  });

  it('waits for this tab’s wager action when it lands during the grace period', async () => {
    sync = createRealtimeSync({ db, api, session: { user: { id: ME } as never }, activeGroup, syncEngine: engine, socket, toasts, ownWagerGraceMs: 50 });
    await db.bets.put(bet(5));
    await sync.apply('wagerPlaced', { groupId: GROUP, userId: ME, betId: 5, points: 6, previousPoints: 0, answerTotals: { yes: 6 }, pool: 6 });
    // The action answers: it records the wager and moves the points itself.
    await db.wagers.put({ id: 11, betId: 5, userId: ME, prediction: 'yes', points: 6, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' });
    await db.memberships.put(membership({ availablePoints: 94 }));
    await sync.whenIdle();
    expect(await db.memberships.get([GROUP, ME])).toMatchObject({ availablePoints: 94 });
    expect(requests).toEqual([]);
  });
});

describe('betResolved', () => {
  beforeEach(async () => {
    await db.bets.put(bet(5, { isUnwagered: false, isToResolve: true, createdBy: ME }));
    await db.memberships.put(membership({ totalPoints: 100, availablePoints: 90 }));
    serverBets[5] = { state: 'resolved', correctAnswer: 'yes', resolvedAt: '2026-01-02T00:00:00.000Z', resolvedBy: ME };
  });

  it('takes the bet out of both queues and fills in the correct answer', async () => {
    await deliver('betResolved', { betId: 5, groupId: GROUP, distributions: [] });
    expect(await db.bets.get(5)).toMatchObject({ state: 'resolved', correctAnswer: 'yes', resolvedAt: '2026-01-02T00:00:00.000Z', isUnwagered: false, isToResolve: false });
  });

  it('pays the winner: total by winnings − wager, available by winnings', async () => {
    await deliver('betResolved', { betId: 5, groupId: GROUP, distributions: [{ userId: ME, winnings: 25, wagerAmount: 10 }, { userId: THEM, winnings: 0, wagerAmount: 2 }] });
    expect(await db.memberships.get([GROUP, ME])).toMatchObject({ totalPoints: 115, availablePoints: 115 });
    expect(activeGroup.getSnapshot()).toMatchObject({ availablePoints: 115 });
  });

  it('charges the loser: total down by the wager, available unchanged', async () => {
    await deliver('betResolved', { betId: 5, groupId: GROUP, distributions: [{ userId: ME, winnings: 0, wagerAmount: 10 }] });
    expect(await db.memberships.get([GROUP, ME])).toMatchObject({ totalPoints: 90, availablePoints: 90 });
  });

  it('moves the active group’s leaderboard the same way, never below 0', async () => {
    await deliver('betResolved', { betId: 5, groupId: GROUP, distributions: [{ userId: ME, winnings: 12, wagerAmount: 10 }, { userId: THEM, winnings: 0, wagerAmount: 5 }] });
    expect(await db.leaderboard.get([GROUP, ME])).toMatchObject({ points: 102 });
    // 3 − 5 would be −2: the client only knows the leaderboard's number, so it stops at 0.
    expect(await db.leaderboard.get([GROUP, THEM])).toMatchObject({ points: 0 });
  });

  it('leaves another group’s leaderboard to its next load', async () => {
    activeGroup.set({ id: 2, name: 'Work', availablePoints: 50 });
    await deliver('betResolved', { betId: 5, groupId: GROUP, distributions: [{ userId: THEM, winnings: 9, wagerAmount: 3 }] });
    expect(await db.leaderboard.get([GROUP, THEM])).toMatchObject({ points: 3 });
  });

  it('does not pay twice for a bet already known as resolved', async () => {
    await db.bets.update(5, { state: 'resolved' });
    await deliver('betResolved', { betId: 5, groupId: GROUP, distributions: [{ userId: ME, winnings: 25, wagerAmount: 10 }] });
    expect(await db.memberships.get([GROUP, ME])).toMatchObject({ totalPoints: 100, availablePoints: 90 });
  });
});

describe('betCancelled, betExpired and pointsRefunded', () => {
  it('takes a cancelled bet out of both queues', async () => {
    await db.bets.put(bet(5, { isToResolve: true }));
    await deliver('betCancelled', { betId: 5, groupId: GROUP, totalPointsRefunded: 0 });
    expect(await db.bets.get(5)).toMatchObject({ state: 'cancelled', isUnwagered: false, isToResolve: false });
  });

  it('takes an expired bet out of both queues', async () => {
    await db.bets.put(bet(5, { isToResolve: true }));
    await deliver('betExpired', { betId: 5, groupId: GROUP });
    expect(await db.bets.get(5)).toMatchObject({ state: 'expired', isUnwagered: false, isToResolve: false });
  });

  it('reloads the refunded points and tells a player who had a wager', async () => {
    await db.bets.put(bet(5, { state: 'expired', isUnwagered: false }));
    await db.wagers.put({ id: 11, betId: 5, userId: ME, prediction: 'yes', points: 6, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' });
    await db.memberships.put(membership({ availablePoints: 94 }));
    serverMembership = membership({ availablePoints: 100 });
    await deliver('pointsRefunded', { betId: 5, groupId: GROUP, totalRefunded: 10, refundedParticipants: 2 });
    expect(await db.memberships.get([GROUP, ME])).toMatchObject({ availablePoints: 100 });
    expect(toasts.getSnapshot()).toEqual([expect.objectContaining({ message: '10 points refunded to 2 participant(s)', type: 'info' })]);
  });

  it('shows no refund toast to a player without a wager on the bet', async () => {
    await db.bets.put(bet(5, { state: 'cancelled' }));
    await deliver('pointsRefunded', { betId: 5, groupId: GROUP, totalRefunded: 10, refundedParticipants: 2 });
    expect(toasts.getSnapshot()).toEqual([]);
  });

  it('shows no refund toast to the creator who cancelled (their cancel says it)', async () => {
    await db.bets.put(bet(5, { state: 'cancelled', createdBy: ME }));
    await db.wagers.put({ id: 11, betId: 5, userId: ME, prediction: 'yes', points: 6, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' });
    await deliver('pointsRefunded', { betId: 5, groupId: GROUP, totalRefunded: 10, refundedParticipants: 2 });
    expect(toasts.getSnapshot()).toEqual([]);
  });
});

describe('userJoinedGroup and groupCreated', () => {
  it('adds a new member to the group, its leaderboard and the bubbles', async () => {
    await deliver('userJoinedGroup', { groupId: GROUP, userId: OTHER, userName: 'New Person', totalPoints: 100, availablePoints: 100 });
    expect((await db.groups.get(GROUP))?.memberUserIds).toEqual([ME, THEM, OTHER]);
    expect(await db.leaderboard.get([GROUP, OTHER])).toEqual({ groupId: GROUP, userId: OTHER, name: 'New Person', points: 100 });
    expect(engine.loadUserBubbles).toHaveBeenCalledWith([OTHER]);
  });

  it('reloads the member state when the player joined (on another device)', async () => {
    await deliver('userJoinedGroup', { groupId: 3, userId: ME, userName: 'Me Myself', totalPoints: 100, availablePoints: 100 });
    expect(engine.syncMemberState).toHaveBeenCalledTimes(1);
  });

  it('reloads the member state for a group the player created', async () => {
    await deliver('groupCreated', { groupId: 3, name: 'New group' });
    expect(engine.syncMemberState).toHaveBeenCalledTimes(1);
  });
});

describe('the socket', () => {
  it('applies events the socket delivers, in order', async () => {
    sync.start();
    socket.deliver('betCreated', { betId: 5, title: 'Rain?', betType: 'yes_no', betTypeConfig: {}, baseWagerAmount: 2, createdBy: THEM, expiresAt: '2030-01-01T00:00:00.000Z', groupId: GROUP });
    socket.deliver('wagerPlaced', { groupId: GROUP, userId: THEM, betId: 5, points: 2, previousPoints: 0, answerTotals: { no: 2 }, pool: 2 });
    await sync.whenIdle();
    expect(await db.bets.get(5)).toMatchObject({ answerTotals: { no: 2 }, wagerCount: 1 });
  });

  it('reloads the member state and leaderboard after a reconnection, not after the first connection', async () => {
    sync.start();
    socket.connect(false);
    expect(engine.syncAll).not.toHaveBeenCalled();
    socket.connect(true);
    expect(engine.syncAll).toHaveBeenCalledTimes(1);
  });
});
