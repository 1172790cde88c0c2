import type { RealtimeEventName, RealtimeEventPayload } from '../../domain/realtime-events';
import { roomOf, type PublishedEvent } from '../events';
import { groupRoom, userRoom, type HunchServer } from './socket-server';

// Where each event of the bus goes (docs/architecture.md §7): to its audience's room only,
// never a broadcast; the internal events move sockets between rooms or end sessions instead.

export interface EventRoutingDeps {
  /** Closes this instance's sockets of the user whose sessions ended. */
  closeEndedSessions(userId: number): Promise<void>;
  /** Whether other instances hear this one (the Redis adapter): then they are told too. */
  hasOtherInstances: boolean;
}

/** The bus listener that forwards each published event to the sockets it is for. */
export function eventRouter(
  io: HunchServer,
  { closeEndedSessions, hasOtherInstances }: EventRoutingDeps,
) {
  function emitTo<E extends RealtimeEventName>(
    rooms: string | string[],
    event: E,
    payload: RealtimeEventPayload<E>,
  ): void {
    // socket.io's emit types its arguments per event name; with E generic they cannot be
    // spread, so the payload is passed through a signature that is the same for every event.
    const emit = io.to(rooms).emit.bind(io.to(rooms)) as (
      event: E,
      payload: RealtimeEventPayload<E>,
    ) => boolean;
    emit(event, payload);
  }

  function forward(published: PublishedEvent): void {
    // The default is the rule here, not a forgotten case: a client-facing event goes to its
    // audience unless a case above says otherwise.
    // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check
    switch (published.event) {
      case 'sessionsRevoked': {
        // Internal, never emitted: on every instance, the user's sockets of ended sessions close.
        void closeEndedSessions(published.payload.userId);
        // Other instances exist only behind the Redis adapter (the in-memory one refuses, noisily).
        if (hasOtherInstances) io.serverSideEmit('sessionsRevoked', published.payload.userId);
        return;
      }
      case 'membershipEnded': {
        // Internal, never emitted: the former member's sockets, on every instance, stop hearing the group.
        const { groupId, userId } = published.payload;
        io.in(userRoom(userId)).socketsLeave(groupRoom(groupId));
        return;
      }
      case 'userJoinedGroup': {
        const { groupId, userId } = published.payload;
        // Join first, so the new member's open sockets hear this group from now on; the emit
        // also names their user room, so they hear this very event even if a remote join
        // lands late (socket.io sends once to a socket that is in both rooms).
        io.in(userRoom(userId)).socketsJoin(groupRoom(groupId));
        emitTo([roomOf(published.audience), userRoom(userId)], published.event, published.payload);
        return;
      }
      case 'userLeftGroup': {
        // The group hears it, and so do the former member's own sockets (their other devices
        // drop the group); published before membershipEnded takes them out of the room.
        emitTo(
          [roomOf(published.audience), userRoom(published.payload.userId)],
          published.event,
          published.payload,
        );
        return;
      }
      case 'notificationPushDue':
        // Internal, never emitted: push hears it; the owner's sockets had notificationSaved.
        return;
      case 'wagerSaved': {
        // The owner's own copy at once (their other devices pull); the group hears only the
        // gathered totals, from wager-totals.announcer.ts.
        emitTo(userRoom(published.payload.userId), 'wagerPlaced', published.payload);
        return;
      }
      case 'commentPosted': {
        // A pushed comment: the author's sockets get it with the mutation it came from, so the
        // device that wrote it knows its own write; the rest of the group hears the comment only.
        const { origin } = published;
        const group = roomOf(published.audience);
        if (!origin) {
          emitTo(group, published.event, published.payload);
          return;
        }
        const author = userRoom(origin.userId);
        io.to(group).except(author).emit('commentPosted', published.payload);
        emitTo(author, 'commentPosted', {
          ...published.payload,
          clientID: origin.clientID,
          mutationID: origin.mutationID,
        });
        return;
      }
      case 'groupCreated': {
        // The creator is the first member: their sockets join the new group's room.
        if ('userId' in published.audience)
          io.in(userRoom(published.audience.userId)).socketsJoin(
            groupRoom(published.payload.groupId),
          );
        emitTo(roomOf(published.audience), published.event, published.payload);
        return;
      }
      default:
        // Type-checks only while every internal event has its case above, so none can leak to clients.
        emitTo(roomOf(published.audience), published.event, published.payload);
    }
  }

  return forward;
}
