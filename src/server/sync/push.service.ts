import type {
  SyncMutationError,
  SyncMutationResult,
  SyncPushResponse,
} from '../../domain/schemas/sync';
import { tokenWriteRefusal } from '../../domain/policies/token-scopes';
import type { SyncMutationName } from '../../domain/sync';
import type { z } from '../../domain/schemas/zod';
import { requireLiveCaller } from '../auth/session-liveness';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import {
  insufficientScope,
  mutationOutOfOrder,
  rateLimited,
  tooManySyncClients,
  validationFailed,
  type AppError,
} from '../errors';
import { refusalOf } from '../error-handler';
import type { EventBus } from '../events';
import {
  admitNewClient,
  findOutcome,
  lockClient,
  readLastMutationId,
  recordMutation,
  type ClientKey,
} from './client-mutations';
import { SYNC_MUTATIONS } from './sync-mutations';
import { heldEvents, runWriteIn } from './write-services';
import { argsSchemaOf, type AnyWrite } from '../writes/writes';

// POST /api/sync/push (docs/architecture.md §8; Replicache's push is the model): a device's
// writes, in order, each in ITS OWN transaction that first locks the client's row, skips an id
// already applied, stops at one that skips ahead or is over a rate limit, runs the REST route's
// service on that same transaction and writes the client's last mutation id in it (the lock
// answers the last id: a push reads nothing before its first write). So a write and the record
// that it happened commit together: a process dying between the commit and the answer leaves nothing to
// guess, the next push skips it and the pull reports it.
//
// A write the service refuses (a 4xx) is rolled back, then its id is recorded with the refusal
// in a fresh transaction: it is final, like the REST answer, and the device shows its message.
// What a service publishes is held until its mutation commits, then published as the REST
// route would (events.ts), naming the mutation it came from (the realtime gateway tells the
// author's own sockets): nothing is announced for a write rolled back or run again.
//
// A mutation that stops before running (a gap, a rate limit, a new client past the user's
// bound) rolls its transaction back: a push that applies nothing writes nothing, not even the
// row of a client it named for the first time (issue 41, finding 4).

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

/** What became of one pushed mutation, from its transaction (which read the client's last id). */
type Applied =
  | { kind: 'applied'; result: unknown; createdId: number | null }
  | { kind: 'refused'; error: SyncMutationError }
  /** An id applied before: `last` is the client's last id. */
  | { kind: 'skipped'; last: number }
  | { kind: 'gap'; expected: number }
  /** The next id, over a rate limit: nothing ran. */
  | { kind: 'limited'; retryAfter: number }
  /** A new client's first id while the user's clients are at their bound: nothing ran. */
  | { kind: 'crowded'; retryAfter: number };

type PushedMutation = SyncPushInput['mutations'][number];
/** Given the client's last id (its row locked): why the mutation stops here, or undefined to run it. */
type NextIdCheck = (tx: Executor, last: number) => Promise<Applied | undefined>;

/** Thrown to roll back a mutation's transaction that stopped before running; carries why. */
class StoppedBeforeRunning {
  constructor(readonly verdict: Applied) {}
}

const errorOf = (refusal: AppError): SyncMutationError => ({
  ...refusal.toBody(),
  status: refusal.statusCode,
});

/** `id` cannot run before `expected` has: the device sends it again with the rest. */
const outOfOrder = (id: number, expected: number): SyncMutationResult => ({
  id,
  ok: false,
  retry: true,
  error: errorOf(mutationOutOfOrder(expected)),
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
  /**
   * The checks every mutation's transaction makes once it holds the client's row: an id applied
   * before is skipped, one past the next is a gap, a new client's first one must find room
   * among the user's clients (admitNewClient), and the next one is counted against its rate
   * limits, once (a retried transaction, or the refusal's own after the write's was rolled
   * back, gets the same answer; a replay or a gap counts nothing). Undefined: it runs.
   */
  function nextIdCheck(
    key: ClientKey,
    mutation: PushedMutation,
    limit: MutationLimiter,
  ): NextIdCheck {
    let verdict: Promise<number | undefined> | undefined;
    return async (tx, last) => {
      if (mutation.id <= last) return { kind: 'skipped', last };
      if (mutation.id > last + 1) return { kind: 'gap', expected: last + 1 };
      if (last === 0) {
        const wait = await admitNewClient(tx, key, now());
        if (wait !== undefined) return { kind: 'crowded', retryAfter: wait };
      }
      verdict ??= limit(mutation.name);
      const retryAfter = await verdict;
      return retryAfter === undefined ? undefined : { kind: 'limited', retryAfter };
    };
  }

  /** Records the mutation as refused, in a transaction of its own (the write's was rolled back, or never ran). */
  async function recordRefusal(
    caller: AuthUser,
    key: ClientKey,
    mutation: PushedMutation,
    refusal: AppError,
    check: NextIdCheck,
  ): Promise<Applied> {
    const error = errorOf(refusal);
    return untilStopped(async (tx): Promise<Applied> => {
      const stop = await check(tx, await lockClient(tx, key));
      if (stop) throw new StoppedBeforeRunning(stop);
      // Recording is a write too: none after the caller's session or account has ended.
      await requireLiveCaller(tx, caller, now());
      await recordMutation(tx, key, mutation.id, { error }, now());
      return { kind: 'refused', error };
    });
  }

  /** A mutation's transaction; one that stopped before running is rolled back and answers why. */
  async function untilStopped(work: (tx: Executor) => Promise<Applied>): Promise<Applied> {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (error instanceof StoppedBeforeRunning) return error.verdict;
      throw error;
    }
  }

  async function applyOne(
    caller: AuthUser,
    key: ClientKey,
    mutation: PushedMutation,
    limit: MutationLimiter,
  ): Promise<Applied> {
    const definition: AnyWrite = SYNC_MUTATIONS[mutation.name];
    const parsed = argsSchemaOf(definition).safeParse(mutation.args);
    const check = nextIdCheck(key, mutation, limit);
    // An API token pushes only the writes its scopes allow, by name (policies/token-scopes.ts).
    const scope = caller.apiToken && tokenWriteRefusal(caller.apiToken.scopes, mutation.name);
    if (scope) return recordRefusal(caller, key, mutation, insufficientScope(scope.needs), check);
    if (!parsed.success)
      return recordRefusal(caller, key, mutation, invalidArgs(parsed.error), check);
    const held = heldEvents();
    let applied: Applied;
    try {
      applied = await untilStopped(async (tx): Promise<Applied> => {
        held.clear(); // a retried transaction publishes only what its last run did
        const stop = await check(tx, await lockClient(tx, key));
        if (stop) throw new StoppedBeforeRunning(stop);
        // The caller is checked in each mutation's transaction, under their account's row lock:
        // a push still running when its account is deleted or its session ends stops there.
        const result = await runWriteIn(
          tx,
          { events: held.bus, now },
          caller,
          definition,
          parsed.data as never,
        );
        const createdId = definition.created?.(result) ?? null;
        await recordMutation(tx, key, mutation.id, { createdId }, now());
        return { kind: 'applied', result, createdId };
      });
    } catch (error) {
      const refusal = refusalOf(error);
      // Another's client group, or a caller whose session ended or account went meanwhile: the
      // whole push is refused (403, 401) and nothing more is written, not even the refusal.
      if (!refusal || refusal.code === 'client_group_not_yours' || refusal.statusCode === 401)
        throw error;
      return recordRefusal(caller, key, mutation, refusal, check);
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
      // The client's last id, known once a mutation's transaction has locked its row (which
      // refuses another user's client group, 403, before anything runs); ids up to it are replays.
      let last: number | undefined;
      const results: SyncMutationResult[] = [];
      for (const mutation of input.mutations) {
        const { id } = mutation;
        if (last !== undefined && id <= last) {
          results.push(await replayOf(key, id));
          continue;
        }
        if (last !== undefined && id > last + 1) {
          results.push(outOfOrder(id, last + 1));
          break;
        }
        const applied = await applyOne(caller, key, mutation, limit);
        if (applied.kind === 'gap') {
          results.push(outOfOrder(id, applied.expected));
          last = applied.expected - 1;
          break;
        }
        if (applied.kind === 'limited' || applied.kind === 'crowded') {
          const { retryAfter } = applied;
          const refusal =
            applied.kind === 'limited' ? rateLimited(retryAfter) : tooManySyncClients(retryAfter);
          results.push({ id, ok: false, retry: true, retryAfter, error: errorOf(refusal) });
          last = id - 1;
          break;
        }
        if (applied.kind === 'skipped') {
          results.push(await replayOf(key, id));
          last = applied.last;
          continue;
        }
        if (applied.kind === 'refused') results.push({ id, ok: false, error: applied.error });
        else results.push({ id, ok: true, result: applied.result, createdId: applied.createdId });
        last = id;
      }
      // Nothing pushed (or nothing locked): the last id is read, with the same refusal.
      last ??= await readLastMutationId(db, key);
      return { lastMutationID: last, results };
    },
  };
}
