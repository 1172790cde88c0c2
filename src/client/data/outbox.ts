import { TAB_ONLY_WRITE_HEADER } from '../../domain/constants';
import type { ActiveGroupStore } from './active-group-store';
import {
  ApiError,
  errorMessage,
  isNetworkError,
  signedOutError,
  type ApiClient,
} from './api-client';
import { TEMP_IDS_KEY, type HunchDb, type OutboxEntry, type OutboxKind } from './db';
import {
  isApplied,
  replaceIds,
  type Mutator,
  type MutatorRegistry,
  type Rebaser,
} from './mutators';
import type { SessionStore } from './session-store';

// The outbox (docs/architecture.md §8): every signed-in write is a named mutator (mutators.ts).
// run(mutator, args):
// 1. ONE Dexie transaction adds the entry (its id is the request's Idempotency-Key) and applies
//    the mutator: the change shows at once, marked pending;
// 2. the request goes out at once through `api` (which refreshes an expired token), unless older
//    writes wait (they go first: this one may name a row they create);
//    - answered: the entry becomes `answered` (still drawn until a pull holds its effect), a
//      created row's temporary id is recorded and rewritten in the queued writes naming it;
//    - no network / a server hiccup: it stays pending for the next flush;
//    - refused (4xx): it stops being drawn (a rebase) and the server's message is shown.
// The same code finishes a write whether it was sent at once or by a later flush.

export const OUTBOX_TEXT = {
  queued: {
    createGroup: "You're offline. Your group will be created when you're back.",
    joinGroup: "You're offline. You'll join the group when you're back.",
    leaveGroup: "You're offline. You'll leave the group when you're back.",
    setFloorTopUp: "You're offline. Your choice will be saved when you're back.",
    updateGroup: "You're offline. The group's new details will be saved when you're back.",
    removeMember: "You're offline. The member will be removed when you're back.",
    createBet: "You're offline. Your bet will be created when you're back.",
    placeWager: "You're offline. Your wager will be sent when you're back.",
    updateWager: "You're offline. Your wager will be sent when you're back.",
    resolveBet: "You're offline. The result will be sent when you're back.",
    cancelBet: "You're offline. The cancellation will be sent when you're back.",
    addComment: "You're offline. Your comment will be sent when you're back.",
    deleteComment: "You're offline. The comment will be deleted when you're back.",
    undoResolution: "You're offline. The result will be undone when you're back.",
    disputeResolution: "You're offline. Your dispute will be sent when you're back.",
    dismissDispute: "You're offline. The dismissal will be sent when you're back.",
    reResolveBet: "You're offline. The new result will be sent when you're back.",
    readNotifications: "You're offline. Read notifications will sync when you're back.",
    setPushKinds: "You're offline. Your choice will be saved when you're back.",
    muteGroup: "You're offline. Your choice will be saved when you're back.",
    muteBet: "You're offline. Your choice will be saved when you're back.",
    startSeason: "You're offline. The season will start when you're back.",
    endSeason: "You're offline. The season will end when you're back.",
  },
  failed: {
    createGroup: 'Failed to create group. Please try again.',
    joinGroup: 'Failed to join group. Please try again.',
    leaveGroup: 'Could not leave the group. Please try again.',
    setFloorTopUp: "The top-up setting wasn't saved. Please try again.",
    updateGroup: "The group's details weren't saved. Please try again.",
    removeMember: "The member wasn't removed. Please try again.",
    createBet: 'Failed to create bet. Please try again.',
    placeWager: 'Failed to submit wager',
    updateWager: 'Failed to submit wager',
    resolveBet: 'Failed to resolve bet. Please try again.',
    cancelBet: 'Failed to cancel bet. Please try again.',
    addComment: "Your comment wasn't posted. Please try again.",
    deleteComment: "The comment wasn't deleted. Please try again.",
    undoResolution: "The result wasn't undone. Please try again.",
    disputeResolution: "Your dispute wasn't sent. Please try again.",
    dismissDispute: "The dispute wasn't dismissed. Please try again.",
    reResolveBet: "The new result wasn't saved. Please try again.",
    readNotifications: "Notifications weren't marked as read. Please try again.",
    setPushKinds: "Your notification choices weren't saved. Please try again.",
    muteGroup: "The group wasn't muted. Please try again.",
    muteBet: "The bet wasn't muted. Please try again.",
    startSeason: "The season didn't start. Please try again.",
    endSeason: "The season didn't end. Please try again.",
  },
  /** How the sync status sheet names each kind of write. */
  label: {
    createGroup: 'New group',
    joinGroup: 'Joining a group',
    leaveGroup: 'Leaving a group',
    setFloorTopUp: 'Top-ups setting',
    updateGroup: 'Group name and description',
    removeMember: 'Removed member',
    createBet: 'New bet',
    placeWager: 'Wager',
    updateWager: 'Changed wager',
    resolveBet: 'Bet result',
    cancelBet: 'Bet cancellation',
    addComment: 'Comment',
    deleteComment: 'Deleted comment',
    undoResolution: 'Undone result',
    disputeResolution: 'Dispute',
    dismissDispute: 'Dismissed dispute',
    reResolveBet: 'New result',
    readNotifications: 'Read notifications',
    setPushKinds: 'Notification choices',
    muteGroup: 'Muted group',
    muteBet: 'Muted bet',
    startSeason: 'New season',
    endSeason: 'Ending a season',
  },
} satisfies Record<string, Record<OutboxKind, string>>;

export type WriteResult<T> = { status: 'sent'; response: T } | { status: 'queued'; id: string };

type SendOutcome =
  | { outcome: 'sent'; response: unknown }
  | { outcome: 'refused'; error: unknown }
  | { outcome: 'offline' | 'retry' | 'skipped'; error?: unknown };

export interface OutboxOptions {
  db: HunchDb;
  api: ApiClient;
  /** `isPersistent` false (a session kept in its tab only): the service worker keeps none of its writes. */
  session: Pick<SessionStore, 'user'> & Partial<Pick<SessionStore, 'isPersistent'>>;
  mutators: MutatorRegistry;
  rebaser: Rebaser;
  activeGroup: ActiveGroupStore;
  /** Shows a refusal nobody was waiting for (the toast in the app). */
  notifyError?: (message: string) => void;
  /** A write was answered: the local data pulls (its effect comes with the pull). */
  onAnswered?: () => void;
  /** After the drawn writes changed (answer, refusal, discard): the active group follows. */
  afterRebase?: () => Promise<void> | void;
  /** A temporary id for a created group or bet: always negative, never a server id. */
  tempId?: () => number;
  newKey?: () => string;
  /** Wait before sending again after a 409 (another sender holds the key) or a 5xx. */
  retryDelayMs?: number;
}

const RETRY_STATUSES = new Set([408, 425, 429]);

function isRetryable(error: ApiError) {
  return (
    error.status >= 500 ||
    RETRY_STATUSES.has(error.status) ||
    (error.status === 409 && error.code === 'idempotency_in_progress')
  );
}

export function createOutbox({
  db,
  api,
  session,
  mutators,
  rebaser,
  activeGroup,
  notifyError = () => undefined,
  onAnswered = () => undefined,
  afterRebase = () => undefined,
  tempId = () => -(Math.floor(Math.random() * 2 ** 31) + 1),
  newKey = () => crypto.randomUUID(),
  retryDelayMs = 2000,
}: OutboxOptions) {
  let flushing: Promise<void> | null = null;
  let flushAgain = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let lastCreatedAt = 0;
  /** Writes whose run() caller is still waiting: the caller shows their refusal, not the outbox. */
  const awaited = new Set<string>();
  /** How each write sent by a flush ended, for the run() waiting on it. */
  const settled = new Map<string, SendOutcome>();

  const kindOf = (entry: OutboxEntry): OutboxKind =>
    mutators[entry.mutator]?.kind(entry.args as never) ?? 'createGroup';

  /** The server accepted the write: record what it numbered, keep drawing it until a pull holds it. */
  const answered = async (
    entry: OutboxEntry,
    mutator: Mutator<never>,
    args: never,
    response: unknown,
  ) => {
    const isCurrent = await db.transaction('rw', rebaser.tables(), async () => {
      if (!(await db.outbox.get(entry.id))) return false; // signed out meanwhile
      const numbered = mutator.numbered?.(args, response as never);
      if (numbered) {
        const [temp, real] = numbered;
        const ids = { ...(await rebaser.readTempIds()), [String(temp)]: real };
        await db.meta.put({ key: TEMP_IDS_KEY, value: ids });
        // Queued writes naming the new row (a wager on a bet created offline) now name the server's.
        await db.outbox
          .where('userId')
          .equals(entry.userId)
          .modify((queued) => {
            if (queued.id !== entry.id) queued.args = replaceIds(queued.args, ids);
          });
      }
      await db.outbox.update(entry.id, { status: 'answered', error: undefined });
      return true;
    });
    if (!isCurrent) return;
    await rebaser.rebase(entry.userId);
    await afterRebase();
    // After the reconcile: a joined group the mirror does not hold yet still becomes the active one.
    await mutator.afterAnswer?.(args, response as never, { db, userId: entry.userId, activeGroup });
    onAnswered();
  };

  /** The server refused the write: it stops being drawn. Kept as `failed` (retry or discard) unless its caller shows the refusal. */
  const refused = async (entry: OutboxEntry, error: unknown) => {
    const message = errorMessage(error, OUTBOX_TEXT.failed[kindOf(entry)]);
    const isAwaited = awaited.has(entry.id);
    if (isAwaited) await db.outbox.delete(entry.id);
    else await db.outbox.update(entry.id, { status: 'failed', error: message });
    await rebaser.rebase(entry.userId);
    await afterRebase();
    if (!isAwaited) notifyError(message);
  };

  /** One attempt with the entry's key. */
  const send = async (id: string): Promise<SendOutcome> => {
    const entry = await db.outbox.get(id);
    if (!entry || entry.status === 'answered' || entry.status === 'failed')
      return { outcome: 'skipped' };
    const mutator = mutators[entry.mutator];
    if (!mutator) {
      await db.outbox.update(id, { status: 'failed', error: `Unknown write "${entry.mutator}"` });
      return { outcome: 'skipped' };
    }
    const args = replaceIds(entry.args, await rebaser.readTempIds()) as never;
    const { method, path, body } = mutator.request(args);
    await db.outbox.update(id, { status: 'sending', attempts: entry.attempts + 1 });
    try {
      const headers: Record<string, string> = { 'Idempotency-Key': id };
      if (session.isPersistent?.() === false) headers[TAB_ONLY_WRITE_HEADER] = '1';
      const response = await api.request<unknown>(path, { method, body, headers });
      await answered(entry, mutator, args, response);
      return { outcome: 'sent', response };
    } catch (error) {
      if (error instanceof ApiError && !isNetworkError(error) && !isRetryable(error)) {
        await refused(entry, error);
        return { outcome: 'refused', error };
      }
      // No network, a server hiccup, or the service worker sending the same key right now:
      // the write stays for the next flush.
      await db.outbox.update(id, {
        status: 'pending',
        error: error instanceof Error ? error.message : String(error),
      });
      return { outcome: isNetworkError(error) ? 'offline' : 'retry', error };
    }
  };

  const scheduleRetry = () => {
    if (retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void flush();
    }, retryDelayMs);
  };

  /** The player's writes still to send, oldest first. */
  const waiting = async (userId: number) =>
    (await db.outbox.where('userId').equals(userId).sortBy('createdAt')).filter(
      (entry) => entry.status === 'pending' || entry.status === 'sending',
    );

  const flushOnce = async () => {
    const userId = session.user?.id;
    if (userId === undefined) return;
    for (const entry of await waiting(userId)) {
      if (session.user?.id !== userId) return;
      const result = await send(entry.id);
      if (result.outcome === 'sent' || result.outcome === 'refused') {
        settled.set(entry.id, result);
        if (settled.size > 50) settled.delete(settled.keys().next().value!);
      }
      if (result.outcome === 'offline') return; // the rest would fail the same way
      if (result.outcome === 'retry') {
        scheduleRetry();
        return; // keep the order: a later write may depend on this one
      }
    }
  };

  /** Sends what the outbox holds, oldest first, one at a time. Concurrent calls share one run. */
  const flush = (): Promise<void> => {
    if (flushing) {
      flushAgain = true;
      return flushing;
    }
    flushing = (async () => {
      do {
        flushAgain = false;
        await flushOnce();
      } while (flushAgain);
    })()
      .catch((error: unknown) => console.warn('Sending the outbox failed', error))
      .finally(() => {
        flushing = null;
      });
    return flushing;
  };

  const deliver = async <T>(entry: OutboxEntry): Promise<WriteResult<T>> => {
    const older = (await waiting(entry.userId)).some(
      (other) => other.id !== entry.id && other.createdAt <= entry.createdAt,
    );
    if (older || flushing) {
      await flush();
      const result = settled.get(entry.id);
      settled.delete(entry.id);
      if (result?.outcome === 'refused') throw result.error;
      if (result?.outcome === 'sent') return { status: 'sent', response: result.response as T };
      return { status: 'queued', id: entry.id };
    }
    const result = await send(entry.id);
    if (result.outcome === 'sent') return { status: 'sent', response: result.response as T };
    if (result.outcome === 'refused') throw result.error;
    if (result.outcome === 'retry') scheduleRetry();
    return { status: 'queued', id: entry.id };
  };

  return {
    /**
     * Applies the mutator and queues it in one transaction, then tries to send it. Resolves
     * 'sent' with the server's answer or 'queued' (it goes out later); rejects with the
     * ApiError when the server refused it (no longer drawn; the caller shows the message).
     */
    async run<A, R>(mutator: Mutator<A, R>, args: A): Promise<WriteResult<R>> {
      const userId = session.user?.id;
      if (userId === undefined) throw signedOutError();
      if (mutators[mutator.name] !== (mutator as unknown))
        throw new Error(`Mutator ${mutator.name} is not registered`);
      lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
      const entry: OutboxEntry = {
        id: newKey(),
        userId,
        mutator: mutator.name,
        args,
        createdAt: lastCreatedAt,
        status: 'pending',
        attempts: 0,
      };
      await db.transaction('rw', rebaser.tables(), async () => {
        // A screen may still show a row the server has numbered since: name the server's id.
        entry.args = replaceIds(entry.args, await rebaser.readTempIds());
        await db.outbox.add(entry);
        await rebaser.applyEntry(entry);
      });
      awaited.add(entry.id);
      try {
        return await deliver<R>(entry);
      } finally {
        awaited.delete(entry.id);
      }
    },
    flush,
    /** A negative id for a row the server has not numbered yet. */
    tempId,
    /** A refused write goes back in the queue (drawn again) and out at once. */
    async retry(id: string): Promise<void> {
      const entry = await db.outbox.get(id);
      if (!entry || entry.status !== 'failed') return;
      await db.outbox.update(id, {
        status: 'pending',
        error: undefined,
        createdAt: entry.createdAt,
      });
      await rebaser.rebase(entry.userId);
      await flush();
    },
    /** Forgets a waiting or refused write; what it drew goes. */
    async discard(id: string): Promise<void> {
      const entry = await db.outbox.get(id);
      if (!entry || entry.status === 'sending' || entry.status === 'answered') return;
      await db.outbox.delete(id);
      await rebaser.rebase(entry.userId);
      await afterRebase();
    },
    kindOf,
    isApplied,
    stop() {
      clearTimeout(retryTimer);
      retryTimer = undefined;
    },
  };
}
