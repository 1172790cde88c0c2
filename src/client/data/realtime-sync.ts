import { openBet, type Bet, type BetState } from '../../domain/bets';
import { API_BASE } from '../../domain/constants';
import type { Membership } from '../../domain/groups';
import { applyPointsDelta, ledgerDelta } from '../../domain/ledger';
import type {
  BetCancelledPayload,
  BetCreatedPayload,
  BetExpiredPayload,
  BetResolvedPayload,
  GroupCreatedPayload,
  PointsRefundedPayload,
  RealtimeEventName,
  RealtimeEventPayload,
  UserJoinedGroupPayload,
  WagerPlacedPayload,
} from '../../domain/realtime-events';
import { toast as defaultToasts, type ToastStore } from '../shell/toast-store';
import { activeGroupStore, type ActiveGroupStore } from './active-group-store';
import type { ApiClient } from './api-client';
import { db as defaultDb, type BetRow, type HunchDb } from './db';
import { api as defaultApi, sessionStore } from './session';
import type { SessionStore } from './session-store';
import { socketService, type SocketService } from './socket-service';
import { syncEngine as defaultSyncEngine, type SyncEngine } from './sync-engine';

// Realtime events into the Dexie mirror (spec 02 §4 "Client bet lists", ARCHITECTURE.md §8):
// each event is one Dexie transaction inside syncEngine.applyLocal (so a member-state sync
// already in flight fetches again instead of undoing it), applied one after another in the
// order they arrived. The views see the change through their live queries. After every
// reconnection the member state and the active group's leaderboard are reloaded, since
// events sent while the socket was down are lost.

export interface RealtimeSyncOptions {
  db?: HunchDb;
  api?: ApiClient;
  session?: Pick<SessionStore, 'user'>;
  activeGroup?: ActiveGroupStore;
  syncEngine?: Pick<SyncEngine, 'applyLocal' | 'syncAll' | 'syncMemberState' | 'loadUserBubbles'>;
  socket?: Pick<SocketService, 'on' | 'onConnected'>;
  toasts?: Pick<ToastStore, 'info'>;
  /**
   * How long the player's own wagerPlaced waits for this tab's wager action to record the
   * same wager before the points are reloaded from the server (see applyWagerPlaced).
   */
  ownWagerGraceMs?: number;
}

/** Spec 02 §8's refund toast. */
export function refundMessage(totalRefunded: number, participants: number): string {
  return `${totalRefunded} points refunded to ${participants} participant(s)`;
}

/** The fields a betCreated payload lacks, as the data README asks: an active bet nobody has wagered on yet. */
function betFromCreated(payload: BetCreatedPayload, now: string): Bet {
  const { betId: id, title, betType, betTypeConfig, baseWagerAmount, groupId, createdBy, expiresAt } = payload;
  return openBet({ id, title, description: null, betType, betTypeConfig, baseWagerAmount, groupId, createdBy, expiresAt }, now);
}

export type RealtimeSync = ReturnType<typeof createRealtimeSync>;

export function createRealtimeSync({
  db = defaultDb,
  api = defaultApi,
  session = sessionStore,
  activeGroup = activeGroupStore,
  syncEngine = defaultSyncEngine,
  socket = socketService,
  toasts = defaultToasts,
  ownWagerGraceMs = 1500,
}: RealtimeSyncOptions = {}) {
  let unsubscribers: Array<() => void> = [];
  /** Events apply in arrival order: a wager never lands before the bet it belongs to. */
  let queue: Promise<void> = Promise.resolve();
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    void work.finally(() => pending.delete(work)).catch(() => undefined);
    return work;
  };

  const me = () => session.user?.id ?? null;

  /** The header keeps a copy of the active group's points for the moment before Dexie answers. */
  const mirrorActivePoints = (membership: Membership | undefined) => {
    const active = activeGroup.getSnapshot();
    if (membership && active && active.id === membership.groupId) activeGroup.set({ ...active, availablePoints: membership.availablePoints });
  };

  /** GET /groups/{id}/membership: the server's word on the player's points, where only it knows them. */
  const reloadMyMembership = async (groupId: number) => {
    const userId = me();
    try {
      const membership = await api.get<Membership>(`${API_BASE}/groups/${groupId}/membership`);
      if (me() !== userId || membership.userId !== userId) return;
      await syncEngine.applyLocal(() => db.memberships.put(membership));
      mirrorActivePoints(membership);
    } catch (error) {
      console.warn(`Reloading the points of group ${groupId} failed`, error);
    }
  };

  /** GET /bets/{id}: fills in what an event leaves out (the correct answer, resolvedAt) for a bet this device keeps. */
  const reloadBet = async (betId: number) => {
    try {
      const bet = await api.get<Bet>(`${API_BASE}/bets/${betId}`);
      await syncEngine.applyLocal(() =>
        db.transaction('rw', db.bets, async () => {
          const known = await db.bets.get(betId);
          // The queue flags are this device's, never the server's.
          if (known) await db.bets.put({ ...known, ...bet, answerTotals: bet.answerTotals ?? known.answerTotals, isUnwagered: known.isUnwagered, isToResolve: known.isToResolve, isListed: known.isListed });
        }),
      );
    } catch (error) {
      console.warn(`Reloading bet ${betId} failed`, error);
    }
  };

  const myWagerOn = (betId: number, userId: number) => db.wagers.where('[betId+userId]').equals([betId, userId]).first();

  // ---- the events (spec 02 §3 payloads, §4 rules) ----

  /** A new bet joins everyone's unwagered queue, and its creator's resolve queue. */
  const applyBetCreated = async (payload: BetCreatedPayload) => {
    const userId = me();
    await syncEngine.applyLocal(() =>
      db.transaction('rw', db.bets, async () => {
        // The creator's own action may have written it already, with fresher fields: keep those.
        if (await db.bets.get(payload.betId)) return;
        const row: BetRow = { ...betFromCreated(payload, new Date().toISOString()), isUnwagered: true, isToResolve: payload.createdBy === userId };
        await db.bets.put(row);
      }),
    );
  };

  /**
   * Any wager moves the bet's odds (its answer totals). The player's own wager also takes the
   * bet out of their unwagered queue and lowers that group's available points by
   * points − previousPoints. Other players' wagers change only the odds: the reference app
   * lowered the viewer's points for ANY wager event in their group (spec 02 §4, "the shown
   * behaviour applies it for any wager event"), a bug we do not copy.
   *
   * The player's own wager usually comes from this tab's wager action, which records the wager
   * and moves the points itself once its request answers — often just after this event. So
   * the points move here only when the stored wager does not already show `points`; and
   * rather than guess, after a short grace for that action to land, the server's membership
   * is reloaded (idempotent, and right for a wager placed on another device too).
   */
  const applyWagerPlaced = async (payload: WagerPlacedPayload) => {
    const userId = me();
    const isMine = payload.userId === userId;
    await syncEngine.applyLocal(() =>
      db.transaction('rw', db.bets, async () => {
        const bet = await db.bets.get(payload.betId);
        if (!bet) return;
        const isNewWager = payload.previousPoints === 0;
        await db.bets.put({
          ...bet,
          answerTotals: payload.answerTotals,
          wagerCount: isNewWager && bet.wagerCount !== undefined ? bet.wagerCount + 1 : bet.wagerCount,
          isUnwagered: isMine ? false : bet.isUnwagered,
        });
      }),
    );
    if (!isMine || userId === null) return;
    if ((await myWagerOn(payload.betId, userId))?.points === payload.points) return;
    void track(
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, ownWagerGraceMs));
        if (me() !== userId) return;
        if ((await myWagerOn(payload.betId, userId))?.points === payload.points) return;
        await reloadMyMembership(payload.groupId);
      })(),
    );
  };

  /**
   * The bet leaves both queues. Points (spec 02 §4): the player's total changes by winnings −
   * wagerAmount and available by winnings; the active group's leaderboard rows change the
   * same way with a floor of 0 (the client only knows other members' points from there).
   * A bet this device already knew as resolved (the creator's resolve action, a reload) has
   * had its points counted by the server's answer, so they are not moved twice.
   */
  const applyBetResolved = async (payload: BetResolvedPayload) => {
    const userId = me();
    const isActiveGroup = activeGroup.getSnapshot()?.id === payload.groupId;
    let myMembership: Membership | undefined;
    await syncEngine.applyLocal(() =>
      db.transaction('rw', [db.bets, db.memberships, db.leaderboard], async () => {
        const bet = await db.bets.get(payload.betId);
        const wasResolved = bet?.state === 'resolved';
        if (bet) {
          await db.bets.put({ ...bet, state: 'resolved', resolvedAt: bet.resolvedAt ?? new Date().toISOString(), isUnwagered: false, isToResolve: false });
        }
        if (wasResolved) return;
        for (const distribution of payload.distributions) {
          const delta = ledgerDelta({ kind: 'payout', winnings: distribution.winnings, wagerAmount: distribution.wagerAmount });
          if (distribution.userId === userId) {
            const membership = await db.memberships.get([payload.groupId, userId]);
            if (membership) {
              myMembership = applyPointsDelta(membership, delta);
              await db.memberships.put(myMembership);
            }
          }
          if (isActiveGroup) {
            const row = await db.leaderboard.get([payload.groupId, distribution.userId]);
            if (row) {
              // The leaderboard shows total points; available is not known for others.
              const moved = applyPointsDelta({ totalPoints: row.points, availablePoints: 0 }, delta, { floorAtZero: true });
              await db.leaderboard.put({ ...row, points: moved.totalPoints });
            }
          }
        }
      }),
    );
    mirrorActivePoints(myMembership);
    // The payload names no correct answer: the bet itself does.
    void track(reloadBet(payload.betId));
  };

  /** Cancelled or expired: the bet leaves both queues (its refunds come as pointsRefunded). */
  const applyBetClosed = async (payload: BetCancelledPayload | BetExpiredPayload, state: Extract<BetState, 'cancelled' | 'expired'>) => {
    await syncEngine.applyLocal(() =>
      db.transaction('rw', db.bets, async () => {
        const bet = await db.bets.get(payload.betId);
        if (bet) await db.bets.put({ ...bet, state, isUnwagered: false, isToResolve: false });
      }),
    );
  };

  /**
   * Everyone's stake came back (a cancel, an expiry, or a resolution nobody won). The event
   * carries totals only, so the player's own points are reloaded from the server — one GET,
   * and a reload cannot count twice where the creator's cancel action moves them at the same
   * moment. The toast goes to players it concerns: those with a wager on the bet that this
   * device knows of, except the creator who cancelled it (their cancel already says "Bet
   * cancelled. N points refunded.").
   */
  const applyPointsRefunded = async (payload: PointsRefundedPayload) => {
    const userId = me();
    if (userId === null) return;
    const [wager, bet] = await Promise.all([myWagerOn(payload.betId, userId), db.bets.get(payload.betId)]);
    void track(reloadMyMembership(payload.groupId));
    const isOwnCancel = bet?.createdBy === userId && bet.state === 'cancelled';
    if (wager && !isOwnCancel) toasts.info(refundMessage(payload.totalRefunded, payload.refundedParticipants));
  };

  /**
   * A new member: added to the group's member list, its leaderboard (as the server counts
   * them, with their starting points) and the bubbles. The player joining on another device
   * reloads the member state instead, which brings the whole group.
   */
  const applyUserJoinedGroup = async (payload: UserJoinedGroupPayload) => {
    if (payload.userId === me()) {
      await syncEngine.syncMemberState();
      return;
    }
    const hasBubble = await syncEngine.applyLocal(() =>
      db.transaction('rw', [db.groups, db.leaderboard, db.userBubbles], async () => {
        const group = await db.groups.get(payload.groupId);
        if (group?.memberUserIds && !group.memberUserIds.includes(payload.userId)) {
          await db.groups.put({ ...group, memberUserIds: [...group.memberUserIds, payload.userId] });
        }
        const isKnownBoard = (await db.leaderboard.where('groupId').equals(payload.groupId).count()) > 0;
        if (isKnownBoard || activeGroup.getSnapshot()?.id === payload.groupId) {
          const row = await db.leaderboard.get([payload.groupId, payload.userId]);
          await db.leaderboard.put({ groupId: payload.groupId, userId: payload.userId, name: payload.userName, points: row?.points ?? payload.totalPoints });
        }
        return (await db.userBubbles.get(payload.userId)) !== undefined;
      }),
    );
    // The bubble's other fields (username, email for the avatar) come from the users lookup.
    if (!hasBubble) void track(syncEngine.loadUserBubbles([payload.userId]).catch((error: unknown) => console.warn('Loading a new member failed', error)));
  };

  /** A group the player created (perhaps on another device): the member state brings it. */
  const applyGroupCreated = async (_payload: GroupCreatedPayload) => {
    await syncEngine.syncMemberState();
  };

  const handlers: { [E in RealtimeEventName]?: (payload: RealtimeEventPayload<E>) => Promise<void> } = {
    betCreated: applyBetCreated,
    wagerPlaced: applyWagerPlaced,
    betResolved: applyBetResolved,
    betCancelled: (payload) => applyBetClosed(payload, 'cancelled'),
    betExpired: (payload) => applyBetClosed(payload, 'expired'),
    pointsRefunded: applyPointsRefunded,
    userJoinedGroup: applyUserJoinedGroup,
    groupCreated: applyGroupCreated,
  };

  /** Queues one event behind the others; a failure is logged and does not stop the ones after it. */
  const enqueue = <E extends RealtimeEventName>(event: E, payload: RealtimeEventPayload<E>) => {
    const handler = handlers[event] as ((payload: RealtimeEventPayload<E>) => Promise<void>) | undefined;
    if (!handler) return Promise.resolve();
    queue = queue.then(() => (me() === null ? undefined : handler(payload))).catch((error: unknown) => console.warn(`Applying ${event} failed`, error));
    return track(queue);
  };

  return {
    /** Listens to the socket's events and reconnections. Idempotent. */
    start() {
      if (unsubscribers.length > 0) return;
      unsubscribers = (Object.keys(handlers) as RealtimeEventName[]).map((event) => socket.on(event, (payload) => void enqueue(event, payload)));
      unsubscribers.push(
        socket.onConnected(({ isReconnect }) => {
          // Whatever happened while the socket was down was not heard: ask for the state.
          if (isReconnect) void track(syncEngine.syncAll());
        }),
      );
    },
    stop() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers = [];
    },
    /** Applies one event as if the socket had delivered it (the tests' entry point). */
    apply: enqueue,
    /** Resolves once every queued event and follow-up load has finished. */
    async whenIdle(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

export const realtimeSync = createRealtimeSync();

/** What the shell calls once someone is signed in: the events are listened to before the socket opens, so none is missed. */
export function startRealtime(): void {
  realtimeSync.start();
  socketService.start();
}
