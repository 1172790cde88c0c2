import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import {
  TOKEN_EXPIRED_MESSAGE,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '../../../src/domain/realtime-events';
import { createSessionStore, type SessionStore } from '../../../src/client/data/session-store';
import { createSocketService, type SocketService } from '../../../src/client/data/socket-service';
import { createToastStore, type ToastStore } from '../../../src/client/shell/toast-store';

// The socket service against a REAL socket.io server on a random local port: each scenario
// decides whether the server accepts, refuses or drops a handshake. Only setTimeout and
// clearTimeout are faked, so the spec's waits (1, 2, 4, 8, 16 s) pass at once while the
// sockets themselves talk over the loopback for real.

const user = {
  id: 7,
  appName: 'hunch',
  email: 'me@example.com',
  username: 'me',
  firstName: 'Me',
  lastName: 'Myself',
  displayName: 'Me Myself',
  isTemporary: false,
  roles: [] as string[],
  profilePictureUrl: null,
};
const auth = (accessToken: string): AuthResponse => ({
  accessToken,
  refreshToken: 'refresh-1',
  user,
});

type Verdict = 'accept' | 'refuse' | 'auth';
let verdicts: Verdict[] = [];
let handshakes: string[] = [];
let httpServer: HttpServer;
let io: Server<ClientToServerEvents, ServerToClientEvents>;
let url: string;

beforeAll(async () => {
  httpServer = createServer();
  io = new Server(httpServer, { path: '/socket.io', transports: ['websocket'] });
  io.use((socket, next) => {
    const token = String((socket.handshake.auth as { token?: unknown }).token ?? '');
    handshakes.push(token);
    // An empty list accepts only the current token; a scenario queues what comes first.
    const verdict = verdicts.shift() ?? (token === 'good' ? 'accept' : 'auth');
    if (verdict === 'accept') return next();
    next(
      new Error(
        verdict === 'auth'
          ? 'Authentication failed: the access token is invalid or expired'
          : 'Connection failed: please try again',
      ),
    );
  });
  io.on('connection', (socket) =>
    socket.emit('connectionAuthenticated', { userId: user.id, groupIds: [] }),
  );
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await io.close();
});

/** A dropped transport, as a server restart or a lost network looks to the client (engine.close() would stop the test server for good). */
function dropAllConnections() {
  for (const socket of io.sockets.sockets.values()) socket.conn.close();
}

/** Real I/O settles on the event loop, which fake timers leave alone: poll with setImmediate. */
async function until(condition: () => boolean, what: string, limitMs = 3000) {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > limitMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

let session: SessionStore;
let toasts: ToastStore;
let service: SocketService;
let refreshToken: ReturnType<typeof vi.fn<() => Promise<string>>>;

function makeService() {
  service = createSocketService({
    session,
    refreshToken,
    toasts,
    url: () => url,
    onlineEvents: null,
  });
  return service;
}

const status = () => service.getSnapshot().status;
const visibleToasts = () => toasts.getSnapshot().filter((t) => !t.isLeaving);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  localStorage.clear();
  sessionStorage.clear();
  verdicts = [];
  handshakes = [];
  session = createSessionStore({
    storages: { persistent: localStorage, temporary: sessionStorage },
  });
  toasts = createToastStore();
  refreshToken = vi.fn(async () => {
    session.applyRefresh(auth('good'));
    return 'good';
  });
});

afterEach(() => {
  service?.stop();
  vi.useRealTimers();
});

describe('opening and closing with the session (docs/groups-and-bets.md §4)', () => {
  it('makes no attempt while nobody is signed in', async () => {
    makeService().start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(handshakes).toEqual([]);
    expect(status()).toBe('disconnected');
  });

  it('connects at login with the access token in the handshake and passes events on', async () => {
    makeService().start();
    const heard: unknown[] = [];
    service.on('connectionAuthenticated', (payload) => heard.push(payload));
    session.signIn(auth('good'), true);
    expect(status()).toBe('connecting');
    await until(() => status() === 'connected', 'connected');
    expect(handshakes).toEqual(['good']);
    await until(() => heard.length === 1, 'the first event');
    expect(heard).toEqual([{ userId: 7, groupIds: [] }]);
  });

  it('closes at sign-out and says signed-out', async () => {
    session.signIn(auth('good'), true);
    makeService().start();
    await until(() => status() === 'connected', 'connected');
    await session.logout();
    expect(status()).toBe('signed-out');
    await until(() => io.sockets.sockets.size === 0, 'the server to see the socket go');
  });
});

describe('the reconnection schedule (docs/groups-and-bets.md §4, §9)', () => {
  it('tries 5 times after 1, 2, 4, 8 and 16 s, then stops with the network error', async () => {
    verdicts = Array(6).fill('refuse');
    session.signIn(auth('good'), true);
    makeService().start();
    await until(() => handshakes.length === 1 && status() === 'reconnecting', 'the first refusal');
    expect(service.getSnapshot()).toMatchObject({
      attempt: 1,
      error: { type: 'connection', message: 'Connection failed: please try again' },
    });

    for (const [index, delay] of [1000, 2000, 4000, 8000, 16_000].entries()) {
      const attempt = index + 1;
      expect(visibleToasts().map((t) => t.message)).toEqual([`Reconnecting... (${attempt}/5)`]);
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(handshakes).toHaveLength(attempt);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => handshakes.length === attempt + 1, `attempt ${attempt}`);
      await until(
        () => service.getSnapshot().attempt !== attempt || status() === 'error',
        `attempt ${attempt} to fail`,
      );
    }

    expect(service.getSnapshot()).toMatchObject({
      status: 'error',
      error: { type: 'network', message: 'Failed to reconnect after maximum attempts' },
    });
    expect(visibleToasts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(handshakes).toHaveLength(6);

    // The server answered the device meanwhile (a pull): the spent run is not the end.
    verdicts.push('accept');
    service.reconnectIfGivenUp();
    await until(() => status() === 'connected', 'connected after the server answered');
    expect(handshakes).toHaveLength(7);
    // Connected, it is left alone.
    service.reconnectIfGivenUp();
    expect(handshakes).toHaveLength(7);
  });

  it('shows one warning toast, not dismissible and never dismissed by time, updated per attempt', async () => {
    verdicts = ['refuse', 'refuse'];
    session.signIn(auth('good'), true);
    makeService().start();
    await until(() => status() === 'reconnecting', 'reconnecting');
    const [first] = visibleToasts();
    expect(first).toMatchObject({
      message: 'Reconnecting... (1/5)',
      type: 'warning',
      dismissible: false,
      duration: 0,
    });

    await vi.advanceTimersByTimeAsync(1000);
    await until(() => service.getSnapshot().attempt === 2, 'the second attempt to be scheduled');
    expect(visibleToasts()).toEqual([
      expect.objectContaining({ id: first!.id, message: 'Reconnecting... (2/5)' }),
    ]);

    await vi.advanceTimersByTimeAsync(2000);
    await until(() => status() === 'connected', 'connected');
    expect(visibleToasts()).toEqual([]);
  });

  it('starts counting again after a success', async () => {
    verdicts = ['refuse', 'refuse', 'accept'];
    session.signIn(auth('good'), true);
    makeService().start();
    await until(() => status() === 'reconnecting', 'reconnecting');
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => service.getSnapshot().attempt === 2, 'attempt 2');
    await vi.advanceTimersByTimeAsync(2000);
    await until(() => status() === 'connected', 'connected');
    expect(service.getSnapshot().attempt).toBe(0);

    // A dropped transport (a server restart looks like this): reconnect from attempt 1, after 1 s.
    dropAllConnections();
    await until(() => status() === 'reconnecting', 'the drop');
    expect(service.getSnapshot().attempt).toBe(1);
    expect(visibleToasts().map((t) => t.message)).toEqual(['Reconnecting... (1/5)']);
    const before = handshakes.length;
    await vi.advanceTimersByTimeAsync(999);
    expect(handshakes).toHaveLength(before);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => status() === 'connected', 'connected again');
  });

  it('tells listeners whether a connection follows a disconnection', async () => {
    session.signIn(auth('good'), true);
    makeService();
    const connections: boolean[] = [];
    service.onConnected(({ isReconnect }) => connections.push(isReconnect));
    service.start();
    await until(() => status() === 'connected', 'connected');
    dropAllConnections();
    await until(() => status() === 'reconnecting', 'the drop');
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => connections.length === 2, 'the reconnection');
    expect(connections).toEqual([false, true]);
  });

  it('does not reconnect when the server closes the socket on purpose', async () => {
    session.signIn(auth('good'), true);
    makeService().start();
    await until(() => status() === 'connected', 'connected');
    for (const socket of io.sockets.sockets.values()) socket.disconnect(true);
    await until(() => status() === 'disconnected', 'the server disconnect');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(handshakes).toHaveLength(1);
    expect(visibleToasts()).toEqual([]);
  });

  it('does not reconnect after the client closes it', async () => {
    session.signIn(auth('good'), true);
    makeService().start();
    await until(() => status() === 'connected', 'connected');
    service.stop();
    expect(status()).toBe('disconnected');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(handshakes).toHaveLength(1);
  });

  it('cancels a pending reconnection at sign-out', async () => {
    verdicts = ['refuse'];
    session.signIn(auth('good'), true);
    makeService().start();
    await until(() => status() === 'reconnecting', 'reconnecting');
    await session.logout();
    expect(status()).toBe('signed-out');
    expect(visibleToasts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(handshakes).toHaveLength(1);
  });
});

describe('an authentication refusal (docs/groups-and-bets.md §8)', () => {
  it('refreshes the token once and reconnects with the new one at once', async () => {
    session.signIn(auth('stale'), true);
    makeService().start();
    await until(() => status() === 'connected', 'connected');
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(handshakes).toEqual(['stale', 'good']);
  });

  it('comes straight back with a fresh token, and no toast, when the server closes it for an expired token', async () => {
    session.signIn(auth('good'), true);
    makeService().start();
    await until(() => status() === 'connected', 'connected');
    for (const socket of io.sockets.sockets.values()) {
      socket.emit('authError', { message: TOKEN_EXPIRED_MESSAGE });
      socket.conn.close();
    }
    await until(() => handshakes.length === 2 && status() === 'connected', 'connected again');
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(visibleToasts()).toEqual([]);
  });

  it('signs out when the refresh is refused', async () => {
    refreshToken.mockRejectedValue(new Error('Invalid refresh token'));
    session.signIn(auth('stale'), true);
    makeService().start();
    await until(() => status() === 'signed-out', 'signed-out');
    expect(session.user).toBeNull();
    expect(handshakes).toEqual(['stale']);
  });

  it('keeps the session and follows the schedule when the refresh cannot reach the server', async () => {
    refreshToken.mockRejectedValue(new TypeError('Failed to fetch'));
    session.signIn(auth('stale'), true);
    makeService().start();
    await until(() => status() === 'reconnecting', 'reconnecting');
    expect(service.getSnapshot().error).toEqual({
      type: 'authentication',
      message: 'Authentication failed: the access token is invalid or expired',
    });
    expect(session.user).not.toBeNull();
  });
});

describe('while the device is offline', () => {
  // The browser's own word on the network, and the events it sends when that changes.
  let isOnline = true;
  let network: EventTarget;

  function makeOfflineAwareService() {
    network = new EventTarget();
    service = createSocketService({
      session,
      refreshToken,
      toasts,
      url: () => url,
      onlineEvents: network,
      isOnline: () => isOnline,
    });
    return service;
  }

  function goOffline() {
    isOnline = false;
    network.dispatchEvent(new Event('offline'));
  }

  function goOnline() {
    isOnline = true;
    network.dispatchEvent(new Event('online'));
  }

  beforeEach(() => {
    isOnline = true;
  });

  it('waits for the network without a toast or an attempt, then connects once it is back', async () => {
    session.signIn(auth('good'), true);
    makeOfflineAwareService().start();
    await until(() => status() === 'connected', 'connected');
    isOnline = false;
    dropAllConnections();
    await until(() => status() !== 'connected', 'the drop');
    expect(service.getSnapshot()).toMatchObject({ status: 'reconnecting', attempt: 0 });
    await vi.advanceTimersByTimeAsync(120_000);
    // The offline banner says it: no "Reconnecting..." toast and no attempt spent meanwhile.
    expect(visibleToasts()).toEqual([]);
    expect(handshakes).toHaveLength(1);

    goOnline();
    await until(() => status() === 'connected', 'connected again');
    expect(handshakes).toHaveLength(2);
    expect(visibleToasts()).toEqual([]);
  });

  it('takes a shown reconnecting toast away when the device goes offline', async () => {
    verdicts = ['refuse', 'refuse'];
    session.signIn(auth('good'), true);
    makeOfflineAwareService().start();
    await until(() => status() === 'reconnecting', 'reconnecting');
    expect(visibleToasts().map((t) => t.message)).toEqual(['Reconnecting... (1/5)']);

    goOffline();
    expect(visibleToasts()).toEqual([]);
    expect(service.getSnapshot()).toMatchObject({ status: 'reconnecting', attempt: 0 });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(handshakes).toHaveLength(1);

    // Back online: a fresh run of the schedule, its toast counting from 1 again.
    goOnline();
    await until(() => handshakes.length === 2 && status() === 'reconnecting', 'the next refusal');
    expect(visibleToasts().map((t) => t.message)).toEqual(['Reconnecting... (1/5)']);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => status() === 'connected', 'connected');
    expect(visibleToasts()).toEqual([]);
  });
});
