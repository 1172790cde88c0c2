import { randomUUID } from 'node:crypto';
import type { DatabaseConnection, Listener } from '../db/connect';
import type { SyncPullPart } from '../../domain/schemas/sync';

// A pull with nothing new, answered from memory (docs/architecture.md §8). Every write a pull's
// change check looks at also notifies, from its own transaction, the group and the user it
// concerns (migration 0020: "g12", "u5"); PostgreSQL delivers that at commit, in commit order.
// This instance counts the notifications it has received (`seq`) and keeps, per key, the count
// at its last one. A cursor the database answered carries the count read before its statement
// began: a change that statement's snapshot did not see committed after it began, so its
// notification arrives later and counts higher. A later pull whose keys all stayed at or below
// the cursor's count has nothing new, and its answer carries the count read then.
//
// Notifications reach this instance a moment after their commit, and a device may ask right
// after a write elsewhere (the realtime poke can outrun them). So a pull first waits for a
// fence: a notification its listening connection sends after the pull arrived; delivered in
// commit order, it comes after every commit before the pull. Pulls arriving together share one fence, which
// is what keeps this cheaper than a statement per pull. A fence that does not come back in
// time counts as a lost connection.
//
// The counts mean something only while one listening connection lasts (an `epoch`, random): a
// cursor of another epoch, another instance's, or one made while this instance was not
// listening, is asked of the database, and so is any pull after the connection is lost (until
// a new one listens). Nothing here ever says "nothing changed" for a key it has not followed
// since the cursor's own database read.

/** The channel migration 0020's trigger notifies. */
export const CHANGE_CHANNEL = 'hunch_changes';

/** Where this instance's notifications were when a pull read: a cursor carries it. */
export interface ChangePosition {
  epoch: string;
  seq: number;
}

/** Keys followed before the instance starts over (a new epoch; cursors then ask the database once). */
const MAX_KEYS = 200_000;
/** Client groups whose last mutation ids are remembered. */
const MAX_CLIENT_GROUPS = 20_000;
/** Pause before listening again after the connection is lost, doubled for each loss in a row… */
const RELISTEN_MS = 1_000;
/** …up to this; a connection that listened this long without a loss starts the count over. */
const MAX_RELISTEN_MS = 60_000;
/** A fence not back by then: the connection is taken as lost. */
const FENCE_TIMEOUT_MS = 2_000;
/** A fence's payload starts so: no key does. */
const FENCE_MARK = '!';

export const groupKey = (groupId: number) => `g${groupId}`;
export const userKey = (userId: number) => `u${userId}`;
/** A session's end (migration 0022): its refresh token family. */
export const sessionKey = (familyId: string) => `s${familyId}`;

interface RememberedWrites {
  userId: number;
  at: ChangePosition;
  lastMutationIDChanges: SyncPullPart['lastMutationIDChanges'];
}

export type ChangeWatermarks = ReturnType<typeof createChangeWatermarks>;

export function createChangeWatermarks(
  { listen }: Pick<DatabaseConnection, 'listen'>,
  log: { warn(details: object, message: string): void } = { warn: () => {} },
) {
  let epoch: string | null = null;
  let seq = 0;
  const marks = new Map<string, number>();
  const writes = new Map<string, RememberedWrites>();
  let listener: Listener | null = null;
  let isStopped = false;
  let relisten: NodeJS.Timeout | null = null;
  /** Losses in a row (each waits longer to listen again), and when the current epoch began. */
  let losses = 0;
  let listeningSince = 0;
  /** A new connection's own notification on its way: it counts as listening once heard. */
  let probe: { payload: string; heard: () => void } | null = null;
  /** The fence on its way (its payload), the pulls waiting for it, and those for the next one. */
  let fenceSent: {
    payload: string;
    sentAt: number;
    waiters: Array<(ok: boolean) => void>;
    timer: NodeJS.Timeout;
  } | null = null;
  let fenceNext: Array<(ok: boolean) => void> = [];
  /** When the latest fence back in this epoch was sent: every commit before then is counted. */
  let fencedThrough = -Infinity;

  const settleFences = (ok: boolean) => {
    const waiters = [...(fenceSent?.waiters ?? []), ...(ok ? [] : fenceNext)];
    if (fenceSent) clearTimeout(fenceSent.timer);
    if (ok && fenceSent) fencedThrough = Math.max(fencedThrough, fenceSent.sentAt);
    fenceSent = null;
    if (!ok) fenceNext = [];
    for (const waiter of waiters) waiter(ok);
    if (fenceNext.length > 0) sendFence();
  };

  const startOver = (next: string | null) => {
    epoch = next;
    seq = 0;
    fencedThrough = -Infinity;
    marks.clear();
    writes.clear();
    if (next === null) settleFences(false);
  };

  function sendFence() {
    const payload = `${FENCE_MARK}${randomUUID()}`;
    const timer = setTimeout(() => {
      if (fenceSent?.payload !== payload) return;
      listener?.stop().catch(() => {});
      onLost(new Error('a change notification fence did not come back'));
    }, FENCE_TIMEOUT_MS);
    timer.unref();
    fenceSent = { payload, sentAt: performance.now(), waiters: fenceNext, timer };
    fenceNext = [];
    if (!listener) return settleFences(false);
    listener.notify(payload).catch(() => {
      if (fenceSent?.payload === payload) settleFences(false);
    });
  }

  const onPayload = (payload: string) => {
    if (payload === probe?.payload) return probe.heard();
    if (epoch === null) return;
    if (payload.startsWith(FENCE_MARK)) {
      if (payload === fenceSent?.payload) settleFences(true);
      return;
    }
    seq++;
    for (const key of payload.split(' ')) marks.set(key, seq);
    if (marks.size > MAX_KEYS) startOver(randomUUID());
  };

  function onLost(error?: Error) {
    const wasHealthy = epoch !== null && performance.now() - listeningSince >= MAX_RELISTEN_MS;
    startOver(null);
    listener = null;
    if (isStopped) return;
    losses = wasHealthy ? 1 : losses + 1;
    const pause = Math.min(RELISTEN_MS * 2 ** (losses - 1), MAX_RELISTEN_MS);
    log.warn(
      { err: error, relistenMs: pause },
      'change notifications lost: pulls and session checks ask the database until back',
    );
    relisten = setTimeout(() => void start(), pause);
    relisten.unref();
  }

  /**
   * Whether `opened` hears a notification it sends itself. Behind a pooler that hands each
   * statement to any server connection (PgBouncer's transaction pooling), LISTEN and NOTIFY
   * may land on different backends and nothing is heard: then nothing is answered from memory.
   */
  function hearsItself(opened: Listener): Promise<boolean> {
    const payload = `${FENCE_MARK}${randomUUID()}`;
    return new Promise((resolve) => {
      const done = (isHeard: boolean) => {
        clearTimeout(timer);
        if (probe?.payload === payload) probe = null;
        resolve(isHeard);
      };
      const timer = setTimeout(() => done(false), FENCE_TIMEOUT_MS);
      timer.unref();
      probe = { payload, heard: () => done(true) };
      opened.notify(payload).catch(() => done(false));
    });
  }

  async function start(): Promise<void> {
    relisten = null;
    try {
      const opened = await listen(CHANGE_CHANNEL, onPayload, onLost);
      if (isStopped) return void (await opened.stop());
      listener = opened;
      const isHeard = await hearsItself(opened);
      // Lost or stopped meanwhile: handled there.
      if (listener !== opened) return;
      if (!isHeard) {
        opened.stop().catch(() => {});
        return onLost(new Error('the listening connection did not hear its own notification'));
      }
      // From here every commit notifies: a notification that came before this line was of a
      // commit every read of this epoch sees.
      listeningSince = performance.now();
      startOver(randomUUID());
    } catch (error) {
      onLost(error instanceof Error ? error : undefined);
    }
  }

  const isKnown = (at: ChangePosition, key: string) =>
    at.epoch === epoch && (marks.get(key) ?? 0) <= at.seq;

  return {
    start,

    async stop(): Promise<void> {
      isStopped = true;
      if (relisten) clearTimeout(relisten);
      startOver(null);
      await listener?.stop();
      listener = null;
    },

    /**
     * Resolves once every commit before `since` (a `performance.now()`, the call's own time by
     * default) is counted here: true, or false when that cannot be known (not listening, the
     * connection lost meanwhile). A request that fenced once (its session check) and asks again
     * with its arrival time is answered at once.
     */
    fence(since = performance.now()): Promise<boolean> {
      if (epoch === null) return Promise.resolve(false);
      if (fencedThrough >= since) return Promise.resolve(true);
      return new Promise((resolve) => {
        fenceNext.push(resolve);
        if (!fenceSent) sendFence();
      });
    },

    /** Whether nothing notified `key` since a database read at `at` (false when unsure). */
    isUnchangedSince: isKnown,

    /** Whether a cursor at `at` may be answered here (it is of this listening connection). */
    follows(at: ChangePosition): boolean {
      return at.epoch === epoch;
    },

    /** Read before a database read; null while not listening (its cursor then carries none). */
    position(): ChangePosition | null {
      return epoch === null ? null : { epoch, seq };
    },

    /**
     * The position to answer with when nothing the caller can see changed since `at` (their
     * memberships, own rows, client group and every group in `groupIds`); null when unsure.
     */
    quietSince(at: ChangePosition, userId: number, groupIds: readonly number[]) {
      if (!isKnown(at, userKey(userId))) return null;
      if (!groupIds.every((id) => isKnown(at, groupKey(id)))) return null;
      return { epoch: at.epoch, seq };
    },

    /** The client group's last mutation ids as a database read at `at` saw them. */
    rememberWrites(
      at: ChangePosition,
      userId: number,
      clientGroupId: string,
      lastMutationIDChanges: SyncPullPart['lastMutationIDChanges'],
    ): void {
      if (at.epoch !== epoch) return;
      writes.delete(clientGroupId);
      writes.set(clientGroupId, { userId, at, lastMutationIDChanges });
      if (writes.size > MAX_CLIENT_GROUPS) writes.delete(writes.keys().next().value!);
    },

    /** Those ids when the user's rows have not changed since they were read; else null. */
    writesNow(userId: number, clientGroupId: string): SyncPullPart | null {
      const remembered = writes.get(clientGroupId);
      if (!remembered || remembered.userId !== userId) return null;
      if (!isKnown(remembered.at, userKey(userId))) return null;
      return { lastMutationIDChanges: remembered.lastMutationIDChanges, mutationOutcomes: [] };
    },
  };
}
