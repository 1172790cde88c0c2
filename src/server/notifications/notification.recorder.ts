import type { FastifyBaseLogger } from 'fastify';
import type { NotificationKind } from '../../domain/notifications';
import { createBackgroundWork } from '../background-work';
import type { Database } from '../db/connect';
import type { NotificationRow } from '../db/schema';
import type { EventBus, PublishedEvent } from '../events';
import { listActiveMemberIds } from '../groups/membership.service';
import { commentNotices } from './comment-notices';
import { newsNotices } from './news-notices';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import {
  isDeletedAccount,
  presentNotification,
  saveNotifications,
  unnameActor,
  withoutMuted,
  type NotificationEntry,
} from './notification-store';
import { oddsNotices } from './odds-notices';
import { resultNotices } from './result-notices';

// Turns the bus's domain events into inbox entries, one family per file: what is new in your
// group (news-notices.ts), how a bet ended and what happened to its result (result-notices.ts),
// comments on a bet you take part in (comment-notices.ts), the odds moving on a bet you backed
// (odds-notices.ts). Each entry reaches its owner's sockets (`notificationSaved`), and the push
// module hears `notificationPushDue` for the entries that are due a push (it applies the
// player's push choices and mutes). The work runs on a later turn of the event loop, off the
// request's path.

declare module 'fastify' {
  interface FastifyInstance {
    /** Inbox entries being written; tests await idle() instead of sleeping. */
    notifications: { idle(): Promise<void> };
  }
}

export interface NotificationRecorderDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
  logger: Pick<FastifyBaseLogger, 'error'>;
}

export interface NotificationRecorder {
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Publishes what `saveNotifications` wrote: each entry to its owner, and the pushes due (never to `quiet`). */
export function announceNotifications(
  events: EventBus,
  saved: Awaited<ReturnType<typeof saveNotifications>>,
  quiet: ReadonlySet<number> = new Set(),
): void {
  for (const { row, isPushDue } of saved) {
    const notification = presentNotification(row);
    events.publish('notificationSaved', notification, { userId: row.userId });
    if (isPushDue && !quiet.has(row.userId))
      events.publish('notificationPushDue', notification, { userId: row.userId });
  }
}

export function startNotificationRecorder({
  db,
  events,
  now = () => new Date(),
  logger,
}: NotificationRecorderDeps): NotificationRecorder {
  const work = createBackgroundWork((error) => logger.error({ err: error }, 'inbox entry failed'));
  let stopped = false;

  const context: NoticeContext = {
    db,
    now,
    async save(
      kind: NotificationKind,
      entries: Omit<NotificationEntry, 'kind'>[],
      quiet?: ReadonlySet<number>,
    ) {
      const saved = await saveNotifications(db, kind, entries, now());
      // An account deleted while this was on its way: the deletion's scrub may have run before
      // these rows existed, so scrub again, and announce nothing (the next pull brings the rows).
      const actorId = entries[0]?.actorId;
      if (
        saved.length > 0 &&
        typeof actorId === 'number' &&
        (await isDeletedAccount(db, actorId))
      ) {
        await unnameActor(db, actorId);
        return;
      }
      announceNotifications(events, saved, quiet);
    },
    republish(rows: readonly NotificationRow[]) {
      for (const row of rows)
        events.publish('notificationSaved', presentNotification(row), { userId: row.userId });
    },
    async audience(groupId, betId, except) {
      const members = (await listActiveMemberIds(db, groupId)).filter((id) => !except.includes(id));
      return withoutMuted(db, members, groupId, betId);
    },
  };
  const handlers: NoticeHandlers = {
    ...newsNotices(context),
    ...resultNotices(context),
    ...commentNotices(context),
    ...oddsNotices(context),
  };

  function record(published: PublishedEvent): Promise<void> {
    const handle = handlers[published.event] as
      ((payload: PublishedEvent['payload']) => Promise<void>) | undefined;
    return handle ? handle(published.payload) : Promise.resolve();
  }

  const unsubscribe = events.subscribe((published) => {
    // The events that make no entry are ignored at once.
    if (stopped || !(published.event in handlers)) return;
    work.track(
      (async () => {
        // A later turn of the event loop: the publishing request finishes first.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await record(published);
      })(),
    );
  });

  return {
    idle: work.idle,
    async stop() {
      stopped = true;
      unsubscribe();
      await work.idle();
    },
  };
}
