import type { Server as HttpServer } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { Server } from 'socket.io';
import { TOKEN_EXPIRED_MESSAGE } from '../../domain/realtime-events';
import type { AccessTokens, AuthUser } from '../auth/tokens';
import type { EventBus } from '../events';
import { protocolRefusal } from '../protocol-version';
import { eventRouter } from './event-routing';
import {
  SOCKET_PATH,
  attachRedisAdapter,
  forgetUpgradeRequests,
  groupRoom,
  isSameOrigin,
  protocolOf,
  tokenOf,
  userRoom,
  type HunchServer,
  type HunchSocket,
} from './socket-server';

// socket.io at /socket.io (docs/groups-and-bets.md §7, docs/architecture.md §7): the access token is checked in
// the handshake, each socket sits in its user's room and one room per group it belongs to,
// and every event of the bus goes to its audience's room only — never a broadcast, so
// nothing of a private group reaches a non-member. Rooms follow memberships live through
// the bus (event-routing.ts). With Redis, the adapter carries emits and room changes to every
// instance (socket-server.ts).

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

  const redis = await attachRedisAdapter(io, deps);

  // Sockets whose session was found live but that socket.io has not connected yet (their rooms
  // being joined, or the connection a tick away). A session's end closes these too: otherwise a
  // socket checked live just before the end would connect just after it, and stay.
  const admitting = new Set<HunchSocket>();

  // Who connects, and their rooms. Every answer goes to `next`; socket.io ignores a promise,
  // so an unexpected failure is caught below and refused, never left hanging.
  async function admit(socket: HunchSocket, next: (error?: Error) => void): Promise<void> {
    // A device speaking a sync protocol this server does not is refused with the pull's and
    // the push's code in the error's `data` (protocol-version.ts), before its token is read.
    const refusal = protocolRefusal(protocolOf(socket));
    if (refusal) {
      next(
        Object.assign(new Error(`Connection failed: ${refusal.message}`), {
          data: { code: refusal.code },
        }),
      );
      return;
    }
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

  const unsubscribe = events.subscribe(
    eventRouter(io, { closeEndedSessions, hasOtherInstances: redis !== undefined }),
  );

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
