import type { FastifyBaseLogger } from 'fastify';
import {
  notificationLink,
  notificationTag,
  notificationText,
} from '../../domain/notification-texts';
import {
  pushKindOf,
  type Notification,
  type NotificationKind,
  type NotificationSettings,
} from '../../domain/notifications';
import type { PushNotification } from '../../domain/push';
import type { Database } from '../db/connect';
import type { EventBus } from '../events';
import {
  findNotificationSettingsOf,
  presentNotificationSettings,
} from '../notifications/notification-settings';
import type { PushSender } from './push.sender';
import type { Destination, PushService } from './push-subscriptions.service';
import { createBackgroundWork } from '../background-work';

// Sends web push notifications (docs/architecture.md §7): every push is the copy of an inbox entry
// due one (src/server/notifications decides who gets an entry, the odds moving on a bet you
// backed included; here the player's push choices and mutes decide whether it is pushed).
//
// Sending never slows down or fails the request that caused the event: the listener only
// queues the work, which starts on a later turn of the event loop, after the response is on
// its way; sends run a few at a time, each with a deadline, and failures are logged. The
// entries due a push in one turn are planned together (a busy group's wagers make dozens of
// "odds moved" entries at once): one statement finds which of their players have a device to
// push to, and only if some do, one more reads those players' push choices and mutes.

declare module 'fastify' {
  interface FastifyInstance {
    /** Push notifications in flight; tests await idle() instead of sleeping. */
    push: { idle(): Promise<void> };
  }
}

/** How many push requests are in flight at once, across all events. */
const MAX_CONCURRENT_SENDS = 8;
/** Beyond this many sends waiting, new ones are dropped (and logged) rather than piling up in memory. */
const MAX_WAITING_SENDS = 10_000;

// How long a push service keeps a message for an offline device: news of a bet or a join
// is stale after a day, odds after an hour; a result or a season's end still matters a week later.
const TTL_SECONDS = {
  betCreated: 24 * 3600,
  closesSoon: 2 * 3600,
  resolveReminder: 24 * 3600,
  betResult: 7 * 24 * 3600,
  memberJoined: 24 * 3600,
  comments: 24 * 3600,
  resultUndone: 24 * 3600,
  disputeOpened: 24 * 3600,
  disputeClosed: 7 * 24 * 3600,
  floorTopUp: 7 * 24 * 3600,
  oddsChanged: 3600,
  seasonEnded: 7 * 24 * 3600,
  removedFromGroup: 7 * 24 * 3600,
  webhookPaused: 7 * 24 * 3600,
} as const satisfies Record<NotificationKind, number>;

/** An inbox entry due a push, and whose it is. */
interface DuePush {
  userId: number;
  notification: Notification;
}

interface Delivery {
  destination: Destination;
  notification: PushNotification;
  ttlSeconds: number;
}

export interface PushNotifierDeps {
  db: Database;
  events: EventBus;
  push: PushService;
  sender: PushSender;
  logger: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'>;
}

export interface PushNotifier {
  /** Resolves once every queued event has been handled and its sends have finished. */
  idle(): Promise<void>;
  /** Stops listening and waits for the work in flight (each send has its own deadline). */
  stop(): Promise<void>;
}

/** Whether the player muted the entry's group or bet. */
function isMuted(
  settings: NotificationSettings,
  notification: Pick<Notification, 'groupId' | 'betId'>,
): boolean {
  return (
    settings.mutedGroupIds.includes(notification.groupId) ||
    (notification.betId !== null && settings.mutedBetIds.includes(notification.betId))
  );
}

/** Runs at most `max` tasks at once; a finished task hands its slot straight to the next waiting one. */
function createLimiter(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    get waiting() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < max) active += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active -= 1;
      }
    },
  };
}

export function startPushNotifier({
  db,
  events,
  push,
  sender,
  logger,
}: PushNotifierDeps): PushNotifier {
  const limiter = createLimiter(MAX_CONCURRENT_SENDS);
  const work = createBackgroundWork((error) =>
    logger.error({ err: error }, 'push notification failed'),
  );
  let stopped = false;

  // ---- who hears what ----

  async function plan(due: readonly DuePush[]): Promise<Delivery[]> {
    const pushable = due.flatMap((entry) => {
      const kind = pushKindOf(entry.notification.kind);
      return kind === null ? [] : [{ ...entry, kind }];
    });
    const destinations = await push.listDestinations([
      ...new Set(pushable.map(({ userId }) => userId)),
    ]);
    if (destinations.length === 0) return [];
    const devicesOf = new Map<number, Destination[]>();
    for (const destination of destinations) {
      const devices = devicesOf.get(destination.userId);
      if (devices) devices.push(destination);
      else devicesOf.set(destination.userId, [destination]);
    }
    const settingsOf = await findNotificationSettingsOf(db, [...devicesOf.keys()]);
    return pushable.flatMap(({ userId, notification, kind }) => {
      const devices = devicesOf.get(userId);
      if (!devices) return [];
      const settings = presentNotificationSettings(settingsOf.get(userId));
      if (settings.pushOff.includes(kind) || isMuted(settings, notification)) return [];
      const { title, body } = notificationText(notification);
      const message: PushNotification = {
        title,
        body,
        url: notificationLink(notification),
        tag: notificationTag(notification),
      };
      return devices.map((destination) => ({
        destination,
        notification: message,
        ttlSeconds: TTL_SECONDS[notification.kind],
      }));
    });
  }

  // ---- sending ----

  async function deliver({ destination, notification, ttlSeconds }: Delivery): Promise<void> {
    if (limiter.waiting >= MAX_WAITING_SENDS) {
      logger.warn({ subscriptionId: destination.id }, 'push queue full, notification dropped');
      return;
    }
    const result = await limiter.run(() => sender.send(destination, notification, { ttlSeconds }));
    // The endpoint is a bearer capability for that browser: log the subscription id, never the URL.
    if (result.outcome === 'sent') await push.markDelivered(destination);
    else if (result.outcome === 'gone') {
      logger.debug(
        { subscriptionId: destination.id, status: result.status },
        'push subscription gone, deactivated',
      );
      await push.markGone(destination);
    } else
      logger.warn(
        { subscriptionId: destination.id, status: result.status, err: result.error },
        'push send failed',
      );
  }

  /** The entries due a push heard in this turn of the event loop, planned together in the next. */
  let due: DuePush[] = [];

  async function handle(): Promise<void> {
    // A later turn of the event loop: the publishing requests finish first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const batch = due;
    due = [];
    const deliveries = await plan(batch);
    await Promise.all(
      deliveries.map((delivery) =>
        deliver(delivery).catch((error: unknown) =>
          logger.error({ err: error }, 'push delivery failed'),
        ),
      ),
    );
  }

  const unsubscribe = events.subscribe((published) => {
    // Push hears one event of the bus; every other event reaches players another way.
    if (stopped || published.event !== 'notificationPushDue') return;
    if (!('userId' in published.audience)) return;
    due.push({ userId: published.audience.userId, notification: published.payload });
    if (due.length === 1) work.track(handle());
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
