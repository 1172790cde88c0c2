import type { FastifyBaseLogger } from 'fastify';
import type { PushNotification } from '../../domain/push';
import type {
  BetCreatedPayload,
  BetResolvedPayload,
  UserJoinedGroupPayload,
} from '../../domain/realtime-events';
import { findBet, loadWagers } from '../bets/bet-queries';
import type { Database } from '../db/connect';
import type { BusEventName, EventBus, PublishedEvent, WagerSavedPayload } from '../events';
import {
  findActiveMembershipWithName,
  findGroupName,
  listActiveMemberIds,
} from '../groups/membership.service';
import {
  betCreatedMessage,
  betResolvedMessage,
  memberJoinedMessage,
  oddsChangedMessage,
} from './push-messages';
import type { PushSender } from './push.sender';
import type { Destination, PushService } from './push.service';

// Turns the bus's domain events into web push notifications (ARCHITECTURE.md §7): a bet
// created, the odds moving on a bet you backed (at most once per bet per 10 minutes), your
// bet resolved, a member joining. Only current members of the event's group hear of it, and
// never the person who caused it.
//
// Sending never slows down or fails the request that caused the event: the listener only
// queues the work, which starts on a later turn of the event loop, after the response is on
// its way; sends run a few at a time, each with a deadline, and failures are logged.

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
// is stale after a day, odds after an hour; a result still matters a week later.
const TTL_SECONDS = {
  betCreated: 24 * 3600,
  oddsChanged: 3600,
  betResolved: 7 * 24 * 3600,
  userJoinedGroup: 24 * 3600,
} as const;

/** The events that become notifications; everything else on the bus is ignored at once. */
const NOTIFYING_EVENTS = new Set<BusEventName>([
  'betCreated',
  'wagerSaved',
  'betResolved',
  'userJoinedGroup',
]);

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
  let inFlight = 0;
  let idleWaiters: Array<() => void> = [];
  let stopped = false;

  function track(work: Promise<void>): void {
    inFlight += 1;
    void work
      .catch((error: unknown) => logger.error({ err: error }, 'push notification failed'))
      .finally(() => {
        inFlight -= 1;
        if (inFlight === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      });
  }

  // ---- who hears what ----

  async function betCreated(event: BetCreatedPayload): Promise<Delivery[]> {
    const destinations = await push.listGroupDestinations(event.groupId, event.createdBy);
    if (destinations.length === 0) return [];
    const groupName = (await findGroupName(db, event.groupId)) ?? 'your group';
    const creator = await findActiveMembershipWithName(db, event.groupId, event.createdBy);
    const notification = betCreatedMessage({
      betId: event.betId,
      betTitle: event.title,
      groupName,
      creatorName: creator?.userName ?? 'A member',
    });
    return destinations.map((destination) => ({
      destination,
      notification,
      ttlSeconds: TTL_SECONDS.betCreated,
    }));
  }

  async function wagerSaved(event: WagerSavedPayload): Promise<Delivery[]> {
    // Every wager lands here: the members who can be reached at all come first (one small
    // statement), so a group without push subscriptions costs no bet or wager reads.
    const reachable = await push.listGroupDestinations(event.groupId, event.userId);
    if (reachable.length === 0) return [];
    const bet = await findBet(db, event.betId);
    // A wager racing the resolution: the result notice says all there is to say.
    if (bet.state !== 'active') return [];
    const memberSet = new Set(reachable.map((destination) => destination.userId));
    const predictions = new Map<number, string>();
    for (const wager of (await loadWagers(db, [bet.id])).get(bet.id) ?? []) {
      if (memberSet.has(wager.userId)) predictions.set(wager.userId, wager.prediction);
    }
    const destinations = reachable.filter((destination) => predictions.has(destination.userId));
    if (destinations.length === 0) return [];
    // Claimed only for people who can be reached, so turning push on later is not met by a stale limit.
    const claimed = new Set(
      await push.claimOddsNotices(bet.id, [...new Set(destinations.map((d) => d.userId))]),
    );
    return destinations
      .filter((destination) => claimed.has(destination.userId))
      .map((destination) => ({
        destination,
        notification: oddsChangedMessage({
          betId: bet.id,
          betTitle: bet.title,
          bet,
          prediction: predictions.get(destination.userId)!,
          answerTotals: event.answerTotals,
          pool: event.pool,
        }),
        ttlSeconds: TTL_SECONDS.oddsChanged,
      }));
  }

  async function betResolved(event: BetResolvedPayload): Promise<Delivery[]> {
    const bet = await findBet(db, event.betId);
    const resolver = bet.resolvedBy ?? bet.createdBy;
    const members = new Set(await listActiveMemberIds(db, event.groupId));
    const byUser = new Map(
      event.distributions
        .filter((d) => d.userId !== resolver && members.has(d.userId))
        .map((d) => [d.userId, d]),
    );
    const destinations = await push.listDestinations([...byUser.keys()]);
    return destinations.map((destination) => ({
      destination,
      notification: betResolvedMessage({
        betId: bet.id,
        betTitle: bet.title,
        distribution: byUser.get(destination.userId)!,
      }),
      ttlSeconds: TTL_SECONDS.betResolved,
    }));
  }

  async function userJoinedGroup(event: UserJoinedGroupPayload): Promise<Delivery[]> {
    const destinations = await push.listGroupDestinations(event.groupId, event.userId);
    if (destinations.length === 0) return [];
    const groupName = (await findGroupName(db, event.groupId)) ?? 'your group';
    const memberCount = (await listActiveMemberIds(db, event.groupId)).length;
    const notification = memberJoinedMessage({
      groupId: event.groupId,
      groupName,
      userName: event.userName,
      memberCount,
    });
    return destinations.map((destination) => ({
      destination,
      notification,
      ttlSeconds: TTL_SECONDS.userJoinedGroup,
    }));
  }

  function plan(published: PublishedEvent): Promise<Delivery[]> | undefined {
    switch (published.event) {
      case 'betCreated':
        return betCreated(published.payload);
      case 'wagerSaved':
        return wagerSaved(published.payload);
      case 'betResolved':
        return betResolved(published.payload);
      case 'userJoinedGroup':
        return userJoinedGroup(published.payload);
      default:
        return undefined;
    }
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

  async function handle(published: PublishedEvent): Promise<void> {
    // A later turn of the event loop: the publishing request finishes first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const deliveries = await plan(published);
    await Promise.all(
      (deliveries ?? []).map((delivery) =>
        deliver(delivery).catch((error: unknown) =>
          logger.error({ err: error }, 'push delivery failed'),
        ),
      ),
    );
  }

  const unsubscribe = events.subscribe((published) => {
    if (stopped) return;
    if (NOTIFYING_EVENTS.has(published.event)) track(handle(published));
  });

  function idle(): Promise<void> {
    return inFlight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => idleWaiters.push(resolve));
  }

  return {
    idle,
    async stop() {
      stopped = true;
      unsubscribe();
      await idle();
    },
  };
}
