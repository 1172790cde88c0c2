import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PushPermissionDeniedError, PUSH_ERRORS } from '../../../src/client/push/push-subscription';
import {
  disablePush,
  enablePush,
  PUSH_TOGGLE_MESSAGES,
  readPushToggleStatus,
} from '../../../src/client/push/push-toggle';

function fakeService(overrides: Partial<Parameters<typeof readPushToggleStatus>[0]> = {}) {
  return {
    isSupported: () => true,
    permission: (): NotificationPermission => 'granted',
    status: vi.fn(async () => true),
    subscribe: vi.fn(async () => undefined),
    unsubscribe: vi.fn(async () => undefined),
    ...overrides,
  };
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('the push toggle states (docs/groups-and-bets.md §4)', () => {
  it('is on when permission is granted, the user is logged in and the server says active', async () => {
    expect(await readPushToggleStatus(fakeService(), true)).toBe('on');
  });

  it('is off when any of the three is missing', async () => {
    expect(
      await readPushToggleStatus(fakeService({ status: vi.fn(async () => false) }), true),
    ).toBe('off');
    expect(await readPushToggleStatus(fakeService({ permission: () => 'default' }), true)).toBe(
      'off',
    );
    expect(await readPushToggleStatus(fakeService(), false)).toBe('off');
    expect(
      await readPushToggleStatus(
        fakeService({ status: vi.fn(async () => Promise.reject(new Error('offline'))) }),
        true,
      ),
    ).toBe('off');
  });

  it('is blocked when the browser denied permission, whatever the server says', async () => {
    const service = fakeService({ permission: () => 'denied' });
    expect(await readPushToggleStatus(service, true)).toBe('blocked');
    expect(service.status).not.toHaveBeenCalled();
  });

  it('says so where the browser has no push', async () => {
    expect(await readPushToggleStatus(fakeService({ isSupported: () => false }), true)).toBe(
      'unsupported',
    );
  });
});

describe('switching the toggle (docs/groups-and-bets.md §4, §8)', () => {
  it('off → on subscribes and says "Notifications enabled successfully"', async () => {
    const service = fakeService();
    expect(await enablePush(service, true, 'off')).toEqual({
      status: 'on',
      toast: { type: 'success', message: 'Notifications enabled successfully' },
    });
    expect(service.subscribe).toHaveBeenCalledOnce();
  });

  it('on → off unsubscribes and says "Notifications disabled successfully"', async () => {
    const service = fakeService();
    expect(await disablePush(service, true, 'on')).toEqual({
      status: 'off',
      toast: { type: 'success', message: 'Notifications disabled successfully' },
    });
    expect(service.unsubscribe).toHaveBeenCalledOnce();
  });

  it('a failed enable reverts the toggle with "Failed to enable notifications"', async () => {
    for (const message of [
      PUSH_ERRORS.notSupported,
      PUSH_ERRORS.permissionNotGranted,
      'push service unreachable',
    ]) {
      const service = fakeService({
        subscribe: vi.fn(async () => Promise.reject(new Error(message))),
      });
      expect(await enablePush(service, true, 'off')).toEqual({
        status: 'off',
        toast: { type: 'error', message: 'Failed to enable notifications' },
      });
    }
  });

  it('a denied permission sets blocked with its own message', async () => {
    const service = fakeService({
      subscribe: vi.fn(async () => Promise.reject(new PushPermissionDeniedError())),
    });
    expect(await enablePush(service, true, 'off')).toEqual({
      status: 'blocked',
      toast: {
        type: 'error',
        message: 'Notification permission was denied. Check your browser settings.',
      },
    });
  });

  it('a failed disable reverts the toggle with "Failed to disable notifications"', async () => {
    const service = fakeService({
      unsubscribe: vi.fn(async () => Promise.reject(new Error('no'))),
    });
    expect(await disablePush(service, true, 'on')).toEqual({
      status: 'on',
      toast: { type: 'error', message: 'Failed to disable notifications' },
    });
  });

  it('needs a token: without one nothing changes and it says so', async () => {
    const service = fakeService();
    expect(await enablePush(service, false, 'off')).toEqual({
      status: 'off',
      toast: { type: 'error', message: PUSH_TOGGLE_MESSAGES.notLoggedIn },
    });
    expect(await disablePush(service, false, 'on')).toEqual({
      status: 'on',
      toast: { type: 'error', message: 'You must be logged in to manage notifications' },
    });
    expect(service.subscribe).not.toHaveBeenCalled();
    expect(service.unsubscribe).not.toHaveBeenCalled();
  });
});
