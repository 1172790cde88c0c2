import { createBetsService } from '../bets/bets.service';
import { createFairResolutionService } from '../bets/fair-resolution.service';
import { createWagersService } from '../bets/wagers.service';
import { createCommentsService } from '../comments/comments.service';
import type { Database, Executor } from '../db/connect';
import type { EventBus, PublishedEvent, WriteOrigin } from '../events';
import { createGroupMembersService } from '../groups/group-members.service';
import { createGroupsService } from '../groups/groups.service';
import { createNotificationsService } from '../notifications/notifications.service';
import { createSeasonsService } from '../seasons/seasons.service';

// The services behind every signed-in write, built from one database and one bus. app.ts builds
// them once for the REST routes; a push (push.service.ts) builds them again for each mutation
// on that mutation's transaction and a bus that holds what they publish until it commits, so
// both ways run the very same code.

export interface WriteServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type WriteServices = ReturnType<typeof createWriteServices>;

export function createWriteServices(deps: WriteServiceDeps) {
  return {
    bets: createBetsService(deps),
    wagers: createWagersService(deps),
    fair: createFairResolutionService(deps),
    groups: createGroupsService(deps),
    members: createGroupMembersService(deps),
    comments: createCommentsService(deps),
    seasons: createSeasonsService(deps),
    notifications: createNotificationsService(deps),
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
    /** Publishes, in order, what was held on the app's bus, once, naming the write it came from. */
    flushTo(events: EventBus, origin: WriteOrigin) {
      const due = held;
      held = [];
      for (const { event, payload, audience } of due)
        events.publish(event, payload as never, audience, origin);
    },
  };
}
