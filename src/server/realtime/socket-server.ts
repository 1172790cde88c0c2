import type { IncomingMessage } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../domain/realtime-events';
import type { AuthUser } from '../auth/tokens';
import { roomOf } from '../events';
import { watchBusInterruptions } from './bus-interruptions';

// The socket.io server's parts that know nothing of Hunch's events (realtime.gateway.ts uses
// them): its types, the handshake's token and origin, the memory an open connection keeps, and
// the Redis adapter that carries emits and room changes between instances.

export const SOCKET_PATH = '/socket.io';

/** The adapter's key (channel prefix) when none is given; tests give one per server pair so parallel runs never hear each other. */
const DEFAULT_REDIS_KEY = 'hunch-socket.io';

export interface SocketData {
  user: AuthUser;
  /** When the handshake's access token expires (seconds since the epoch). */
  expiresAt: number;
}

/** Between instances (through the Redis adapter): a user's sessions ended, each instance checks its own sockets. */
export interface ServerSideEvents {
  sessionsRevoked: (userId: number) => void;
  /** An instance's connection to the bus came back: what it published meanwhile may be lost. */
  busResumed: () => void;
}

export type HunchServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  ServerSideEvents,
  SocketData
>;
export type HunchSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  ServerSideEvents,
  SocketData
>;

export const userRoom = (userId: number) => roomOf({ userId });
export const groupRoom = (groupId: number) => roomOf({ groupId });

/** The token of the handshake's `auth.token`, with or without a `Bearer ` prefix. */
export function tokenOf(socket: HunchSocket): string | undefined {
  const raw: unknown = (socket.handshake.auth as Record<string, unknown> | undefined)?.token;
  if (typeof raw !== 'string') return undefined;
  const token = raw.replace(/^Bearer\s+/i, '').trim();
  return token || undefined;
}

/** The handshake's `auth.protocol`: the device's sync protocol (src/domain/sync-protocol.ts). */
export const protocolOf = (socket: HunchSocket): unknown =>
  (socket.handshake.auth as Record<string, unknown> | undefined)?.protocol;

/**
 * Same origin only. A browser always sends Origin on a websocket handshake, and websockets
 * are not covered by CORS; the token in the handshake is the real guard, this only keeps
 * other sites' pages out. No Origin (a native client, the tests) is fine. The Host check
 * lets the Vite dev proxy and load balancers that keep Host through.
 */
export function isSameOrigin(request: IncomingMessage, publicOrigin: string): boolean {
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
export function forgetUpgradeRequests(io: HunchServer): void {
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

/**
 * With REDIS_URL, the Redis adapter: emits and room changes reach every instance. Unreachable
 * at start, the server serves anyway, live updates on this instance only, while ioredis
 * reconnects. Answers the adapter's two connections, for the shutdown to close.
 */
export async function attachRedisAdapter(
  io: HunchServer,
  deps: { redisUrl?: string | undefined; redisKey?: string | undefined; logger: FastifyBaseLogger },
): Promise<{ pub: Redis; sub: Redis } | undefined> {
  const { logger } = deps;
  if (!deps.redisUrl) return undefined;
  const pub = new Redis(deps.redisUrl, { lazyConnect: true });
  const sub = pub.duplicate();
  for (const client of [pub, sub])
    client.on('error', (error) => logger.warn({ err: error }, 'socket.io redis error'));
  // The adapter subscribes once the connection is up.
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
  const redis = { pub, sub };
  // Back from an interruption: this instance's sockets may have missed what others published,
  // and the others' sockets what this one did (bus-interruptions.ts). Each is told to pull.
  watchBusInterruptions(redis, () => {
    io.local.emit('syncNeeded', {});
    io.serverSideEmit('busResumed');
  });
  return redis;
}
