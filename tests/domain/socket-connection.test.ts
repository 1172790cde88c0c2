import { describe, expect, it } from 'vitest';
import {
  SOCKET_LIMITS,
  canReconnect,
  classifySocketError,
  isIntentionalDisconnect,
  maxAttemptsError,
  reconnectDelay,
  reconnectingMessage,
} from '../../src/domain/socket-connection';

describe('the reconnection schedule (docs/groups-and-bets.md §4, §9)', () => {
  it('waits 1, 2, 4, 8 and 16 s before the five attempts', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => reconnectDelay(attempt))).toEqual([
      1000, 2000, 4000, 8000, 16_000,
    ]);
  });

  it('never waits longer than 30 s', () => {
    expect(reconnectDelay(6)).toBe(30_000);
    expect(reconnectDelay(60)).toBe(30_000);
    expect(reconnectDelay(5000)).toBe(30_000);
  });

  it('treats anything below the first attempt as the first', () => {
    expect(reconnectDelay(0)).toBe(1000);
    expect(reconnectDelay(-3)).toBe(1000);
  });

  it('allows five attempts and no sixth', () => {
    expect(SOCKET_LIMITS).toEqual({
      connectTimeoutMs: 5000,
      maxReconnectAttempts: 5,
      baseDelayMs: 1000,
      maxDelayMs: 30_000,
    });
    expect([0, 1, 2, 3, 4].every((made) => canReconnect(made))).toBe(true);
    expect(canReconnect(5)).toBe(false);
  });

  it('counts in the toast as "Reconnecting... (n/max)"', () => {
    expect(reconnectingMessage(2)).toBe('Reconnecting... (2/5)');
  });
});

describe('socket errors (docs/groups-and-bets.md §8)', () => {
  it('types a message containing "Authentication" as an authentication error', () => {
    expect(classifySocketError('Authentication failed: no access token')).toEqual({
      type: 'authentication',
      message: 'Authentication failed: no access token',
    });
  });

  it('types anything else as a connection error, "Connection failed" when there is no message', () => {
    expect(classifySocketError('websocket error')).toEqual({
      type: 'connection',
      message: 'websocket error',
    });
    expect(classifySocketError('')).toEqual({ type: 'connection', message: 'Connection failed' });
    expect(classifySocketError(undefined)).toEqual({
      type: 'connection',
      message: 'Connection failed',
    });
  });

  it('names the connect time-out timeout', () => {
    expect(classifySocketError('timeout').type).toBe('timeout');
  });

  it('gives up with the network error', () => {
    expect(maxAttemptsError).toEqual({
      type: 'network',
      message: 'Failed to reconnect after maximum attempts',
    });
  });

  it('reconnects after a dropped transport, not after a close on purpose', () => {
    expect(isIntentionalDisconnect('io client disconnect')).toBe(true);
    expect(isIntentionalDisconnect('io server disconnect')).toBe(true);
    expect(isIntentionalDisconnect('transport close')).toBe(false);
    expect(isIntentionalDisconnect('ping timeout')).toBe(false);
  });
});
