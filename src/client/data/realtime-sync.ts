import type { Notification } from '../../domain/notifications';
import type {
  BetReResolvedPayload,
  CommentEventPayload,
  ResolutionDisputedPayload,
  ResolutionUndonePayload,
  PointsRefundedPayload,
  RealtimeEventName,
  RealtimeEventPayload,
  UserLeftGroupPayload,
  WagerPlacedPayload,
} from '../../domain/realtime-events';
import type { HunchDb } from './db';
import type { Rebaser } from './mutators';
import type { Notices } from './notices';
import type { SessionStore } from './session-store';
import type { SocketService } from './socket-service';

// Realtime events and the mirror (docs/architecture.md §8, docs/groups-and-bets.md §4). An event is a hint, the pull
// is the truth: wagerPlaced carries the bet's new totals and version, so the odds move at once
// (only if the event is newer than the stored bet); commentPosted and commentDeleted carry the
// whole comment, stored if newer (a tombstone too); every other event schedules ONE debounced
// pull, which brings the rows with their versions (and whatever the socket missed). A
// (re)connection pulls too: events sent while the socket was down are lost.

export interface RealtimeSyncOptions {
  db: HunchDb;
  session: Pick<SessionStore, 'user'>;
  rebaser: Rebaser;
  socket: Pick<SocketService, 'on' | 'onConnected'>;
  toasts: Pick<Notices, 'info'>;
  /** Send pending writes, then pull (local-data.ts). */
  sync: () => Promise<void>;
  debounceMs?: number;
}

/** docs/groups-and-bets.md §8's refund toast. */
export function refundMessage(totalRefunded: number, participants: number): string {
  return `${totalRefunded} points refunded to ${participants} participant(s)`;
}

/** What a participant hears when a result they had a stake in changed. */
export const RESULT_CHANGED_TEXT = {
  undone: (title: string) =>
    `The result of “${title}” was undone. Your points are back as they were.`,
  reResolved: (title: string) => `The result of “${title}” was corrected by an admin.`,
  disputed: (title: string) => `Someone thinks the result of “${title}” is wrong. Take a look.`,
};

/** What a player hears when an admin removed them from a group. */
export const REMOVED_FROM_GROUP_TEXT = (groupName: string) =>
  `An admin removed you from ${groupName}.`;

/** The events that only tell the client to pull (all but wagerPlaced, which carries its totals). */
const PULL_EVENTS = [
  'betCreated',
  'betResolved',
  'betCancelled',
  'betExpired',
  'pointsRefunded',
  'userJoinedGroup',
  // A member left or was removed, the group was renamed: the group row and its members come
  // with the pull (a removed player's pull drops the group).
  'userLeftGroup',
  'groupUpdated',
  'groupCreated',
  // Fair resolution: the picks, the undone or re-resolved payout and the history come with the pull.
  'picksRevealed',
  'resolutionUndone',
  'resolutionDisputed',
  'disputeDismissed',
  'betReResolved',
  // A season's row, its standings and a reset's points come with the pull.
  'seasonStarted',
  'seasonEnded',
] as const satisfies readonly RealtimeEventName[];

/** The events that carry a whole comment. */
const COMMENT_EVENTS = [
  'commentPosted',
  'commentDeleted',
] as const satisfies readonly RealtimeEventName[];

export function createRealtimeSync({
  db,
  session,
  rebaser,
  socket,
  toasts,
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

  /**
   * A comment posted or deleted: the comment itself, if newer than the stored copy. The player's
   * own comment still waiting for its answer is left to that answer's pull, so the thread never
   * shows it twice (once under its temporary id, once under the server's).
   */
  const applyComment = async (payload: CommentEventPayload) => {
    const userId = me();
    if (userId === null) return;
    if (payload.userId === userId && !payload.deletedAt) {
      const waiting = await db.outbox
        .where('userId')
        .equals(userId)
        .filter(
          (entry) =>
            entry.mutator === 'addComment' &&
            (entry.status === 'pending' || entry.status === 'sending'),
        )
        .toArray();
      if (waiting.some((entry) => (entry.args as { text?: string }).text?.trim() === payload.text))
        return;
    }
    await rebaser.serverWrite(userId, async () => {
      const stored = await db.comments.get(payload.id);
      if ((stored?.version ?? -1) < payload.version) await db.comments.put(payload);
    });
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

  /** Whether the stored row already holds the event's change (then there is nothing to pull). */
  const isHeld = async (event: (typeof PULL_EVENTS)[number], payload: Record<string, unknown>) => {
    if (typeof payload.version !== 'number') return false;
    if (event === 'userJoinedGroup') {
      const membership = await db.memberships.get([
        payload.groupId as number,
        payload.userId as number,
      ]);
      return (membership?.version ?? -1) >= payload.version;
    }
    if (event === 'userLeftGroup' || event === 'groupUpdated') {
      const group = await db.groups.get(payload.groupId as number);
      return (group?.version ?? -1) >= payload.version;
    }
    const bet = typeof payload.betId === 'number' ? await db.bets.get(payload.betId) : undefined;
    return (bet?.version ?? -1) >= payload.version;
  };

  /**
   * Everyone's stake came back (a cancel, an expiry, or a resolution nobody won). The toast goes
   * to players it concerns: those with a wager on the bet this device knows of, except the creator
   * who cancelled it (their cancel already says "Bet cancelled. N points refunded.").
   */
  const announceRefund = async (payload: PointsRefundedPayload) => {
    const userId = me();
    if (userId === null) return;
    const [wager, bet] = await Promise.all([
      db.wagers.where('[betId+userId]').equals([payload.betId, userId]).first(),
      db.bets.get(payload.betId),
    ]);
    const isOwnCancel = bet?.createdBy === userId && bet.state === 'cancelled';
    if (wager && !isOwnCancel)
      toasts.info(refundMessage(payload.totalRefunded, payload.refundedParticipants));
  };

  /**
   * A result the player had a stake in was undone or corrected by someone else: they are told
   * (whoever did it already knows). The bet's title is read before the pull changes anything.
   */
  const announceResultChange = async (
    payload: { betId: number; distributions: Array<{ userId: number }> },
    actorId: number,
    text: (title: string) => string,
  ) => {
    const userId = me();
    if (userId === null || actorId === userId) return;
    if (!payload.distributions.some((entry) => entry.userId === userId)) return;
    const bet = await db.bets.get(payload.betId);
    if (bet) toasts.info(text(bet.title));
  };

  /** A dispute reaches those who review it: the bet's creator and the group's admins. */
  const announceDispute = async (payload: ResolutionDisputedPayload) => {
    const userId = me();
    if (userId === null || payload.disputedBy === userId) return;
    const [bet, group] = await Promise.all([
      db.bets.get(payload.betId),
      db.groups.get(payload.groupId),
    ]);
    if (!bet) return;
    const isAdmin = group?.admins?.includes(userId) ?? false;
    if (bet.createdBy === userId || isAdmin) toasts.info(RESULT_CHANGED_TEXT.disputed(bet.title));
  };

  /** The player was removed (on another device, or while looking): told once, before the pull drops the group. */
  const announceRemoval = async (payload: UserLeftGroupPayload) => {
    if (!payload.removed || payload.userId !== me()) return;
    const group = await db.groups.get(payload.groupId);
    if (group) toasts.info(REMOVED_FROM_GROUP_TEXT(group.name));
  };

  const onEvent = async (event: (typeof PULL_EVENTS)[number], payload: Record<string, unknown>) => {
    if (me() === null) return;
    if (event === 'pointsRefunded')
      await announceRefund(payload as unknown as PointsRefundedPayload);
    if (event === 'resolutionUndone') {
      const undone = payload as unknown as ResolutionUndonePayload;
      await announceResultChange(undone, undone.undoneBy, RESULT_CHANGED_TEXT.undone);
    }
    if (event === 'userLeftGroup')
      await announceRemoval(payload as unknown as UserLeftGroupPayload);
    if (event === 'resolutionDisputed')
      await announceDispute(payload as unknown as ResolutionDisputedPayload);
    if (event === 'betReResolved') {
      const corrected = payload as unknown as BetReResolvedPayload;
      await announceResultChange(
        {
          betId: corrected.betId,
          distributions: [...corrected.reversed, ...corrected.distributions],
        },
        corrected.reResolvedBy,
        RESULT_CHANGED_TEXT.reResolved,
      );
    }
    if (await isHeld(event, payload)) return;
    await schedulePull();
  };

  return {
    /** Listens to the socket's events and (re)connections. Idempotent. */
    start() {
      if (unsubscribers.length > 0) return;
      unsubscribers = PULL_EVENTS.map((event) =>
        socket.on(
          event,
          (payload) =>
            void track(
              onEvent(event, payload as unknown as Record<string, unknown>).catch(
                (error: unknown) => console.warn(`Applying ${event} failed`, error),
              ),
            ),
        ),
      );
      unsubscribers.push(
        socket.on(
          'wagerPlaced',
          (payload) =>
            void track(
              applyWagerPlaced(payload).catch((error: unknown) =>
                console.warn('Applying wagerPlaced failed', error),
              ),
            ),
        ),
        ...COMMENT_EVENTS.map((event) =>
          socket.on(
            event,
            (payload) =>
              void track(
                applyComment(payload).catch((error: unknown) =>
                  console.warn(`Applying ${event} failed`, error),
                ),
              ),
          ),
        ),
        socket.on(
          'notificationSaved',
          (payload) =>
            void track(
              applyNotification(payload).catch((error: unknown) =>
                console.warn('Applying notificationSaved failed', error),
              ),
            ),
        ),
        // Whatever happened while the socket was down was not heard: pull.
        socket.onConnected(() => void schedulePull()),
      );
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
      if (event === 'wagerPlaced') return track(applyWagerPlaced(payload as WagerPlacedPayload));
      if (event === 'notificationSaved') return track(applyNotification(payload as Notification));
      if ((COMMENT_EVENTS as readonly string[]).includes(event))
        return track(applyComment(payload as CommentEventPayload));
      if ((PULL_EVENTS as readonly string[]).includes(event))
        return track(
          onEvent(
            event as (typeof PULL_EVENTS)[number],
            payload as unknown as Record<string, unknown>,
          ),
        );
      return Promise.resolve();
    },
    /** Resolves once every event and the pull it scheduled have finished. */
    async whenIdle(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
