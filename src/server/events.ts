import type { FastifyBaseLogger } from 'fastify';
import type { Notification } from '../domain/notifications';
import type {
  MutationOrigin,
  ServerToClientEvents,
  WagerPlacedPayload,
} from '../domain/realtime-events';

// The in-process bus of domain events (docs/conventions.md, "Events after commit"). A service
// publishes only after its transaction has committed, so a listener never announces a change
// that was rolled back; the realtime module (socket.io rooms) and push subscribe to it. A
// service never touches socket.io itself.

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's event bus: realtime and push subscribe here; tests listen here too. */
    events: EventBus;
  }
}

/** A membership ended: the member left, or an admin removed them. */
interface MembershipEndedPayload {
  groupId: number;
  userId: number;
}

/**
 * Events only the server's own modules hear; the realtime gateway never sends them to a
 * client (it uses them to keep socket rooms in step with memberships).
 */
interface InternalEvents {
  membershipEnded(payload: MembershipEndedPayload): void;
  /**
   * Sessions of the user ended (sign-out, sign-out everywhere, a password change or reset): the
   * gateway drops their sockets, which must then prove a live session again.
   */
  sessionsRevoked(payload: { userId: number }): void;
  /**
   * A wager was placed or changed: push and the totals announcer hear who; clients never do (the
   * gateway sends the owner their own copy).
   */
  wagerSaved(payload: WagerSavedPayload): void;
  /** An inbox entry is due a push (src/server/notifications); push decides by the player's choices. */
  notificationPushDue(payload: Notification): void;
}

/** Everything about a committed wager change except the pick. */
export type WagerSavedPayload = Required<WagerPlacedPayload>;

/** Everything the bus carries: the client-facing events of docs/groups-and-bets.md §3 and the internal ones. */
type BusEvents = ServerToClientEvents & InternalEvents;
export type BusEventName = keyof BusEvents;
export type BusEventPayload<E extends BusEventName> = Parameters<BusEvents[E]>[0];

/** Who may receive an event: everyone in a group's room, or one user's sockets (docs/architecture.md §7). */
export type Audience = { groupId: number } | { userId: number };

/**
 * The pushed write an event came from (push.service.ts): its author and the mutation of their
 * client. Absent for a REST call, a job, anything not pushed.
 */
export type WriteOrigin = MutationOrigin & { userId: number };

export type PublishedEvent = {
  [E in BusEventName]: {
    event: E;
    payload: BusEventPayload<E>;
    audience: Audience;
    origin?: WriteOrigin;
  };
}[BusEventName];

type EventListener = (published: PublishedEvent) => void | Promise<void>;

export interface EventBus {
  /**
   * Call only after the change's transaction committed. Listeners run now, in order; their failures
   * are logged, never thrown at the publisher.
   */
  publish<E extends BusEventName>(
    event: E,
    payload: BusEventPayload<E>,
    audience: Audience,
    origin?: WriteOrigin,
  ): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void;
}

/** The socket.io room of an audience: `group:{id}` or `user:{id}` (docs/architecture.md §7). */
export function roomOf(audience: Audience): string {
  return 'groupId' in audience ? `group:${audience.groupId}` : `user:${audience.userId}`;
}

export function createEventBus(logger?: Pick<FastifyBaseLogger, 'error'>): EventBus {
  const listeners = new Set<EventListener>();
  // The change is committed already: a failing listener (a socket, a push service) must not
  // turn the caller's success into an error, so it is only logged.
  const report = (error: unknown, event: string) =>
    logger?.error({ err: error, event }, 'event listener failed');
  return {
    publish(event, payload, audience, origin) {
      const published = (
        origin ? { event, payload, audience, origin } : { event, payload, audience }
      ) as PublishedEvent;
      for (const listener of [...listeners]) {
        try {
          const result = listener(published);
          if (result instanceof Promise) result.catch((error: unknown) => report(error, event));
        } catch (error) {
          report(error, event);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
