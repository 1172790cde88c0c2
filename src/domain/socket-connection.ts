// The realtime connection's rules (docs/groups-and-bets.md §4, §8, §9), pure so the schedule and the error
// typing are tested without a socket. The client's socket service applies them, with
// socket.io's own reconnection switched off: src/client/data/socket-service.ts says why.

/** docs/groups-and-bets.md §9: the socket constants. */
export const SOCKET_LIMITS = {
  connectTimeoutMs: 5000,
  maxReconnectAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
} as const;

/** docs/groups-and-bets.md §4: the connection statuses a view may show. */
export type SocketStatus =
  'disconnected' | 'connecting' | 'reconnecting' | 'connected' | 'error' | 'signed-out';

/**
 * The wait before reconnection attempt `attempt` (1-based): the base delay doubling per
 * attempt, capped at the maximum — 1, 2, 4, 8, 16 s for the five attempts, 30 s beyond.
 */
export function reconnectDelay(
  attempt: number,
  limits: { baseDelayMs: number; maxDelayMs: number } = SOCKET_LIMITS,
): number {
  const step = Math.max(1, Math.floor(attempt)) - 1;
  // 2 ** step overflows to Infinity long after the cap, so Math.min keeps it finite.
  return Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** step);
}

/** Whether another attempt is allowed after `attemptsMade` failed ones. */
export function canReconnect(
  attemptsMade: number,
  maxAttempts: number = SOCKET_LIMITS.maxReconnectAttempts,
): boolean {
  return attemptsMade < maxAttempts;
}

/** The reconnecting toast's text (docs/groups-and-bets.md §4). */
export function reconnectingMessage(
  attempt: number,
  maxAttempts: number = SOCKET_LIMITS.maxReconnectAttempts,
): string {
  return `Reconnecting... (${attempt}/${maxAttempts})`;
}

type SocketErrorType = 'authentication' | 'connection' | 'network' | 'timeout';

export interface SocketError {
  type: SocketErrorType;
  message: string;
}

const SOCKET_ERROR_MESSAGES = {
  default: 'Connection failed',
  maxAttempts: 'Failed to reconnect after maximum attempts',
  timeout: 'Connection timed out',
} as const;

/**
 * docs/groups-and-bets.md §8: a message containing "Authentication" is an authentication error, anything else
 * a connection error (default text "Connection failed"); socket.io names its connect time-out
 * "timeout", which keeps that name as its type.
 */
export function classifySocketError(message: string | null | undefined): SocketError {
  const text = message?.trim() ?? '';
  if (text.includes('Authentication')) return { type: 'authentication', message: text };
  if (text === 'timeout') return { type: 'timeout', message: SOCKET_ERROR_MESSAGES.timeout };
  return { type: 'connection', message: text || SOCKET_ERROR_MESSAGES.default };
}

/** docs/groups-and-bets.md §8: what is left once every attempt has failed. */
export const maxAttemptsError: SocketError = {
  type: 'network',
  message: SOCKET_ERROR_MESSAGES.maxAttempts,
};

/**
 * Whether a disconnect was meant: socket.io reports "io client disconnect" when this client
 * closed it and "io server disconnect" when the server did; neither is reconnected (docs/groups-and-bets.md §4).
 * A dropped transport, a missed ping or a server restart is.
 */
export function isIntentionalDisconnect(reason: string): boolean {
  return reason === 'io client disconnect' || reason === 'io server disconnect';
}
