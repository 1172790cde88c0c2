import type { ApiErrorBody } from '../../domain/api-error';
import { SYNC_PUSH_PATH, TAB_ONLY_WRITE_HEADER } from '../../domain/constants';
import type { SyncPushRequest, SyncPushResponse } from '../../domain/schemas/sync';
import type { SyncMutationCall } from '../../domain/sync';
import { ApiError, isNetworkError, type ApiClient } from './api-client';
import type { HunchDb, OutboxEntry } from './db';
import {
  mutatorOf,
  replaceIds,
  type Mutator,
  type MutatorRegistry,
  type Rebaser,
} from './mutators';
import type { SessionStore } from './session-store';
import { renumberFrom } from './sync-client';

// Pushing the outbox (outbox.ts): which waiting writes go together, one push of them to
// POST /api/sync/push, and what each write's result does to it: answered, refused, back to
// pending for a retry, or renumbered when the server expects a lower id. The outbox runs the
// flush around it and owns what an answer or a refusal does (`answered`, `refused`).

export type SendOutcome =
  { outcome: 'sent'; response: unknown } | { outcome: 'refused'; error: Error };

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

const RETRY_STATUSES = new Set([408, 425, 429]);

function isRetryable(error: ApiError) {
  return error.status >= 500 || RETRY_STATUSES.has(error.status);
}

export interface PusherOptions {
  db: HunchDb;
  api: ApiClient;
  session: Partial<Pick<SessionStore, 'isPersistent'>>;
  mutators: MutatorRegistry;
  rebaser: Rebaser;
  onRenumbered: () => void;
  /** The outbox's end of a write the server accepted. */
  answered: (
    entry: OutboxEntry,
    mutator: Mutator<never>,
    args: never,
    response: unknown,
    isFullAnswer: boolean,
  ) => Promise<void>;
  /** The outbox's end of a write the server refused: answers the error run() rejects with. */
  refused: (entry: OutboxEntry, error: unknown) => Promise<Error>;
  /** How a write sent by a flush ended, for the run() waiting on it. */
  settle: (id: string, outcome: SendOutcome) => void;
  /** Writes a rate limit held back in their last push. */
  slowedDown: Set<string>;
}

/** The outbox's pushing: `nextBatch` and `push`, which its flush calls in turn. */
export function createPusher({
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
}: PusherOptions) {
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
   * expects a lower id: send again), `offline` (stop: no network, or the app must update first)
   * or `retry` (stop; a timer sends again, as after a 503 `server_too_old`).
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
      if (error instanceof ApiError && error.code === 'client_too_old') {
        // The server no longer speaks this build's protocol: nothing was applied, and the
        // writes wait for the updated app, which sends them (update-needed.ts).
        await backToPending(batch, error);
        return { next: 'offline' };
      }
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

  return { nextBatch, push };
}
