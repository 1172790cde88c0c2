import type { FastifyBaseLogger } from 'fastify';
import { createBackgroundWork } from '../background-work';
import type { Database } from '../db/connect';
import type { NotificationRow } from '../db/schema';
import type { EventBus, PublishedEvent } from '../events';
import { listActiveMemberIds } from '../groups/membership-queries';
import { commentNotices } from './comment-notices';
import { newsNotices } from './news-notices';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import { presentNotification, saveNotifications } from './notification-store';
import { deletedAccountsAmong, unnameActor } from './notification-erasure';
import { withoutMuted } from './notification-settings';
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

/** Publishes what `saveNotifications` wrote: each entry to its owner, and the pushes due (never the quiet ones). */
export function announceNotifications(
  events: EventBus,
  saved: Awaited<ReturnType<typeof saveNotifications>>,
  isQuiet: (row: NotificationRow) => boolean = () => false,
): void {
  for (const { row, isPushDue } of saved) {
    const notification = presentNotification(row);
    events.publish('notificationSaved', notification, { userId: row.userId });
    if (isPushDue && !isQuiet(row))
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
    async save(kind, entries, quiet) {
      const saved = await saveNotifications(db, kind, entries, now());
      if (saved.length === 0) return;
      // An account deleted while this was on its way: the deletion's scrub may have run before
      // these rows existed, so scrub again, and announce nothing of theirs (the next pull brings
      // the rows).
      const actorIds = new Set(
        entries.flatMap((entry) => (typeof entry.actorId === 'number' ? [entry.actorId] : [])),
      );
      const deleted = await deletedAccountsAmong(db, [...actorIds]);
      for (const actorId of deleted) await unnameActor(db, actorId);
      const isQuiet =
        typeof quiet === 'function' ? quiet : (row: NotificationRow) => !!quiet?.has(row.userId);
      announceNotifications(
        events,
        deleted.size === 0
          ? saved
          : saved.filter(({ row }) => row.actorId === null || !deleted.has(row.actorId)),
        isQuiet,
      );
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
