import type {
  SyncMutationError,
  SyncMutationResult,
  SyncPushResponse,
} from '../../domain/schemas/sync';
import type { SyncMutationName } from '../../domain/sync';
import type { z } from '../../domain/schemas/zod';
import type { AuthUser } from '../auth/tokens';
import type { Database } from '../db/connect';
import {
  mutationOutOfOrder,
  rateLimited,
  refusalOf,
  validationFailed,
  type AppError,
} from '../errors';
import type { EventBus } from '../events';
import {
  findOutcome,
  lockClient,
  readLastMutationId,
  recordMutation,
  type ClientKey,
} from './client-mutations';
import { SYNC_MUTATIONS } from './sync-mutations';
import { createWriteServices, heldEvents, joinedDatabase } from './write-services';
import { argsSchemaOf, type AnyWrite } from './writes';

// POST /api/sync/push (docs/architecture.md §8; Replicache's push is the model): a device's
// writes, in order, each in ITS OWN transaction that first locks the client's row, skips an id
// already applied, stops at one that skips ahead, runs the REST route's service on that same
// transaction and writes the client's last mutation id in it. So a write and the record that it
// happened commit together: a process dying between the commit and the answer leaves nothing to
// guess, the next push skips it and the pull reports it.
//
// A write the service refuses (a 4xx) is rolled back, then its id is recorded with the refusal
// in a fresh transaction: it is final, like the REST answer, and the device shows its message.
// What a service publishes is held until its mutation commits, then published as the REST
// route would (events.ts), naming the mutation it came from (the realtime gateway tells the
// author's own sockets): nothing is announced for a write rolled back or run again.

export interface SyncPushDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
  /** Called right after each mutation's commit, before anything else (a test's crash). */
  afterCommit?: () => void;
}

export interface SyncPushInput {
  clientGroupID: string;
  clientID: string;
  mutations: Array<{ id: number; name: SyncMutationName; args: unknown }>;
}

/** Counts one mutation against its REST route's rate limits: seconds to wait when one is exceeded. */
export type MutationLimiter = (name: SyncMutationName) => Promise<number | undefined>;

export type SyncPushService = ReturnType<typeof createSyncPushService>;

type Applied =
  | { kind: 'applied'; result: unknown; createdId: number | null }
  | { kind: 'refused'; error: SyncMutationError }
  | { kind: 'skipped' }
  | { kind: 'gap'; expected: number };

const errorOf = (refusal: AppError): SyncMutationError => ({
  ...refusal.toBody(),
  status: refusal.statusCode,
});

/** A bad args object, as the REST route's validation would answer it (400, a message per field). */
function invalidArgs(error: z.ZodError): AppError {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    // `body.title` is the route's `title`; a missing body or params names itself.
    const field = issue.path.length > 1 ? issue.path.slice(1).join('.') : issue.path.join('.');
    if (field && !(field in fieldErrors)) fieldErrors[field] = issue.message;
  }
  return validationFailed(
    error.issues[0]?.message ?? 'Invalid input',
    Object.keys(fieldErrors).length ? fieldErrors : undefined,
  );
}

export function createSyncPushService({
  db,
  events,
  now = () => new Date(),
  afterCommit = () => undefined,
}: SyncPushDeps) {
  /** Records `id` as refused, in a transaction of its own (the write's was rolled back). */
  async function recordRefusal(key: ClientKey, id: number, refusal: AppError): Promise<Applied> {
    const error = errorOf(refusal);
    return db.transaction(async (tx): Promise<Applied> => {
      const last = await lockClient(tx, key);
      if (id <= last) return { kind: 'skipped' };
      if (id > last + 1) return { kind: 'gap', expected: last + 1 };
      await recordMutation(tx, key, id, { error }, now());
      return { kind: 'refused', error };
    });
  }

  async function applyOne(
    caller: AuthUser,
    key: ClientKey,
    mutation: SyncPushInput['mutations'][number],
  ): Promise<Applied> {
    const definition: AnyWrite = SYNC_MUTATIONS[mutation.name];
    const parsed = argsSchemaOf(definition).safeParse(mutation.args);
    if (!parsed.success) return recordRefusal(key, mutation.id, invalidArgs(parsed.error));
    const held = heldEvents();
    let applied: Applied;
    try {
      applied = await db.transaction(async (tx): Promise<Applied> => {
        held.clear(); // a retried transaction publishes only what its last run did
        const last = await lockClient(tx, key);
        if (mutation.id <= last) return { kind: 'skipped' };
        if (mutation.id > last + 1) return { kind: 'gap', expected: last + 1 };
        const services = createWriteServices({ db: joinedDatabase(tx), events: held.bus, now });
        const result: unknown = await definition.run(services, caller, parsed.data as never);
        const createdId = definition.created?.(result) ?? null;
        await recordMutation(tx, key, mutation.id, { createdId }, now());
        return { kind: 'applied', result, createdId };
      });
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal || refusal.code === 'client_group_not_yours') throw error;
      return recordRefusal(key, mutation.id, refusal);
    }
    if (applied.kind === 'applied') {
      afterCommit();
      held.flushTo(events, {
        userId: caller.id,
        clientID: key.clientId,
        mutationID: mutation.id,
      });
    }
    return applied;
  }

  /** A replayed id: its recorded outcome (a refusal, a created row's id), if any. */
  async function replayOf(key: ClientKey, id: number): Promise<SyncMutationResult> {
    const outcome = await findOutcome(db, key, id);
    if (outcome?.error) return { id, ok: false, skipped: true, error: outcome.error };
    return { id, ok: true, skipped: true, createdId: outcome?.createdId ?? null };
  }

  return {
    /**
     * Runs the pushed mutations in order and answers each one's outcome. Stops at the first
     * that cannot run now (out of order, a rate limit): the device sends it and the rest again.
     */
    async push(
      caller: AuthUser,
      input: SyncPushInput,
      limit: MutationLimiter,
    ): Promise<SyncPushResponse> {
      const key: ClientKey = {
        userId: caller.id,
        clientGroupId: input.clientGroupID,
        clientId: input.clientID,
      };
      // Refuses another user's client group (403) before anything runs.
      let last = await readLastMutationId(db, key);
      const results: SyncMutationResult[] = [];
      for (const mutation of input.mutations) {
        const { id } = mutation;
        if (id <= last) {
          results.push(await replayOf(key, id));
          continue;
        }
        if (id > last + 1) {
          results.push({
            id,
            ok: false,
            retry: true,
            error: errorOf(mutationOutOfOrder(last + 1)),
          });
          break;
        }
        // Counted only when it is to run: a replay of a write already applied writes nothing.
        const retryAfter = await limit(mutation.name);
        if (retryAfter !== undefined) {
          results.push({
            id,
            ok: false,
            retry: true,
            retryAfter,
            error: errorOf(rateLimited(retryAfter)),
          });
          break;
        }
        const applied = await applyOne(caller, key, mutation);
        if (applied.kind === 'gap') {
          results.push({
            id,
            ok: false,
            retry: true,
            error: errorOf(mutationOutOfOrder(applied.expected)),
          });
          break;
        }
        if (applied.kind === 'skipped') results.push(await replayOf(key, id));
        else if (applied.kind === 'refused') results.push({ id, ok: false, error: applied.error });
        else results.push({ id, ok: true, result: applied.result, createdId: applied.createdId });
        last = id;
      }
      return { lastMutationID: last, results };
    },
  };
}
