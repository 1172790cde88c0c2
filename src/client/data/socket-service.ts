import { io, type Socket } from 'socket.io-client';
import {
  TOKEN_EXPIRED_MESSAGE,
  type ClientToServerEvents,
  type RealtimeEventName,
  type RealtimeEventPayload,
  type ServerToClientEvents,
} from '../../domain/realtime-events';
import {
  SOCKET_LIMITS,
  canReconnect,
  classifySocketError,
  isIntentionalDisconnect,
  maxAttemptsError,
  reconnectDelay,
  reconnectingMessage,
  type SocketError,
  type SocketStatus,
} from '../../domain/socket-connection';
import { SYNC_PROTOCOL_VERSION } from '../../domain/sync-protocol';
import { ApiError, isNetworkError } from './api-client';
import { createEventEmitter } from './event-emitter';
import { notices, type Notices } from './notices';
import { api, sessionStore } from './session';
import type { SessionStore } from './session-store';
import { reportUpdateNeeded } from './update-needed';

// The one realtime connection (docs/groups-and-bets.md §4, §7, §8, §9; docs/architecture.md §7). It opens while
// someone is signed in with an access token and closes at sign-out. This service runs the
// spec's policy (5 attempts, 1 s doubling to 30 s, none after an intentional close, reset on
// success, cancelled by sign-out), shows the "Reconnecting... (n/max)" toast (not while the
// device is offline: the offline banner says that, and the run starts afresh when the network
// is back), and on an authentication refusal refreshes the token once before trying again.
// Events are re-emitted to listeners registered with `on`, which survive reconnections and new
// sockets. This module pulls socket.io-client in: import it from lazy code only (the landing
// page must stay small).
//
// socket.io's Manager reconnection is off (`reconnection: false`). Its delays could be the
// spec's (reconnectionDelay 1000, reconnectionDelayMax 30000, randomizationFactor 0,
// reconnectionAttempts 5 give 1, 2, 4, 8, 16 s), but not what counts as an attempt: the Manager
// retries only a transport that failed. A handshake the server refuses ("Connection failed:
// please try again", or an authentication refusal after the one refresh) leaves the socket
// inactive, never retried; and the Manager counts the transport that opened before that
// refusal as a success, resetting its count, so refusals could not be counted on its schedule
// either. Nor can its run be paused while the device is offline, or wait for the token refresh
// after the server closed an expired socket. Refusals on a schedule of their own beside the
// Manager's would count one run of failures twice: so this one schedule covers every case.

export type HunchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface SocketState {
  status: SocketStatus;
  /** The reconnection attempt under way or waited for (1..max); 0 when none. */
  attempt: number;
  /** The last failure, typed per docs/groups-and-bets.md §8; null once connected. */
  error: SocketError | null;
}

export interface SocketConnectedInfo {
  /** False only for the session's first connection: anything later may have missed events. */
  isReconnect: boolean;
}

export interface SocketServiceOptions {
  session?: SessionStore;
  /** The shared token refresh (the API client's); resolves to the new access token. */
  refreshToken?: () => Promise<string>;
  toasts?: Pick<Notices, 'show' | 'update' | 'dismiss'>;
  /** Where socket.io lives: the page's origin in the browser, a test server's URL in tests. */
  url?: () => string;
  /** Where 'online' and 'offline' come from; null in tests that do not want them. */
  onlineEvents?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
  /** The browser's word on the network: while it says offline, the offline banner speaks for us. */
  isOnline?: () => boolean;
  limits?: typeof SOCKET_LIMITS;
  /** The server no longer speaks this build's sync protocol (client_too_old). */
  onUpdateNeeded?: () => void;
}

type RealtimeListeners = { [E in RealtimeEventName]: RealtimeEventPayload<E> };

interface ServiceEvents {
  connected: SocketConnectedInfo;
}

/** A refresh that failed because the network did: the session stays, the socket keeps trying. */
function isOfflineFailure(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    isNetworkError(error) ||
    (error instanceof ApiError && error.status >= 500)
  );
}

export type SocketService = ReturnType<typeof createSocketService>;

export function createSocketService({
  session = sessionStore,
  refreshToken = () => api.refreshTokens(),
  toasts = notices,
  url = () => location.origin,
  onlineEvents = typeof window === 'undefined' ? null : window,
  isOnline = () => typeof navigator === 'undefined' || navigator.onLine,
  limits = SOCKET_LIMITS,
  onUpdateNeeded = reportUpdateNeeded,
}: SocketServiceOptions = {}) {
  const listeners = new Set<() => void>();
  const realtime = createEventEmitter<RealtimeListeners>();
  const serviceEvents = createEventEmitter<ServiceEvents>();
  let state: SocketState = { status: 'disconnected', attempt: 0, error: null };
  let socket: HunchSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let toastId: number | null = null;
  let hasConnected = false;
  /** One token refresh per run of failures: a refreshed token that is refused again is not refreshed forever. */
  let hasRefreshed = false;
  /** Bumped whenever a connection ends on purpose: callbacks of the old one are ignored. */
  let generation = 0;
  let isStarted = false;
  let unsubscribers: Array<() => void> = [];

  const publish = (next: Partial<SocketState>) => {
    state = { ...state, ...next };
    for (const listener of [...listeners]) listener();
  };

  const cancelTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const hideToast = () => {
    if (toastId !== null) toasts.dismiss(toastId);
    toastId = null;
  };

  const showReconnecting = (attempt: number) => {
    const message = reconnectingMessage(attempt, limits.maxReconnectAttempts);
    if (toastId === null || !toasts.update(toastId, message)) {
      // docs/groups-and-bets.md §4: not dismissible, never dismissed by time; it goes once connected.
      toastId = toasts.show(message, 'warning', { duration: 0, dismissible: false });
    }
  };

  const connectNow = () => {
    timer = null;
    socket?.connect();
  };

  /**
   * The device is offline: the shell's offline banner already says so, so no "Reconnecting..."
   * toast stacks over it and no attempt is spent on a network that is not there. The 'online'
   * event starts a fresh run.
   */
  const waitForNetwork = (error: SocketError | null) => {
    cancelTimer();
    hideToast();
    publish({ status: 'reconnecting', attempt: 0, error });
  };

  /** After a failure: the next attempt on the spec's schedule, or the network error once all are spent. */
  const scheduleReconnect = (error: SocketError) => {
    cancelTimer();
    if (!isOnline()) {
      waitForNetwork(error);
      return;
    }
    if (!canReconnect(state.attempt, limits.maxReconnectAttempts)) {
      hideToast();
      publish({ status: 'error', error: maxAttemptsError });
      return;
    }
    const attempt = state.attempt + 1;
    publish({ status: 'reconnecting', attempt, error });
    showReconnecting(attempt);
    timer = setTimeout(connectNow, reconnectDelay(attempt, limits));
  };

  const onAuthenticationError = async (error: SocketError) => {
    hasRefreshed = true;
    const startGeneration = generation;
    try {
      await refreshToken();
      if (startGeneration !== generation) return;
      // A fresh token answers the refusal: try again at once, without spending an attempt.
      connectNow();
    } catch (refreshError) {
      if (startGeneration !== generation) return;
      if (isOfflineFailure(refreshError)) {
        scheduleReconnect(error);
        return;
      }
      // docs/groups-and-bets.md §7: a failed refresh ends the session (the logout event closes this socket).
      publish({ status: 'error', error });
      await session.logout('expired');
    }
  };

  const createSocket = (): HunchSocket => {
    const created: HunchSocket = io(url(), {
      path: '/socket.io',
      transports: ['websocket'],
      // Read at every handshake, so a reconnect after a refresh carries the new token. The
      // sync protocol is the pull's and the push's (src/domain/sync-protocol.ts).
      auth: (callback) =>
        callback({ token: session.getAccessToken() ?? '', protocol: SYNC_PROTOCOL_VERSION }),
      timeout: limits.connectTimeoutMs,
      reconnection: false,
      autoConnect: false,
      // A socket of its own: a previous session's manager (another user's token) is never reused.
      forceNew: true,
    });
    const myGeneration = generation;
    const isCurrent = () => myGeneration === generation && socket === created;

    created.on('connect', () => {
      if (!isCurrent()) return;
      cancelTimer();
      hideToast();
      const isReconnect = hasConnected || state.attempt > 0;
      hasConnected = true;
      hasRefreshed = false;
      publish({ status: 'connected', attempt: 0, error: null });
      serviceEvents.emit('connected', { isReconnect });
    });
    created.on('connect_error', (cause: Error & { data?: { code?: unknown } }) => {
      if (!isCurrent()) return;
      const error = classifySocketError(cause.message);
      if (cause.data?.code === 'client_too_old') {
        // Refused until the app updates (update-needed.ts): no attempt would be let in.
        cancelTimer();
        hideToast();
        publish({ status: 'error', error });
        onUpdateNeeded();
        return;
      }
      if (error.type === 'authentication' && !hasRefreshed) {
        publish({ status: state.attempt > 0 ? 'reconnecting' : 'connecting', error });
        void onAuthenticationError(error);
        return;
      }
      scheduleReconnect(error);
    });
    // The server closes a socket whose access token expired, saying so first: refresh and come
    // straight back, with no "Reconnecting" toast (it happens every 15 minutes on an open app).
    let isTokenExpiry = false;
    created.on('authError', () => {
      if (isCurrent()) isTokenExpiry = true;
    });
    created.on('disconnect', (reason) => {
      if (!isCurrent()) return;
      if (isTokenExpiry && !isIntentionalDisconnect(reason)) {
        isTokenExpiry = false;
        const error = classifySocketError(TOKEN_EXPIRED_MESSAGE);
        publish({ status: 'reconnecting', error });
        void onAuthenticationError(error);
        return;
      }
      if (isIntentionalDisconnect(reason)) {
        // The server closed it on purpose (or this client did): no reconnection (docs/groups-and-bets.md §4).
        cancelTimer();
        hideToast();
        publish({ status: 'disconnected', attempt: 0, error: null });
        return;
      }
      scheduleReconnect(classifySocketError(reason));
    });
    created.onAny((event: RealtimeEventName, payload: unknown) => {
      // The server's map and this one are the same interface (src/domain/realtime-events.ts).
      if (isCurrent()) realtime.emit(event, payload as RealtimeEventPayload<typeof event>);
    });
    return created;
  };

  /** Opens the connection for the signed-in user; without an access token nothing is tried. */
  const open = () => {
    if (socket || !session.user || !session.getAccessToken()) return;
    hasConnected = false;
    hasRefreshed = false;
    socket = createSocket();
    publish({ status: 'connecting', attempt: 0, error: null });
    socket.connect();
  };

  /** Ends the connection on purpose: no reconnection follows, a pending one is cancelled. */
  const close = (status: Extract<SocketStatus, 'disconnected' | 'signed-out'>) => {
    generation += 1;
    cancelTimer();
    hideToast();
    const closing = socket;
    socket = null;
    closing?.removeAllListeners();
    closing?.offAny();
    closing?.disconnect();
    publish({ status, attempt: 0, error: null });
  };

  /** A fresh start of the policy: a new socket, attempts from zero. */
  const reconnectNow = () => {
    if (!session.user || !session.getAccessToken()) return;
    if (socket && (state.status === 'connected' || state.status === 'connecting')) return;
    close('disconnected');
    open();
  };

  return {
    /** Follows the session: opens now if someone is signed in, at login/registration/restore, closes at logout. Idempotent. */
    start() {
      if (isStarted) return;
      isStarted = true;
      const onOnline = () => {
        // Spent attempts are not the end: the browser saying it is back is worth a new run.
        if (state.status === 'error' || state.status === 'reconnecting') reconnectNow();
      };
      const onOffline = () => {
        // A run under way stops where it is: one calm offline state until the network is back.
        if (state.status === 'reconnecting') waitForNetwork(state.error);
      };
      unsubscribers = [
        session.events.on('login', () => reconnectNow()),
        session.events.on('register', () => reconnectNow()),
        session.events.on('restored', () => open()),
        // A refreshed token after a failed run (the API refreshed it meanwhile) is worth a new try.
        session.events.on('refresh', () => {
          if (state.status === 'error' || state.status === 'disconnected') reconnectNow();
        }),
        session.events.on('logout', () => close('signed-out')),
      ];
      if (onlineEvents) {
        onlineEvents.addEventListener('online', onOnline);
        onlineEvents.addEventListener('offline', onOffline);
        unsubscribers.push(() => {
          onlineEvents.removeEventListener('online', onOnline);
          onlineEvents.removeEventListener('offline', onOffline);
        });
      }
      open();
    },
    /** Stops following the session and closes the connection on purpose. */
    stop() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers = [];
      isStarted = false;
      close('disconnected');
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): SocketState => state,
    /** Listens to one server event, whichever socket carries it; returns the unsubscribe. */
    on<E extends RealtimeEventName>(
      event: E,
      listener: (payload: RealtimeEventPayload<E>) => void,
    ): () => void {
      return realtime.on(event, listener);
    },
    /** Called after every successful connection, told whether it followed a disconnection. */
    onConnected(listener: (info: SocketConnectedInfo) => void): () => void {
      return serviceEvents.on('connected', listener);
    },
    reconnectNow,
    /**
     * The server answered the device (a pull): a connection that spent its attempts (a restart
     * or a deploy outlasted them) gets a new run, instead of staying down until the network or
     * the token changes.
     */
    reconnectIfGivenUp() {
      if (state.status === 'error' && state.error === maxAttemptsError) reconnectNow();
    },
  };
}

export const socketService = createSocketService();
