import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PUSH_STATUS_TIMEOUT_MS,
  shouldOfferPushPrompt,
  type PushPromptChecks,
} from '../../../src/client/push/push-prompt';

const checks = (overrides: Partial<PushPromptChecks> = {}): PushPromptChecks => ({
  isSupported: true,
  isSignedIn: true,
  permission: 'default',
  checkStatus: async () => false,
  ...overrides,
});

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the "Enable group updates" prompt after a join (docs/groups-and-bets.md §4)', () => {
  it('is offered when the server has no active subscription and permission is not denied', async () => {
    expect(await shouldOfferPushPrompt(checks())).toBe(true);
    expect(await shouldOfferPushPrompt(checks({ permission: 'granted' }))).toBe(true);
  });

  it('is not offered when the server says this device is active', async () => {
    expect(await shouldOfferPushPrompt(checks({ checkStatus: async () => true }))).toBe(false);
  });

  it('is not offered when the browser denied permission, and the server is not even asked', async () => {
    const checkStatus = vi.fn(async () => false);
    expect(await shouldOfferPushPrompt(checks({ permission: 'denied', checkStatus }))).toBe(false);
    expect(checkStatus).not.toHaveBeenCalled();
  });

  it('lets the join simply complete when the status check errors', async () => {
    expect(
      await shouldOfferPushPrompt(
        checks({ checkStatus: async () => Promise.reject(new Error('503')) }),
      ),
    ).toBe(false);
  });

  it('gives the status check 10 s, then completes the join and aborts the request', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const decision = shouldOfferPushPrompt(
      checks({
        checkStatus: (given) => {
          signal = given;
          return new Promise<boolean>(() => undefined);
        },
      }),
    );
    await vi.advanceTimersByTimeAsync(PUSH_STATUS_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await decision).toBe(false);
    expect(signal?.aborted).toBe(true);
    expect(PUSH_STATUS_TIMEOUT_MS).toBe(10_000);
  });

  it('an answer just inside the 10 s still decides', async () => {
    vi.useFakeTimers();
    const decision = shouldOfferPushPrompt(
      checks({
        checkStatus: () =>
          new Promise((resolve) =>
            // eslint-disable-next-line no-restricted-syntax -- the push service answering late on purpose, under fake timers
            setTimeout(() => resolve(false), 9_999),
          ),
      }),
    );
    await vi.advanceTimersByTimeAsync(9_999);
    expect(await decision).toBe(true);
  });

  it('is not offered where push is unsupported or nobody is signed in', async () => {
    expect(await shouldOfferPushPrompt(checks({ isSupported: false }))).toBe(false);
    expect(await shouldOfferPushPrompt(checks({ isSignedIn: false }))).toBe(false);
  });
});
