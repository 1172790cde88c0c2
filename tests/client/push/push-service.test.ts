import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  base64UrlToBytes,
  createPushService,
  PushPermissionDeniedError,
  PUSH_ERRORS,
  type PushApi,
  type PushBrowser,
} from '../../../src/client/push/push-subscription';

const VAPID =
  'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const P256DH =
  'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const AUTH = 'tBHItJI5svbpez7KI4CCXg';

function fakeSubscription(key = base64UrlToBytes(VAPID), expirationTime: number | null = null) {
  return {
    endpoint: 'http://127.0.0.1:9/push/abc',
    expirationTime,
    options: { applicationServerKey: key.buffer, userVisibleOnly: true },
    toJSON: () => ({
      endpoint: 'http://127.0.0.1:9/push/abc',
      keys: { p256dh: P256DH, auth: AUTH },
    }),
    unsubscribe: vi.fn(async () => true),
  };
}

const NOW = Date.parse('2026-11-23T12:00:00Z');

function setup({
  permission = 'granted' as NotificationPermission,
  existing = null as ReturnType<typeof fakeSubscription> | null,
  serverActive = false,
} = {}) {
  let current = existing;
  // Unsubscribing drops the browser's subscription, as the browser does.
  existing?.unsubscribe.mockImplementation(async () => {
    current = null;
    return true;
  });
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async () => {
      current = fakeSubscription();
      return current;
    }),
  };
  const registration = { pushManager } as unknown as ServiceWorkerRegistration;
  const browser: PushBrowser = {
    isSupported: () => true,
    permission: () => permission,
    requestPermission: vi.fn(async () => permission),
    registration: vi.fn(async () => registration),
    existingRegistration: vi.fn(async () => registration),
    userAgent: () => 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
    deviceName: () => 'Desktop Firefox',
  };
  const pushApi = {
    getVapidPublicKey: vi.fn(async () => VAPID),
    getStatus: vi.fn(async () => serverActive),
    register: vi.fn(async () => ({})),
    remove: vi.fn(async () => undefined),
    deactivate: vi.fn(async () => ({})),
  } satisfies PushApi;
  const service = createPushService({
    pushApi,
    browser,
    appName: 'hunch',
    deviceId: () => 'device-1',
    now: () => NOW,
  });
  return { service, pushApi, pushManager, browser };
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('subscribing (docs/groups-and-bets.md §4 "Enable")', () => {
  it('asks permission, subscribes with the VAPID key and registers this device on the server', async () => {
    const { service, pushApi, pushManager, browser } = setup();
    await service.subscribe();
    expect(browser.requestPermission).toHaveBeenCalledOnce();
    const options = pushManager.subscribe.mock.calls[0] as unknown as [PushSubscriptionOptionsInit];
    expect(options[0].userVisibleOnly).toBe(true);
    expect(options[0].applicationServerKey).toEqual(base64UrlToBytes(VAPID));
    expect(pushApi.register).toHaveBeenCalledWith({
      appName: 'hunch',
      deviceId: 'device-1',
      endpoint: 'http://127.0.0.1:9/push/abc',
      keys: { p256dh: P256DH, auth: AUTH },
      userAgent: expect.stringContaining('Firefox'),
      deviceName: 'Desktop Firefox',
    });
  });

  it('keeps a subscription the browser already holds for the same key', async () => {
    const { service, pushManager, pushApi } = setup({ existing: fakeSubscription() });
    await service.subscribe();
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(pushApi.register).toHaveBeenCalledOnce();
  });

  it('replaces a subscription made for another server key', async () => {
    const old = fakeSubscription(new Uint8Array(65).fill(7));
    const { service, pushManager } = setup({ existing: old });
    await service.subscribe();
    expect(old.unsubscribe).toHaveBeenCalledOnce();
    expect(pushManager.subscribe).toHaveBeenCalledOnce();
  });

  it('a denied permission is its own error; a dismissed one is "not granted"', async () => {
    await expect(setup({ permission: 'denied' }).service.subscribe()).rejects.toBeInstanceOf(
      PushPermissionDeniedError,
    );
    await expect(setup({ permission: 'denied' }).service.subscribe()).rejects.toThrow(
      PUSH_ERRORS.permissionDenied,
    );
    await expect(setup({ permission: 'default' }).service.subscribe()).rejects.toThrow(
      PUSH_ERRORS.permissionNotGranted,
    );
  });
});

describe('unsubscribing (docs/groups-and-bets.md §4 "Disable")', () => {
  it('unsubscribes locally and deletes on the server', async () => {
    const subscription = fakeSubscription();
    const { service, pushApi } = setup({ existing: subscription });
    await service.unsubscribe();
    expect(subscription.unsubscribe).toHaveBeenCalledOnce();
    expect(pushApi.remove).toHaveBeenCalledWith('device-1', 'hunch');
  });

  it('counts a server failure as success locally', async () => {
    const { service, pushApi } = setup({ existing: fakeSubscription() });
    pushApi.remove.mockRejectedValueOnce(new Error('500'));
    await expect(service.unsubscribe()).resolves.toBeUndefined();
  });
});

describe('following the session (docs/groups-and-bets.md §4)', () => {
  it('registers again, on every open, the subscription this browser still holds', async () => {
    const subscription = fakeSubscription();
    const { service, pushApi, pushManager } = setup({ existing: subscription, serverActive: true });
    await service.resume();
    expect(subscription.unsubscribe).not.toHaveBeenCalled();
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(pushApi.register).toHaveBeenCalledOnce();
  });

  it('replaces a subscription the server stopped sending to (dead, or detached at logout)', async () => {
    const dead = fakeSubscription();
    const { service, pushApi, pushManager } = setup({ existing: dead, serverActive: false });
    await service.resume();
    expect(dead.unsubscribe).toHaveBeenCalledOnce();
    expect(pushManager.subscribe).toHaveBeenCalledOnce();
    expect(pushApi.register).toHaveBeenCalledOnce();
  });

  it('replaces a subscription past its expiry time', async () => {
    const expired = fakeSubscription(base64UrlToBytes(VAPID), NOW - 1);
    const { service, pushManager } = setup({ existing: expired, serverActive: true });
    await service.resume();
    expect(expired.unsubscribe).toHaveBeenCalledOnce();
    expect(pushManager.subscribe).toHaveBeenCalledOnce();
  });

  it('keeps the subscription it holds when the server cannot be asked', async () => {
    const subscription = fakeSubscription();
    const { service, pushApi } = setup({ existing: subscription });
    pushApi.getStatus.mockRejectedValueOnce(new Error('offline'));
    await service.resume();
    expect(subscription.unsubscribe).not.toHaveBeenCalled();
    expect(pushApi.register).toHaveBeenCalledOnce();
  });

  it('subscribes anew when the browser lost it but the server still counts this device active', async () => {
    const { service, pushApi, pushManager } = setup({ serverActive: true });
    await service.resume();
    expect(pushManager.subscribe).toHaveBeenCalledOnce();
    expect(pushApi.register).toHaveBeenCalledOnce();
  });

  it('does nothing without permission, or with no subscription anywhere, and never asks', async () => {
    const denied = setup({ permission: 'default', existing: fakeSubscription() });
    await denied.service.resume();
    expect(denied.pushApi.register).not.toHaveBeenCalled();
    expect(denied.browser.requestPermission).not.toHaveBeenCalled();
    const nothing = setup();
    await nothing.service.resume();
    expect(nothing.pushApi.register).not.toHaveBeenCalled();
  });

  it('detaches at logout with the token read before it was cleared, without waiting', async () => {
    const { service, pushApi } = setup();
    pushApi.deactivate.mockRejectedValueOnce(new Error('offline'));
    expect(service.detach('token-1')).toBeUndefined();
    expect(pushApi.deactivate).toHaveBeenCalledWith('device-1', 'hunch', 'token-1');
    service.detach(null);
    expect(pushApi.deactivate).toHaveBeenCalledOnce();
  });
});
