import { SYNC_PUSH_MAX_MUTATIONS } from '../../domain/sync';
import type { ActiveGroupStore } from './active-group-store';
import { refusalText, signedOutError, type ApiClient } from './api-client';
import { type HunchDb, type OutboxEntry } from './db';
import {
  isApplied,
  mutatorOf,
  replaceIds,
  textsOf,
  type Mutator,
  type MutatorRegistry,
  type MutatorTexts,
  type Rebaser,
} from './mutators';
import { createPusher, type SendOutcome } from './outbox-push';
import type { SessionStore } from './session-store';
import { numberWaitingWrites, type ClientGroupOf } from './sync-client';
import { describeRefusal, refusalOf } from './write-refusal';

// The outbox (docs/architecture.md §8): every signed-in write is a named mutator (mutators.ts).
// run(mutator, args):
// 1. ONE Dexie transaction adds the entry, numbered (client group, client, mutation id:
//    sync-client.ts), and applies the mutator: the change shows at once, marked pending;
// 2. the outbox is pushed at once (outbox-push.ts) through `api` (which refreshes an expired
//    token) to POST /api/sync/push, in order and in batches: each write is pushed as
//    `{ name, args }`, its mutator's name and push args, and the server applies each id once,
//    whoever sends it; a batch ends before a write naming a row still unnumbered (it waits
//    for that answer);
//    - applied (or applied before: a replay): the entry becomes `answered`, still drawn until a
//      pull reports its id applied (sync-engine.ts); a created row's temporary id is recorded
//      and rewritten in the queued writes naming it;
//    - no network / a server hiccup / a rate limit: it stays pending for the next flush;
//    - refused (4xx): it stops being drawn (a rebase) and the server's message is shown.
// What the player reads of a write comes from its mutator's texts: "queued" when run() leaves
// it for later, the refusal's text when the server's has none, the sync status sheet's label. A
// refusal run() rejects with carries the text to show as its message (api-client.ts refusalText).
// The same code finishes a write whether its own run() pushed it or a later flush did.

/**
 * The toast when run() leaves a write for later because the server asked to slow down (a rate
 * limit): the player is online, so the mutator's "You're offline. …" would not be true.
 */
export const RATE_LIMITED_TEXT = 'Slow down — sent in a moment';

export type WriteResult<T> = { status: 'sent'; response: T } | { status: 'queued'; id: string };

export interface OutboxOptions {
  db: HunchDb;
  api: ApiClient;
  /** `isPersistent` false (a session kept in its tab only): the service worker keeps none of its writes. */
  session: Pick<SessionStore, 'user'> & Partial<Pick<SessionStore, 'isPersistent'>>;
  mutators: MutatorRegistry;
  rebaser: Rebaser;
  activeGroup: ActiveGroupStore;
  /** The player's client group on this device (sync-client.ts). */
  clientGroupOf: ClientGroupOf;
  /** Waiting writes were numbered again: copies of earlier pushes (the service worker's) must go. */
  onRenumbered?: () => void;
  /** Shows a refusal nobody was waiting for (the toast in the app). */
  notifyError?: (message: string) => void;
  /** Shows that a write run() queued goes out later, in its mutator's words (the toast in the app). */
  notifyQueued?: (message: string) => void;
  /** A write was answered: the local data pulls (its effect comes with the pull). */
  onAnswered?: () => void;
  /** After the drawn writes changed (answer, refusal, discard): the active group follows. */
  afterRebase?: () => Promise<void> | void;
  /** A temporary id for a created group or bet: always negative, never a server id. */
  tempId?: () => number;
  newKey?: () => string;
  /** Wait before sending again after a 5xx or a stop the server asked for. */
  retryDelayMs?: number;
}

export function createOutbox({
  db,
  api,
  session,
  mutators,
  rebaser,
  activeGroup,
  clientGroupOf,
  onRenumbered = () => undefined,
  notifyError = () => undefined,
  notifyQueued = () => undefined,
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
  /** Writes a rate limit held back in their last push: their run() says so, not "offline". */
  const slowedDown = new Set<string>();

  /** What the player reads of a write; nothing for a write this app does not know (refused in nextBatch). */
  const textsOfEntry = (entry: Pick<OutboxEntry, 'mutator' | 'args'>): MutatorTexts | undefined => {
    const mutator = mutatorOf(mutators, entry.mutator);
    return mutator && textsOf(mutator, entry.args as never);
  };

  /** The server accepted the write: record what it numbered, keep drawing it until a pull holds it. */
  const answered = async (
    entry: OutboxEntry,
    mutator: Mutator<never>,
    args: never,
    response: unknown,
    isFullAnswer: boolean,
  ) => {
    const isCurrent = await db.transaction('rw', rebaser.tables(), async () => {
      if (!(await db.outbox.get(entry.id))) return false; // signed out meanwhile
      if (response !== undefined) await rebaser.recordCreated(entry, response);
      await db.outbox.update(entry.id, { status: 'answered', error: undefined });
      return true;
    });
    if (!isCurrent) return;
    await rebaser.rebase(entry.userId);
    await afterRebase();
    // After the reconcile: a joined group the mirror does not hold yet still becomes the active
    // one. A replay's answer carries only a created id: the pull brings the rest.
    if (isFullAnswer)
      await mutator.afterAnswer?.(args, response as never, {
        db,
        userId: entry.userId,
        activeGroup,
      });
    onAnswered();
  };

  /**
   * The server refused the write: it stops being drawn. Kept as `failed` (retry or discard)
   * unless its caller shows the refusal. Answers the refusal as run() rejects with it.
   */
  const refused = async (entry: OutboxEntry, error: unknown): Promise<Error> => {
    const refusal = refusalOf(error, textsOfEntry(entry)?.refused);
    // Nobody waits on it (sent after the network came back): it names itself and its bet.
    const told = awaited.has(entry.id)
      ? undefined
      : await describeRefusal(db, mutators, entry, refusal);
    if (!told) await db.outbox.delete(entry.id);
    else await db.outbox.update(entry.id, { status: 'failed', ...told });
    await rebaser.rebase(entry.userId);
    await afterRebase();
    if (told) notifyError(told.error);
    return refusal;
  };

  const settle = (id: string, outcome: SendOutcome) => {
    slowedDown.delete(id);
    settled.set(id, outcome);
    if (settled.size > 50) settled.delete(settled.keys().next().value!);
  };

  const { nextBatch, push } = createPusher({
    db,
    api,
    session,
    mutators,
    rebaser,
    onRenumbered,
    answered,
    refused,
    settle,
    slowedDown,
  });

  const scheduleRetry = (delayMs = retryDelayMs) => {
    if (retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void flush();
    }, delayMs);
  };

  const flushOnce = async () => {
    const userId = session.user?.id;
    if (userId === undefined) return;
    // Writes from before the push, or sent back after a retry, are numbered now.
    await db.transaction('rw', [db.meta, db.outbox], () =>
      numberWaitingWrites(db, userId, clientGroupOf(userId)),
    );
    let limit = SYNC_PUSH_MAX_MUTATIONS;
    let renumbered = false;
    for (;;) {
      if (session.user?.id !== userId) return;
      const batch = await nextBatch(userId, limit);
      if (batch.length === 0) return;
      const { next, delayMs } = await push(batch);
      if (next === 'offline') return; // the rest would fail the same way
      if (next === 'retry' || (next === 'renumbered' && renumbered)) {
        scheduleRetry(delayMs);
        return; // keep the order: a later write may depend on this one
      }
      renumbered ||= next === 'renumbered';
      limit = next === 'split' ? 1 : SYNC_PUSH_MAX_MUTATIONS;
    }
  };

  /** Pushes what the outbox holds, in order, in batches. Concurrent calls share one run. */
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

  /** Sends the outbox (this write with the ones before it) and tells how this one ended. */
  const deliver = async <T>(entry: OutboxEntry): Promise<WriteResult<T>> => {
    await flush();
    const result = settled.get(entry.id);
    settled.delete(entry.id);
    if (result?.outcome === 'refused') throw result.error;
    if (result?.outcome === 'sent') return { status: 'sent', response: result.response as T };
    return { status: 'queued', id: entry.id };
  };

  /**
   * Applies the mutator and queues it in one transaction, then tries to send it. Resolves
   * 'sent' with the server's answer or 'queued' (it goes out later: the outbox has said so
   * in the mutator's words); rejects with the ApiError when the server refused it (no longer
   * drawn), its message the text to show: the server's, else the mutator's (refusalText).
   */
  async function run<A, R>(mutator: Mutator<A, R>, args: A): Promise<WriteResult<R>> {
    const userId = session.user?.id;
    if (userId === undefined) throw signedOutError();
    if (mutatorOf(mutators, mutator.name) !== (mutator as unknown))
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
    const texts = textsOf(mutator, args);
    try {
      await db.transaction('rw', rebaser.tables(), async () => {
        // A screen may still show a row the server has numbered since: name the server's id.
        entry.args = replaceIds(entry.args, await rebaser.readTempIds());
        await db.outbox.add(entry);
        await numberWaitingWrites(db, userId, clientGroupOf(userId));
        await rebaser.applyEntry(entry);
      });
    } catch (error) {
      // Not even queued (the device's storage failed): said in the write's words too.
      throw refusalOf(error, texts.refused);
    }
    awaited.add(entry.id);
    let result: WriteResult<R>;
    try {
      result = await deliver<R>(entry);
    } finally {
      awaited.delete(entry.id);
    }
    const isSlowedDown = slowedDown.delete(entry.id);
    if (result.status === 'queued' && !mutator.isQuietWhenQueued)
      notifyQueued(isSlowedDown ? RATE_LIMITED_TEXT : texts.queued);
    return result;
  }

  return {
    run,
    /**
     * run() for a screen that waits for nothing (a toggle, a read mark): a refusal is shown as
     * one nobody waited for (notifyError) and never thrown; resolves undefined then.
     */
    async send<A, R>(mutator: Mutator<A, R>, args: A): Promise<WriteResult<R> | undefined> {
      try {
        return await run(mutator, args);
      } catch (error) {
        notifyError(refusalText(error));
        return undefined;
      }
    },
    flush,
    /** A negative id for a row the server has not numbered yet. */
    tempId,
    /** A refused write goes back in the queue (drawn again) and out at once, as a new mutation. */
    async retry(id: string): Promise<void> {
      const entry = await db.outbox.get(id);
      if (!entry || entry.status !== 'failed') return;
      await db.transaction('rw', [db.meta, db.outbox], async () => {
        await db.outbox.update(id, {
          status: 'pending',
          error: undefined,
          errorCode: undefined,
          clientGroupID: undefined,
          clientID: undefined,
          mutationID: undefined,
        });
        await numberWaitingWrites(db, entry.userId, clientGroupOf(entry.userId));
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
    textsOf: textsOfEntry,
    isApplied,
    stop() {
      clearTimeout(retryTimer);
      retryTimer = undefined;
    },
  };
}
