import { io, type Socket } from 'socket.io-client';
import type {
  ClientToServerEvents,
  RealtimeEventName,
  RealtimeEventPayload,
  ServerToClientEvents,
} from '../../../src/domain/realtime-events';
import { hangGuard } from '../../hang-guard';
import type { TestServer } from '../harness';

// A socket.io client the way the app opens one (websocket only, token in the handshake),
// recording every event it hears, so a test can wait for one event and assert on everything.

export interface ReceivedEvent {
  event: string;
  payload: unknown;
}

export interface TestSocket {
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** Everything heard so far, in order (the sync markers excluded). */
  received: ReceivedEvent[];
  /** The first `event` matching `matches`, heard already or within the time limit. */
  waitFor<E extends RealtimeEventName>(
    event: E,
    matches?: (payload: RealtimeEventPayload<E>) => boolean,
  ): Promise<RealtimeEventPayload<E>>;
  /** The payloads of `event` heard so far. */
  heard<E extends RealtimeEventName>(event: E): Array<RealtimeEventPayload<E>>;
  close(): void;
}

const WAIT_MS = 5_000;

export interface ConnectOptions {
  /** The handshake's auth; default `{ token }`. */
  auth?: Record<string, unknown>;
  extraHeaders?: Record<string, string>;
}

function openSocket(
  url: string,
  options: ConnectOptions,
): Socket<ServerToClientEvents, ClientToServerEvents> {
  return io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: options.auth ?? {},
    extraHeaders: options.extraHeaders,
    reconnection: false,
    forceNew: true,
    timeout: WAIT_MS,
  });
}

/** Connects with `token` and resolves once the server has said connectionAuthenticated. */
export async function connectSocket(
  server: Pick<TestServer, 'url'>,
  token: string,
  options: ConnectOptions = {},
): Promise<TestSocket> {
  const socket = openSocket(server.url, { auth: { token }, ...options });
  const received: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  socket.onAny((event: string, payload: unknown) => {
    if (event === 'betExpired' && (payload as { betId: number }).betId < 0) return; // a sync marker, see `syncSockets`
    received.push({ event, payload });
    for (const wake of [...waiters]) wake();
  });

  const client: TestSocket = {
    socket,
    received,
    heard: (event) =>
      received.filter((entry) => entry.event === event).map((entry) => entry.payload as never),
    waitFor(event, matches = () => true) {
      let check = () => false;
      const heard = new Promise<RealtimeEventPayload<typeof event>>((resolve) => {
        check = () => {
          const found = received.find(
            (entry) => entry.event === event && matches(entry.payload as never),
          );
          if (!found) return false;
          waiters.delete(check);
          resolve(found.payload as never);
          return true;
        };
        if (!check()) waiters.add(check);
      });
      return hangGuard(
        heard,
        WAIT_MS,
        () =>
          `no ${event} within ${WAIT_MS} ms; heard: ${JSON.stringify(received.map((entry) => entry.event))}`,
      ).finally(() => waiters.delete(check));
    },
    close: () => socket.close(),
  };
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () => resolve());
  });
  await client.waitFor('connectionAuthenticated');
  return client;
}

/** Tries to connect and resolves with the connect_error's message (fails if the connection is accepted). */
export async function connectionError(
  server: Pick<TestServer, 'url'>,
  options: ConnectOptions,
): Promise<string> {
  return (await connectionRefusal(server, options)).message;
}

/** Tries to connect and resolves with the connect_error's message and data (fails if accepted). */
export function connectionRefusal(
  server: Pick<TestServer, 'url'>,
  options: ConnectOptions,
): Promise<{ message: string; data: unknown }> {
  const socket = openSocket(server.url, options);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      socket.close();
      reject(new Error('the connection was accepted'));
    });
    socket.once('connect_error', (error: Error & { data?: unknown }) => {
      socket.close();
      resolve({ message: error.message, data: error.data });
    });
  });
}

let marker = 0;

/**
 * Waits until each socket has heard everything the server sent it before now: a marker is
 * published to each user's room and awaited. socket.io keeps one sender's order per socket,
 * so "not heard by then" means "not sent" — no sleeping to prove an absence.
 */
export async function syncSockets(
  server: Pick<TestServer, 'app'>,
  ...clients: Array<{ client: TestSocket; userId: number }>
): Promise<void> {
  await Promise.all(
    clients.map(({ client, userId }) => {
      marker -= 1;
      const betId = marker;
      let onMarker = (_payload: { betId: number }) => undefined as void;
      const arrived = hangGuard(
        new Promise<void>((resolve) => {
          onMarker = (payload) => {
            if (payload.betId === betId) resolve();
          };
          client.socket.on('betExpired', onMarker);
        }),
        WAIT_MS,
        () => `sync marker ${betId} never arrived`,
      ).finally(() => client.socket.off('betExpired', onMarker));
      server.app.events.publish('betExpired', { betId, groupId: 0, version: 0 }, { userId });
      return arrived;
    }),
  );
}
