import { createBetSharesService } from '../bets/bet-shares.service';
import { createBetsService } from '../bets/bets.service';
import { createFairResolutionService } from '../bets/fair-resolution.service';
import { createWagersService } from '../bets/wagers.service';
import { createCommentsService } from '../comments/comments.service';
import { requireLiveCaller } from '../auth/session-liveness';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import type { EventBus, PublishedEvent, WriteOrigin } from '../events';
import { createGroupMembersService } from '../groups/group-members.service';
import { createGroupsService } from '../groups/groups.service';
import { createNotificationsService } from '../notifications/notifications.service';
import { createRoundsService } from '../rounds/rounds.service';
import { createSeasonsService } from '../seasons/seasons.service';
import { refusalOf } from '../error-handler';
import {
  firstAnswer,
  recordAnswer,
  type IdempotencyRequest,
  type StoredResponse,
} from '../idempotency/idempotency.service';
import {
  JSON_ANSWER_HEADERS,
  type AnyWrite,
  type KeyedAnswer,
  type WriteArgs,
  type WriteRunner,
} from '../writes/writes';

// The services behind every signed-in write, and the one way a write runs (`runWriteIn`), for
// a REST route (`createWriteRunner`, one transaction per request) and for each mutation of a
// push (push.service.ts, on the mutation's transaction) alike: the caller's account and session
// are checked under the account's row lock first, then the write's services run on that same
// transaction with a bus that holds what they publish until it commits. Both ways run the very
// same code, and every decision of a write is made inside its transaction.

export interface WriteServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export interface WriteRunnerDeps extends WriteServiceDeps {
  /** Called right after the commit of a write sent with an Idempotency-Key, before anything else (a test's crash). */
  afterKeyedCommit?: () => void;
}

export type WriteServices = ReturnType<typeof createWriteServices>;

export function createWriteServices(deps: WriteServiceDeps) {
  return {
    bets: createBetsService(deps),
    shares: createBetSharesService(deps),
    wagers: createWagersService(deps),
    fair: createFairResolutionService(deps),
    groups: createGroupsService(deps),
    members: createGroupMembersService(deps),
    comments: createCommentsService(deps),
    seasons: createSeasonsService(deps),
    rounds: createRoundsService(deps),
    notifications: createNotificationsService(deps),
  };
}

/**
 * Runs `write` for `caller` on `tx`, the transaction it commits with: the caller's account row
 * is locked and its session checked first (`requireLiveCaller`: 401 once the account is deleted
 * or the session ended, whenever that happened), then the write's services run on `tx`,
 * publishing to `events` (a held bus, flushed after the commit).
 */
export async function runWriteIn(
  tx: Executor,
  deps: { events: EventBus; now?: () => Date },
  caller: AuthUser,
  write: AnyWrite,
  args: WriteArgs,
): Promise<unknown> {
  await requireLiveCaller(tx, caller, (deps.now ?? (() => new Date()))());
  const services = createWriteServices({
    db: joinedDatabase(tx),
    events: deps.events,
    now: deps.now,
  });
  return write.run(services, caller, args);
}

/** Thrown to roll back a keyed write whose key answered before; the first answer is then replayed. */
class AnsweredBefore extends Error {}

/**
 * The REST routes' way to run a write (`registerWrites`): one transaction of its own, events
 * after its commit. A write sent with an Idempotency-Key (`runKeyed`) records its key and answer
 * in that same transaction, as a push records a mutation id (docs/architecture.md §4).
 */
export function createWriteRunner({
  db,
  events,
  now,
  afterKeyedCommit = () => undefined,
}: WriteRunnerDeps): WriteRunner {
  async function runHeld<T>(work: (tx: Executor, bus: EventBus) => Promise<T>): Promise<T> {
    const held = heldEvents();
    const result = await db.transaction(async (tx) => {
      held.clear(); // a retried transaction publishes only what its last run did
      return work(tx, held.bus);
    });
    held.flushTo(events);
    return result;
  }

  return {
    async run(caller: AuthUser, write: AnyWrite, args: WriteArgs): Promise<unknown> {
      return runHeld((tx, bus) => runWriteIn(tx, { events: bus, now }, caller, write, args));
    },

    /**
     * Runs `write` once per `key`: its answer (`answer` serializes the result as the route
     * sends it) is recorded with the key in the write's transaction. A key that answered before
     * (a retry, a twin that committed first) rolls this run back and answers that first answer;
     * a final refusal (a 4xx but 401) is recorded too, in a transaction of its own, as a push
     * records one. A key recorded for another request answers 422.
     */
    async runKeyed(
      caller: AuthUser,
      write: AnyWrite,
      args: WriteArgs,
      key: IdempotencyRequest,
      answer: (result: unknown) => StoredResponse,
    ): Promise<KeyedAnswer> {
      for (;;) {
        let response: StoredResponse;
        try {
          response = await runHeld(async (tx, bus) => {
            const result = await runWriteIn(tx, { events: bus, now }, caller, write, args);
            const first = answer(result);
            if (!(await recordAnswer(tx, key, first))) throw new AnsweredBefore();
            return first;
          });
          afterKeyedCommit();
          return { response, replayed: false };
        } catch (error) {
          if (!(error instanceof AnsweredBefore)) {
            const refusal = refusalOf(error);
            // Not final: a session that ended (401), a crash, a database away. Nothing is kept.
            if (!refusal || refusal.statusCode === 401) throw error;
            const refused: StoredResponse = {
              statusCode: refusal.statusCode,
              body: JSON.stringify(refusal.toBody()),
              headers: JSON_ANSWER_HEADERS,
            };
            if (await recordAnswer(db, key, refused)) return { response: refused, replayed: false };
          }
        }
        const first = await firstAnswer(db, key);
        // Forgotten between the two statements (24 h passed): run as new.
        if (first) return { response: first, replayed: true };
      }
    },
  };
}

/**
 * The caller's transaction seen as a database: every statement runs on it, and a service's own
 * `db.transaction(…)` runs its work right on it. Never a second transaction, and no savepoint
 * (two round trips on every write): a refusal thrown there rolls back the whole of it anyway,
 * the caller's transaction gets the error too, and no write service catches one to carry on.
 */
export function joinedDatabase(tx: Executor): Database {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === 'transaction')
        return (run: (inner: Executor) => Promise<unknown>) => run(target);
      return Reflect.get(target, property, receiver) as unknown;
    },
  }) as Database;
}

/** A bus that keeps what is published until `flushTo` (after the commit) or `clear` (a rollback, a retry). */
export function heldEvents() {
  let held: PublishedEvent[] = [];
  const bus: EventBus = {
    publish(event, payload, audience) {
      held.push({ event, payload, audience } as PublishedEvent);
    },
    subscribe() {
      throw new Error('A held bus only collects: subscribe to the app bus');
    },
  };
  return {
    bus,
    clear() {
      held = [];
    },
    /** Publishes, in order, what was held on the app's bus, once, naming the pushed write it came from. */
    flushTo(events: EventBus, origin?: WriteOrigin) {
      const due = held;
      held = [];
      for (const { event, payload, audience } of due)
        events.publish(event, payload as never, audience, origin);
    },
  };
}
