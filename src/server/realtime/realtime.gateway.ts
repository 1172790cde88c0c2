import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  TOKEN_EXPIRED_MESSAGE,
  type ClientToServerEvents,
  type RealtimeEventName,
  type RealtimeEventPayload,
  type ServerToClientEvents,
} from '../../domain/realtime-events';
import type { AccessTokens, AuthUser } from '../auth/tokens';
import { roomOf, type EventBus, type PublishedEvent } from '../events';
import { watchBusInterruptions } from './bus-interruptions';

// socket.io at /socket.io (docs/groups-and-bets.md §7, docs/architecture.md §7): the access token is checked in
// the handshake, each socket sits in its user's room and one room per group it belongs to,
// and every event of the bus goes to its audience's room only — never a broadcast, so
// nothing of a private group reaches a non-member. Rooms follow memberships live through
// the bus. With Redis, the adapter carries emits and room changes to every instance.

const SOCKET_PATH = '/socket.io';

/** The adapter's key (channel prefix) when none is given; tests give one per server pair so parallel runs never hear each other. */
const DEFAULT_REDIS_KEY = 'hunch-socket.io';

interface SocketData {
  user: AuthUser;
  /** When the handshake's access token expires (seconds since the epoch). */
  expiresAt: number;
}

/** Between instances (through the Redis adapter): a user's sessions ended, each instance checks its own sockets. */
interface ServerSideEvents {
  sessionsRevoked: (userId: number) => void;
  /** An instance's connection to the bus came back: what it published meanwhile may be lost. */
  busResumed: () => void;
}

type HunchServer = Server<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;
type HunchSocket = Socket<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;

export interface RealtimeGatewayDeps {
  /** The HTTP server socket.io attaches to (Fastify's `app.server`); it need not listen yet. */
  httpServer: HttpServer;
  events: EventBus;
  accessTokens: AccessTokens;
  /** The groups a user is an active member of now, for the rooms joined at connection. */
  listActiveGroupIds(userId: number): Promise<number[]>;
  logger: FastifyBaseLogger;
  /** PUBLIC_URL: a browser page of this origin may connect even when a proxy rewrites Host. */
  publicUrl: string;
  /** REDIS_URL: with it, the Redis adapter carries events between instances. */
  redisUrl?: string | undefined;
  redisKey?: string | undefined;
  /** Whether a token's session is still live (auth/session-liveness.ts): a token of an ended session opens no socket. */
  isSessionLive?(user: AuthUser): Promise<boolean>;
  /** The clock that expires sockets with their tokens; tests move it. */
  now?: () => Date;
  /** How often sockets whose access token expired are closed (default 15 s). */
  expiryCheckMs?: number;
  /** Open sockets of one user on this instance; a new one closes the oldest (default 20). */
  maxSocketsPerUser?: number;
}

export interface RealtimeGateway {
  io: HunchServer;
  /**
   * Shutdown, first step: drops every connection without socket.io's "server disconnect", so
   * clients reconnect (to another instance, or this one restarted).
   */
  disconnectAll(): void;
  /** Shutdown, last step: stops listening to the bus and closes the adapter and its Redis connections. */
  close(): Promise<void>;
}

const userRoom = (userId: number) => roomOf({ userId });
const groupRoom = (groupId: number) => roomOf({ groupId });

/** The token of the handshake's `auth.token`, with or without a `Bearer ` prefix. */
function tokenOf(socket: HunchSocket): string | undefined {
  const raw: unknown = (socket.handshake.auth as Record<string, unknown> | undefined)?.token;
  if (typeof raw !== 'string') return undefined;
  const token = raw.replace(/^Bearer\s+/i, '').trim();
  return token || undefined;
}

/**
 * Same origin only. A browser always sends Origin on a websocket handshake, and websockets
 * are not covered by CORS; the token in the handshake is the real guard, this only keeps
 * other sites' pages out. No Origin (a native client, the tests) is fine. The Host check
 * lets the Vite dev proxy and load balancers that keep Host through.
 */
function isSameOrigin(request: IncomingMessage, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  if (origin === publicOrigin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/**
 * engine.io keeps each connection's upgrade request for the connection's whole life, twice: as
 * the engine socket's `request`, and in the upgrade's response object, which the TCP socket's
 * close listener holds. Nothing reads it once the connection is open (the origin check runs
 * before, `tokenOf` reads the handshake's auth; socket.io's `handshake.headers` is then empty),
 * and it was a tenth of an idle socket's heap: both references go when the connection opens.
 */
function forgetUpgradeRequests(io: HunchServer): void {
  const responses = new WeakMap<IncomingMessage, { req: IncomingMessage | null }>();
  io.engine.use(
    (
      request: IncomingMessage,
      response: { req: IncomingMessage | null },
      next: (error?: Error) => void,
    ) => {
      responses.set(request, response);
      next();
    },
  );
  io.engine.on('connection', (rawSocket: { request: IncomingMessage | null }) => {
    const response = rawSocket.request && responses.get(rawSocket.request);
    if (response) response.req = null;
    rawSocket.request = null;
  });
}

/** The commands the Redis adapter sends without awaiting them. */
const ADAPTER_COMMANDS = new Set([
  'publish',
  'subscribe',
  'psubscribe',
  'unsubscribe',
  'punsubscribe',
]);

/**
 * The client as the Redis adapter gets it. The adapter sends publish and (un)subscribe without
 * awaiting them. While Redis is down they wait in ioredis's offline queue, and a shutdown
 * rejects them all ("Connection is closed"): as unhandled rejections. Through this view of the
 * client each one's failure is handled, and logged; the client itself is left as it is.
 */
export function handlingAdapterCommands(
  client: Redis,
  logger: Pick<FastifyBaseLogger, 'warn'>,
): Redis {
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (typeof key !== 'string' || !ADAPTER_COMMANDS.has(key)) return method;
      return (...args: unknown[]) => {
        const reply = method(...args) as Promise<unknown>;
        reply.catch((error: unknown) =>
          logger.warn({ err: error, command: key }, 'socket.io redis command failed'),
        );
        return reply;
      };
    },
  });
}

export async function createRealtimeGateway(deps: RealtimeGatewayDeps): Promise<RealtimeGateway> {
  const { events, accessTokens, logger } = deps;
  const publicOrigin = new URL(deps.publicUrl).origin;
  /** Shutting down: the HTTP server waits for every open connection, so none may start now. */
  let isClosing = false;
  const io: HunchServer = new Server(deps.httpServer, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    serveClient: false,
    // No `cors` option: no CORS headers, so only same-origin pages may use HTTP here.
    allowRequest: (request, callback) =>
      callback(null, !isClosing && isSameOrigin(request, publicOrigin)),
  });
  // A handshake let in just before the shutdown began ends as it completes.
  io.engine.on('connection', (client: { close(): void }) => {
    if (isClosing) client.close();
  });

  forgetUpgradeRequests(io);

  let redis: { pub: Redis; sub: Redis } | undefined;
  if (deps.redisUrl) {
    const pub = new Redis(deps.redisUrl, { lazyConnect: true });
    const sub = pub.duplicate();
    for (const client of [pub, sub])
      client.on('error', (error) => logger.warn({ err: error }, 'socket.io redis error'));
    // Unreachable at start: serve anyway, live updates on this instance only, while ioredis
    // reconnects (the adapter subscribes once the connection is up).
    const isConnected = await Promise.all([pub.connect(), sub.connect()]).then(
      () => true,
      (error: unknown) => {
        logger.error(
          { err: error },
          'socket.io redis is unreachable: live updates stay on this instance until it returns',
        );
        return false;
      },
    );
    io.adapter(
      createAdapter(handlingAdapterCommands(pub, logger), handlingAdapterCommands(sub, logger), {
        key: deps.redisKey ?? DEFAULT_REDIS_KEY,
      }),
    );
    // Commands on one connection run in order: once this answers, the adapter's subscriptions
    // are in place, so an event published by another instance right after start-up arrives.
    if (isConnected) await sub.ping();
    redis = { pub, sub };
    // Back from an interruption: this instance's sockets may have missed what others published,
    // and the others' sockets what this one did (bus-interruptions.ts). Each is told to pull.
    watchBusInterruptions(redis, () => {
      io.local.emit('syncNeeded', {});
      io.serverSideEmit('busResumed');
    });
  }

  // Sockets whose session was found live but that socket.io has not connected yet (their rooms
  // being joined, or the connection a tick away). A session's end closes these too: otherwise a
  // socket checked live just before the end would connect just after it, and stay.
  const admitting = new Set<HunchSocket>();

  // Who connects, and their rooms. Every answer goes to `next`; socket.io ignores a promise,
  // so an unexpected failure is caught below and refused, never left hanging.
  async function admit(socket: HunchSocket, next: (error?: Error) => void): Promise<void> {
    const token = tokenOf(socket);
    const verified = token ? await accessTokens.verifyWithExpiry(token) : undefined;
    if (!verified) {
      next(
        new Error(
          token
            ? 'Authentication failed: the access token is invalid or expired'
            : 'Authentication failed: no access token',
        ),
      );
      return;
    }
    const { user, exp } = verified;
    socket.data.user = user;
    socket.data.expiresAt = exp;
    // Seen by the end of its session from before the check below: an end committed after the
    // check read the session live still finds this socket and closes it.
    admitting.add(socket);
    socket.conn.once('close', () => admitting.delete(socket));
    try {
      // A token of a session that ended (sign-out, a password change or reset, a deleted
      // account), or that names none, is refused like an expired one: the client refreshes,
      // which fails for an ended session.
      if (!user.sessionFamily || (deps.isSessionLive && !(await deps.isSessionLive(user)))) {
        admitting.delete(socket);
        next(new Error('Authentication failed: the session has ended'));
        return;
      }
      // Rooms are joined before the connection completes, so the client's `connect` means
      // "everything of my groups reaches me from now on".
      await socket.join(userRoom(user.id));
      const groupIds = await deps.listActiveGroupIds(user.id);
      await socket.join(groupIds.map(groupRoom));
      next();
    } catch (error) {
      admitting.delete(socket);
      logger.error({ err: error, userId: user.id }, 'socket rooms could not be joined');
      next(new Error('Connection failed: please try again'));
    }
  }
  io.use((socket, next) => {
    admit(socket, next).catch((error: unknown) => {
      logger.error({ err: error }, 'socket could not be admitted');
      next(new Error('Connection failed: please try again'));
    });
  });

  // A user's sockets on this instance. One user opening socket after socket (a thousand, in
  // the audit) would hold as many connections and rooms: past the cap, the oldest is closed as
  // the server's own decision ("io server disconnect": the client does not reconnect by
  // itself), so the newest tab always works. Counted per instance, without a round trip to the
  // others: a user's sockets across N instances stay under N × the cap. The user's room is the
  // list (socket ids in the order they joined it, oldest first), so a socket costs no listener
  // or entry of its own for this.
  const maxSocketsPerUser = deps.maxSocketsPerUser ?? 20;
  const namespace = io.of('/');
  function capSocketsOf(userId: number): void {
    const open: HunchSocket[] = [];
    for (const id of namespace.adapter.rooms.get(userRoom(userId)) ?? []) {
      // A socket still being admitted is in the room but not connected yet: not counted.
      const socket = namespace.sockets.get(id);
      if (socket) open.push(socket);
    }
    for (const socket of open.slice(0, Math.max(0, open.length - maxSocketsPerUser)))
      socket.disconnect(true);
  }

  io.on('connection', (socket) => {
    admitting.delete(socket);
    const { user } = socket.data;
    const groupIds = [...socket.rooms]
      .filter((room) => room.startsWith('group:'))
      .map((room) => Number(room.slice('group:'.length)));
    socket.emit('connectionAuthenticated', { userId: user.id, groupIds });
    capSocketsOf(user.id);
  });

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
        if (redis) io.serverSideEmit('sessionsRevoked', published.payload.userId);
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
  /**
   * Closes this instance's sockets of the user whose session ended, as a lost connection (not
   * socket.io's "server disconnect"): the client reconnects with the token it holds now, and
   * only a token of a live session gets back in (the device that changed the password has one).
   */
  async function closeEndedSessions(userId: number): Promise<void> {
    try {
      const sockets = [...io.of('/').sockets.values(), ...admitting].filter(
        (socket) => socket.data.user?.id === userId,
      );
      const liveness = new Map<string, Promise<boolean>>();
      for (const socket of sockets) {
        const family = socket.data.user.sessionFamily;
        if (!family || !deps.isSessionLive) {
          socket.conn.close();
          continue;
        }
        if (!liveness.has(family)) liveness.set(family, deps.isSessionLive(socket.data.user));
        if (!(await liveness.get(family))) socket.conn.close();
      }
    } catch (error) {
      logger.error({ err: error, userId }, 'sockets of ended sessions could not be checked');
    }
  }
  io.on('sessionsRevoked', (userId) => void closeEndedSessions(userId));
  io.on('busResumed', () => io.local.emit('syncNeeded', {}));

  const unsubscribe = events.subscribe(forward);

  // Sockets are authenticated at connection only, so one closes when its token expires: the
  // client reconnects, refreshing its token if it must (src/client/data/socket-service.ts).
  const now = deps.now ?? (() => new Date());
  const expiryTimer = setInterval(() => {
    const seconds = now().getTime() / 1000;
    for (const socket of io.of('/').sockets.values()) {
      if (socket.data.expiresAt > seconds) continue;
      // Said first, so the client refreshes and comes straight back (no "Reconnecting" toast).
      socket.emit('authError', { message: TOKEN_EXPIRED_MESSAGE });
      socket.conn.close();
    }
  }, deps.expiryCheckMs ?? 15_000);
  expiryTimer.unref();

  return {
    io,
    disconnectAll() {
      // engine.io closes the transports: clients see "transport close" and reconnect, which a
      // socket.io "io server disconnect" would forbid (docs/groups-and-bets.md §4). A client
      // reconnecting at once is refused, and each websocket is cut rather than closed by
      // handshake: a peer that never answers the close frame (a phone gone offline) held the
      // HTTP server's close open for ws's 30 s close timeout, and a restart took 70 s.
      isClosing = true;
      // engine.io's own list of clients (typed protected): their transports, to cut once closed.
      const { clients } = io.engine as unknown as {
        clients: Record<string, { transport: { socket?: { terminate?(): void } } }>;
      };
      const transports = Object.values(clients).map((client) => client.transport);
      io.engine.close();
      for (const transport of transports) transport.socket?.terminate?.();
    },
    async close() {
      clearInterval(expiryTimer);
      unsubscribe();
      io.engine.close();
      await io.of('/').adapter.close();
      // quit() waits for a connection that may never come back: disconnect when it is not up.
      if (redis)
        await Promise.all(
          [redis.pub, redis.sub].map((client) =>
            client.status === 'ready' ? client.quit() : client.disconnect(),
          ),
        );
    },
  };
}
