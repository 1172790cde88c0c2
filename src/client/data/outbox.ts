import type { ApiErrorBody } from '../../domain/api-error';
import { SYNC_PUSH_PATH, TAB_ONLY_WRITE_HEADER } from '../../domain/constants';
import type { SyncPushRequest, SyncPushResponse } from '../../domain/schemas/sync';
import { SYNC_PUSH_MAX_MUTATIONS, type SyncMutationCall } from '../../domain/sync';
import type { ActiveGroupStore } from './active-group-store';
import {
  ApiError,
  isNetworkError,
  refusalText,
  signedOutError,
  type ApiClient,
} from './api-client';
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
import type { SessionStore } from './session-store';
import { numberWaitingWrites, renumberFrom, type ClientGroupOf } from './sync-client';
import { describeRefusal, refusalOf } from './write-refusal';

// The outbox (docs/architecture.md §8): every signed-in write is a named mutator (mutators.ts).
// run(mutator, args):
// 1. ONE Dexie transaction adds the entry, numbered (client group, client, mutation id:
//    sync-client.ts), and applies the mutator: the change shows at once, marked pending;
// 2. the outbox is pushed at once through `api` (which refreshes an expired token) to
//    POST /api/sync/push, in order and in batches: each write is pushed as `{ name, args }`, its
//    mutator's name and push args, and the server applies each id once, whoever sends it;
//    a batch ends before a write naming a row still unnumbered (it waits for that answer);
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

type SendOutcome = { outcome: 'sent'; response: unknown } | { outcome: 'refused'; error: Error };

/** A write on its way, with the mutation it is pushed as. */
interface Pushed {
  entry: OutboxEntry;
  mutator: Mutator<never>;
  args: never;
  mutation: SyncMutationCall & { id: number };
}

/** A negative number in a mutation's params or body: a row created offline, not numbered yet. */
const namesTempId = (value: unknown): boolean =>
  typeof value === 'number'
    ? value < 0
    : Array.isArray(value)
      ? value.some(namesTempId)
      : value !== null && typeof value === 'object' && Object.values(value).some(namesTempId);

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

const RETRY_STATUSES = new Set([408, 425, 429]);

function isRetryable(error: ApiError) {
  return error.status >= 500 || RETRY_STATUSES.has(error.status);
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

  const scheduleRetry = (delayMs = retryDelayMs) => {
    if (retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void flush();
    }, delayMs);
  };

  /** The player's writes still to send, in the order they were numbered. */
  const waiting = async (userId: number) =>
    (await db.outbox.where('userId').equals(userId).toArray())
      .filter((entry) => entry.status === 'pending' || entry.status === 'sending')
      .sort(
        (a, b) =>
          (a.mutationID ?? Number.MAX_SAFE_INTEGER) - (b.mutationID ?? Number.MAX_SAFE_INTEGER) ||
          a.createdAt - b.createdAt,
      );

  /**
   * The next writes to push together, in order: one client's, at most `limit`, and none after
   * the first that names a row still unnumbered (it waits for the answer that numbers it). A
   * write that is no push mutation is refused on the spot.
   */
  const nextBatch = async (userId: number, limit: number): Promise<Pushed[]> => {
    const ids = await rebaser.readTempIds();
    const batch: Pushed[] = [];
    for (const entry of await waiting(userId)) {
      const first = batch[0]?.entry;
      const isNumbered = entry.clientGroupID && entry.clientID && entry.mutationID !== undefined;
      if (batch.length >= limit || !isNumbered) break;
      if (
        first &&
        (entry.clientID !== first.clientID || entry.clientGroupID !== first.clientGroupID)
      )
        break;
      const mutator = mutatorOf(mutators, entry.mutator);
      if (!mutator) {
        await refused(entry, new ApiError(400, { message: `Unknown write "${entry.mutator}"` }));
        continue;
      }
      const args = replaceIds(entry.args, ids) as never;
      const call: SyncMutationCall = { name: mutator.name, args: mutator.push(args) };
      if (first && namesTempId(call.args)) break;
      batch.push({ entry, mutator, args, mutation: { id: entry.mutationID!, ...call } });
    }
    return batch;
  };

  const backToPending = async (batch: readonly Pushed[], error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    for (const { entry } of batch)
      await db.outbox.update(entry.id, { status: 'pending', error: message });
  };

  /**
   * One push of `batch`; how the flush goes on: `next` batch, `split` (the push itself was
   * refused: the writes go one by one to find whose fault it is), `renumbered` (the server
   * expects a lower id: send again), `offline` or `retry` (stop; a timer sends again).
   */
  const push = async (
    batch: readonly Pushed[],
  ): Promise<{ next: 'next' | 'split' | 'renumbered' | 'offline' | 'retry'; delayMs?: number }> => {
    const [{ entry: first }] = batch as [Pushed];
    for (const { entry } of batch)
      await db.outbox.update(entry.id, { status: 'sending', attempts: entry.attempts + 1 });
    const headers: Record<string, string> = {};
    if (session.isPersistent?.() === false) headers[TAB_ONLY_WRITE_HEADER] = '1';
    let answer: SyncPushResponse;
    try {
      answer = await api.request<SyncPushResponse>(SYNC_PUSH_PATH, {
        method: 'POST',
        headers,
        body: {
          clientGroupID: first.clientGroupID!,
          clientID: first.clientID!,
          mutations: batch.map(({ mutation }) => mutation),
        } satisfies SyncPushRequest,
      });
    } catch (error) {
      if (error instanceof ApiError && !isNetworkError(error) && !isRetryable(error)) {
        if (batch.length > 1) {
          await backToPending(batch, error);
          return { next: 'split' };
        }
        settle(first.id, { outcome: 'refused', error: await refused(first, error) });
        return { next: 'next' };
      }
      // No network or a server hiccup: the writes stay for the next flush.
      await backToPending(batch, error);
      if (error instanceof ApiError && error.status === 429)
        for (const { entry } of batch) slowedDown.add(entry.id);
      return { next: isNetworkError(error) ? 'offline' : 'retry' };
    }
    const results = new Map(answer.results.map((result) => [result.id, result]));
    for (const [index, { entry, mutator, args, mutation }] of batch.entries()) {
      const result = results.get(mutation.id);
      if (!result || result.retry) {
        // The push stopped here (out of order, a rate limit): this one and the rest wait.
        const rest = batch.slice(index);
        await backToPending(rest, result?.error?.message ?? 'Not sent yet');
        if (result?.error?.status === 429)
          for (const { entry: held } of rest) slowedDown.add(held.id);
        if (result?.error?.code === 'mutation_out_of_order' && entry.clientID) {
          const clientID = entry.clientID;
          await db.transaction('rw', [db.meta, db.outbox], () =>
            renumberFrom(db, entry.userId, clientID, answer.lastMutationID + 1),
          );
          onRenumbered();
          return { next: 'renumbered' };
        }
        return {
          next: 'retry',
          delayMs: result?.retryAfter ? result.retryAfter * 1000 : undefined,
        };
      }
      if (result.ok) {
        const response = result.skipped
          ? typeof result.createdId === 'number'
            ? { id: result.createdId }
            : undefined
          : result.result;
        await answered(entry, mutator as Mutator<never>, args, response, !result.skipped);
        settle(entry.id, { outcome: 'sent', response });
      } else {
        // The REST route's refusal, as its answer would have carried it.
        const body = (result.error ?? null) as Partial<ApiErrorBody> | null;
        const error = new ApiError(result.error?.status ?? 400, body);
        settle(entry.id, { outcome: 'refused', error: await refused(entry, error) });
      }
    }
    return { next: 'next' };
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
