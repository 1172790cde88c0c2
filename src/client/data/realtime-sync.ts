import type { Notification } from '../../domain/notifications';
import type {
  CommentEventPayload,
  CommentPostedPayload,
  PointsRefundedPayload,
  RealtimeEventName,
  RealtimeEventPayload,
  ResolutionDisputedPayload,
  UserLeftGroupPayload,
  WagerPlacedPayload,
} from '../../domain/realtime-events';
import { disputeNoticeRecipients } from '../../domain/fair-resolution';
import { isBetCreator } from '../../domain/policies/bet-policy';
import type { HunchDb } from './db';
import { mirrorDisputeFacts } from './dispute-facts';
import type { Rebaser } from './mutators';
import type { SessionStore } from './session-store';
import type { SocketService } from './socket-service';

// Realtime events and the mirror (docs/architecture.md §8, docs/groups-and-bets.md §4). An event is a hint, the pull
// is the truth: wagerPlaced carries the bet's new totals and version, so the odds move at once
// (only if the event is newer than the stored bet); commentPosted and commentDeleted carry the
// whole comment, stored if newer (a tombstone too); every other event schedules ONE debounced
// pull, which brings the rows with their versions (and whatever the socket missed). A
// (re)connection pulls too: events sent while the socket was down are lost.
//
// Each event has its handler in one table typed by the domain's map of events: an event added
// there without a handler here does not compile. Who is told of a change (a refund, a result
// undone) is decided here, where the mirror is; what they are told is the UI's
// (shell/realtime-announcements.ts), a subscriber of `onAnnouncement`.

export interface RealtimeSyncOptions {
  db: HunchDb;
  session: Pick<SessionStore, 'user'>;
  rebaser: Rebaser;
  socket: Pick<SocketService, 'on' | 'onConnected'>;
  /** Send pending writes, then pull (local-data.ts). */
  sync: () => Promise<void>;
  debounceMs?: number;
}

/** Something someone else did that concerns the player, for the UI to tell them. */
export type RealtimeAnnouncement =
  /** Their stake on a bet came back (a cancel, an expiry, a resolution nobody won). */
  | { kind: 'refund'; totalRefunded: number; participants: number }
  /** A result they had a stake in was undone. */
  | { kind: 'resultUndone'; title: string }
  /** A result they had a stake in was corrected by an admin. */
  | { kind: 'resultCorrected'; title: string }
  /** A result they review (as the bet's creator or a group admin) was disputed. */
  | { kind: 'resultDisputed'; title: string }
  /** An admin removed them from a group. */
  | { kind: 'removedFromGroup'; groupName: string; removedBy: string };

type EventHandlers = {
  [E in RealtimeEventName]: (payload: RealtimeEventPayload<E>) => Promise<void>;
};

export type RealtimeSync = ReturnType<typeof createRealtimeSync>;

export function createRealtimeSync({
  db,
  session,
  rebaser,
  socket,
  sync,
  debounceMs = 150,
}: RealtimeSyncOptions) {
  let unsubscribers: Array<() => void> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    void work.finally(() => pending.delete(work)).catch(() => undefined);
    return work;
  };
  let scheduled: { promise: Promise<void>; resolve: () => void } | null = null;
  const listeners = new Set<(announcement: RealtimeAnnouncement) => void>();
  const announce = (announcement: RealtimeAnnouncement) => {
    for (const listener of [...listeners]) listener(announcement);
  };

  const me = () => session.user?.id ?? null;

  /** One pull for a burst of events. */
  const schedulePull = (): Promise<void> => {
    if (!scheduled) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      scheduled = { promise, resolve };
      // Waited for through `pending`; it only ever resolves (below, once the pull settles).
      void track(promise);
    }
    clearTimeout(timer);
    timer = setTimeout(() => {
      const current = scheduled!;
      scheduled = null;
      void sync()
        .catch((error: unknown) => console.warn('Pulling after an event failed', error))
        .finally(current.resolve);
    }, debounceMs);
    return scheduled.promise;
  };

  /** Pulls unless the stored row already holds the event's change (`held`); nothing while signed out. */
  const pullUnless = async (held: () => Promise<boolean>) => {
    if (me() === null || (await held())) return;
    await schedulePull();
  };
  const pull = () => pullUnless(() => Promise.resolve(false));
  const betHolds = async ({ betId, version }: { betId: number; version: number }) =>
    ((await db.bets.get(betId))?.version ?? -1) >= version;
  const groupHolds = async ({ groupId, version }: { groupId: number; version: number }) =>
    ((await db.groups.get(groupId))?.version ?? -1) >= version;
  /** A bet event: pulled unless the stored bet is as new. */
  const pullBet = (payload: { betId: number; version: number }) =>
    pullUnless(() => betHolds(payload));

  /** The bet's totals, if newer than the stored bet; an unknown bet, or the player's own wager (points, wager row), is pulled. */
  const applyWagerPlaced = async (payload: WagerPlacedPayload) => {
    const userId = me();
    if (userId === null) return;
    const isKnown = await rebaser.serverWrite(userId, async () => {
      const bet = await db.bets.get(payload.betId);
      if (!bet) return false;
      if ((bet.version ?? -1) < payload.version) {
        await db.bets.put({
          ...bet,
          answerTotals: payload.answerTotals,
          wagerCount: payload.wagerCount,
          version: payload.version,
        });
      }
      return true;
    });
    if (!isKnown || payload.userId === userId) void schedulePull();
  };

  /** A comment posted or deleted: the comment itself, if newer than the stored copy. */
  const applyComment = async (comment: CommentEventPayload) => {
    const userId = me();
    if (userId === null) return;
    await rebaser.serverWrite(userId, async () => {
      const stored = await db.comments.get(comment.id);
      if ((stored?.version ?? -1) < comment.version) await db.comments.put(comment);
    });
  };

  /**
   * A comment posted. This device's own one, still waiting for its answer, is left to that
   * answer's pull, so the thread never shows it twice (once under its temporary id, once under
   * the server's): the author's copy names the mutation it came from, which is this client's
   * outbox entry.
   */
  const applyCommentPosted = async ({ clientID, mutationID, ...comment }: CommentPostedPayload) => {
    const userId = me();
    if (userId === null) return;
    if (clientID !== undefined && mutationID !== undefined) {
      const own = await db.outbox
        .where('userId')
        .equals(userId)
        .filter(
          (entry) =>
            entry.clientID === clientID &&
            entry.mutationID === mutationID &&
            (entry.status === 'pending' || entry.status === 'sending'),
        )
        .first();
      if (own) return;
    }
    await applyComment(comment);
  };

  /** A new or gathered inbox entry: stored if newer (a read still waiting is drawn again on top). */
  const applyNotification = async (payload: Notification) => {
    const userId = me();
    if (userId === null) return;
    await rebaser.serverWrite(userId, async () => {
      const stored = await db.notifications.get(payload.id);
      if ((stored?.version ?? -1) < payload.version) await db.notifications.put(payload);
    });
  };

  /**
   * Everyone's stake came back (a cancel, an expiry, or a resolution nobody won). It concerns
   * players with a wager on the bet this device knows of, except the creator who cancelled it
   * (their cancel already says "Bet cancelled. N points refunded.").
   */
  const announceRefund = async (payload: PointsRefundedPayload) => {
    const userId = me();
    if (userId === null) return;
    const [wager, bet] = await Promise.all([
      db.wagers.where('[betId+userId]').equals([payload.betId, userId]).first(),
      db.bets.get(payload.betId),
    ]);
    const isOwnCancel = bet !== undefined && isBetCreator(bet, userId) && bet.state === 'cancelled';
    if (wager && !isOwnCancel)
      announce({
        kind: 'refund',
        totalRefunded: payload.totalRefunded,
        participants: payload.refundedParticipants,
      });
  };

  /**
   * A result the player had a stake in was undone or corrected by someone else: it concerns
   * them (whoever did it already knows). The bet's title is read before the pull changes anything.
   */
  const announceResultChange = async (
    kind: 'resultUndone' | 'resultCorrected',
    payload: { betId: number; distributions: ReadonlyArray<{ userId: number }> },
    actorId: number,
  ) => {
    const userId = me();
    if (userId === null || actorId === userId) return;
    if (!payload.distributions.some((entry) => entry.userId === userId)) return;
    const bet = await db.bets.get(payload.betId);
    if (bet) announce({ kind, title: bet.title });
  };

  /** A dispute concerns whom the inbox tells too: the bet's creator and its judges (one rule). */
  const announceDispute = async (payload: ResolutionDisputedPayload) => {
    const userId = me();
    if (userId === null || payload.disputedBy === userId) return;
    const bet = await db.bets.get(payload.betId);
    if (!bet) return;
    const facts = await mirrorDisputeFacts(db, bet, payload.disputedBy);
    if (disputeNoticeRecipients({ ...facts, createdBy: bet.createdBy }).includes(userId))
      announce({ kind: 'resultDisputed', title: bet.title });
  };

  /** The player was removed (on another device, or while looking): told once, before the pull drops the group. */
  const announceRemoval = async (payload: UserLeftGroupPayload) => {
    if (!payload.removed || payload.userId !== me()) return;
    const group = await db.groups.get(payload.groupId);
    if (group)
      announce({
        kind: 'removedFromGroup',
        groupName: group.name,
        removedBy: payload.removedBy?.userName ?? 'An admin',
      });
  };

  const ignore = () => Promise.resolve();

  const handlers: EventHandlers = {
    betCreated: pullBet,
    wagerPlaced: applyWagerPlaced,
    betResolved: pullBet,
    betCancelled: pullBet,
    betExpired: pullBet,
    pointsRefunded: async (payload) => {
      await announceRefund(payload);
      await pull();
    },
    userJoinedGroup: (payload) =>
      pullUnless(
        async () =>
          ((await db.memberships.get([payload.groupId, payload.userId]))?.version ?? -1) >=
          payload.version,
      ),
    // A member left or was removed, the group was renamed: the group row and its members come
    // with the pull (a removed player's pull drops the group).
    userLeftGroup: async (payload) => {
      await announceRemoval(payload);
      await pullUnless(() => groupHolds(payload));
    },
    groupUpdated: (payload) => pullUnless(() => groupHolds(payload)),
    groupCreated: pull,
    commentPosted: applyCommentPosted,
    commentDeleted: applyComment,
    // Fair resolution: the picks, the undone or re-resolved payout and the history come with the pull.
    resolutionUndone: async (payload) => {
      await announceResultChange('resultUndone', payload, payload.undoneBy);
      await pullBet(payload);
    },
    resolutionDisputed: async (payload) => {
      await announceDispute(payload);
      await pullBet(payload);
    },
    disputeDismissed: pullBet,
    betReResolved: async (payload) => {
      await announceResultChange(
        'resultCorrected',
        { betId: payload.betId, distributions: [...payload.reversed, ...payload.distributions] },
        payload.reResolvedBy,
      );
      await pullBet(payload);
    },
    picksRevealed: pullBet,
    // A season's row, its standings and a reset's points come with the pull.
    seasonStarted: pull,
    seasonEnded: pull,
    notificationSaved: applyNotification,
    // The socket's own (socket-service.ts) and the open "Move to another device" sheet's.
    deviceTransferRedeemed: ignore,
    authError: ignore,
    connectionAuthenticated: ignore,
    // Live events between the server's instances may have been lost (a Redis restart).
    syncNeeded: pull,
  };

  /** Runs the event's handler, tracked for `whenIdle`. */
  const dispatch = <E extends RealtimeEventName>(
    event: E,
    payload: RealtimeEventPayload<E>,
  ): Promise<void> => {
    const handler: EventHandlers[E] = handlers[event];
    return track(handler(payload));
  };

  return {
    /** Listens to the socket's events and (re)connections. Idempotent. */
    start() {
      if (unsubscribers.length > 0) return;
      const listen = <E extends RealtimeEventName>(event: E) =>
        socket.on(
          event,
          (payload) =>
            void dispatch(event, payload).catch((error: unknown) =>
              console.warn(`Applying ${event} failed`, error),
            ),
        );
      unsubscribers = (Object.keys(handlers) as RealtimeEventName[]).map(listen);
      // Whatever happened while the socket was down was not heard: pull.
      unsubscribers.push(socket.onConnected(() => void schedulePull()));
    },
    stop() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers = [];
      clearTimeout(timer);
      scheduled?.resolve();
      scheduled = null;
    },
    /** Applies one event as if the socket had delivered it (the tests' entry point). */
    apply<E extends RealtimeEventName>(event: E, payload: RealtimeEventPayload<E>): Promise<void> {
      return dispatch(event, payload);
    },
    /** Tells `listener` of every announcement (the UI words them); returns the unsubscribe. */
    onAnnouncement(listener: (announcement: RealtimeAnnouncement) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Resolves once every event and the pull it scheduled have finished. */
    async whenIdle(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
