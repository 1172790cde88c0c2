import { API_BASE, DEFAULT_APP_NAME } from '../../domain/constants';
import { deriveDeviceName } from '../../domain/device-name';
import type {
  PushStatusResponse,
  RegisterPushSubscriptionRequest,
  VapidPublicKeyResponse,
} from '../../domain/push';
import type { ApiClient } from '../data/api-client';
import { SERVICE_WORKER_URL } from '../pwa/register-service-worker';

// This device's push subscription, from the browser to the server: who the device is, the
// push calls under /api, and the service that subscribes, unsubscribes, resumes and detaches.

// Who this device is to the push service (docs/groups-and-bets.md §3): a device id generated once per app and
// kept in localStorage (it must outlive a logout, so a later login finds the same
// subscription row), and a readable device name derived from the user agent.

const PUSH_APP_NAME = DEFAULT_APP_NAME;

export const deviceIdStorageKey = (appName: string) => `push_device_id_${appName}`;

/** A random id of letters, digits and dashes (the server's deviceId pattern). */
function randomDeviceId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; an http:// address on a LAN has getRandomValues only.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** This app's device id, made and stored on first use. */
export function getPushDeviceId(
  storage: Storage = localStorage,
  appName = PUSH_APP_NAME,
  makeId = randomDeviceId,
): string {
  const key = deviceIdStorageKey(appName);
  const known = storage.getItem(key);
  if (known) return known;
  const id = makeId();
  storage.setItem(key, id);
  return id;
}

export function getDeviceName(
  nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> = navigator,
): string {
  return deriveDeviceName(nav.userAgent, nav.maxTouchPoints ?? 0);
}

// The push calls of docs/groups-and-bets.md §7, under /api (docs/architecture.md). Each takes the app's name and
// this device's id; the server keeps one subscription per user, app and device.

const BASE = `${API_BASE}/push-subscriptions`;

export type PushApi = ReturnType<typeof createPushApi>;

export function createPushApi(api: ApiClient) {
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return {
    getVapidPublicKey: () =>
      api
        .get<VapidPublicKeyResponse>(`${BASE}/vapid-public-key`, { auth: false })
        .then((body) => body.publicKey),
    getStatus: (deviceId: string, appName: string, signal?: AbortSignal) =>
      api
        .get<PushStatusResponse>(`${BASE}/status?${query({ deviceId, appName })}`, { signal })
        .then((body) => body.active),
    register: (subscription: RegisterPushSubscriptionRequest) =>
      api.post<unknown>(BASE, subscription),
    remove: (deviceId: string, appName: string) =>
      api.delete<unknown>(`${BASE}/user/${encodeURIComponent(deviceId)}?${query({ appName })}`),
    /**
     * At logout: the access token is passed in, read before the session cleared it, and sent
     * without the refresh-on-401 path (a refresh after logout would sign out twice).
     */
    deactivate: (deviceId: string, appName: string, accessToken: string) =>
      api.patch<unknown>(
        `${BASE}/user/${encodeURIComponent(deviceId)}/deactivate?${query({ appName })}`,
        undefined,
        {
          auth: false,
          headers: { Authorization: `Bearer ${accessToken}` },
        },
      ),
  };
}

// This device's push subscription (docs/groups-and-bets.md §3, §4, §7): subscribe (permission → the browser's
// PushManager → register on the server), unsubscribe (locally, then delete on the server; a
// server failure still counts as success), the server's status, re-registering after a
// sign-in and detaching at logout. The browser and the server are passed in, so the rules are
// tested without either.

/** docs/groups-and-bets.md §8, internal errors. */
export const PUSH_ERRORS = {
  notSupported: 'Push not supported',
  permissionDenied: 'Permission denied by user. Enable in browser settings.',
  permissionNotGranted: 'Notification permission not granted',
} as const;

/** The person (or the browser for them) refused notifications: the toggle shows blocked. */
export class PushPermissionDeniedError extends Error {
  constructor() {
    super(PUSH_ERRORS.permissionDenied);
    this.name = 'PushPermissionDeniedError';
  }
}

/** What the service needs from the browser. */
export interface PushBrowser {
  isSupported(): boolean;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  /** The service worker registration, registering it if the page has not yet (it waits until active). */
  registration(): Promise<ServiceWorkerRegistration>;
  /** The registration if one exists, without registering. */
  existingRegistration(): Promise<ServiceWorkerRegistration | undefined>;
  userAgent(): string;
  deviceName(): string;
}

const browserPush: PushBrowser = {
  isSupported: () =>
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window,
  permission: () => Notification.permission,
  requestPermission: () => Notification.requestPermission(),
  async registration() {
    const container = navigator.serviceWorker;
    // Toggled before the app registered its worker (it waits for a stable page): register now.
    if (!(await container.getRegistration('/')))
      await container.register(SERVICE_WORKER_URL, { scope: '/' });
    return container.ready;
  },
  existingRegistration: () => navigator.serviceWorker.getRegistration('/'),
  userAgent: () => navigator.userAgent,
  deviceName: () => getDeviceName(),
};

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** Whether the push service has said when this subscription ends, and that time has come. */
function isExpired(subscription: PushSubscription, at: number): boolean {
  return subscription.expirationTime !== null && subscription.expirationTime <= at;
}

export interface PushServiceOptions {
  pushApi: PushApi;
  browser?: PushBrowser;
  appName?: string;
  deviceId?: () => string;
  now?: () => number;
}

export type PushService = ReturnType<typeof createPushService>;

export function createPushService({
  pushApi,
  browser = browserPush,
  appName = PUSH_APP_NAME,
  deviceId = () => getPushDeviceId(),
  now = Date.now,
}: PushServiceOptions) {
  const toRequest = (subscription: PushSubscription): RegisterPushSubscriptionRequest => {
    const json = subscription.toJSON();
    return {
      appName,
      deviceId: deviceId(),
      endpoint: subscription.endpoint,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      userAgent: browser.userAgent().slice(0, 512),
      deviceName: browser.deviceName(),
    };
  };

  /** The browser's subscription for our current VAPID key, made if missing (or made for an old key). */
  const browserSubscription = async (
    registration: ServiceWorkerRegistration,
  ): Promise<PushSubscription> => {
    const key = base64UrlToBytes(await pushApi.getVapidPublicKey());
    const existing = await registration.pushManager.getSubscription();
    if (existing && sameBytes(existing.options?.applicationServerKey, key)) return existing;
    if (existing) await existing.unsubscribe();
    return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  };

  return {
    isSupported: () => browser.isSupported(),
    permission: (): NotificationPermission =>
      browser.isSupported() ? browser.permission() : 'default',

    /** GET status: does the server hold an active subscription for this device? */
    status: (signal?: AbortSignal) => pushApi.getStatus(deviceId(), appName, signal),

    /** Enable (docs/groups-and-bets.md §4): request permission, subscribe, register on the server. */
    async subscribe(): Promise<void> {
      if (!browser.isSupported()) throw new Error(PUSH_ERRORS.notSupported);
      const permission = await browser.requestPermission();
      if (permission === 'denied') throw new PushPermissionDeniedError();
      if (permission !== 'granted') throw new Error(PUSH_ERRORS.permissionNotGranted);
      const registration = await browser.registration();
      const subscription = await browserSubscription(registration);
      await pushApi.register(toRequest(subscription));
    },

    /** Disable (docs/groups-and-bets.md §4): unsubscribe locally, then delete on the server; a server failure still counts as success. */
    async unsubscribe(): Promise<void> {
      if (!browser.isSupported()) throw new Error(PUSH_ERRORS.notSupported);
      const registration = await browser.existingRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (subscription) await subscription.unsubscribe();
      await pushApi.remove(deviceId(), appName).catch((error: unknown) => {
        console.warn(
          'The server could not delete the push subscription; it is gone from this device',
          error,
        );
      });
    },

    /**
     * After login, registration, session restore or token refresh (docs/groups-and-bets.md §4): with permission
     * granted, a subscription this browser still holds, or one the server still counts as
     * active, is registered again for whoever is signed in now. Never asks for permission.
     */
    async resume(): Promise<void> {
      if (!browser.isSupported() || browser.permission() !== 'granted') return;
      // No worker registered yet means a first visit: nothing to resume on this device.
      const existingRegistration = await browser.existingRegistration();
      if (!existingRegistration) return;
      const existing = await existingRegistration.pushManager.getSubscription();
      // Unknown (offline, a server error): keep what the browser holds, as before.
      const isActive = await pushApi.getStatus(deviceId(), appName).catch(() => existing !== null);
      if (!existing && !isActive) return;
      // Renewed on every open: a subscription past its expiry, or one the server
      // stopped sending to (its push service answered 404/410, or a logout detached it), is
      // dropped from the browser and replaced by a fresh one, so a dead endpoint never comes back.
      if (existing && (!isActive || isExpired(existing, now()))) await existing.unsubscribe();
      const registration = await browser.registration();
      await pushApi.register(toRequest(await browserSubscription(registration)));
    },

    /** At logout (docs/groups-and-bets.md §4): the server stops sending here; fire and forget. */
    detach(accessToken: string | null): void {
      if (!accessToken || !browser.isSupported()) return;
      pushApi.deactivate(deviceId(), appName, accessToken).catch((error: unknown) => {
        console.warn('Detaching the push subscription at logout failed', error);
      });
    },
  };
}
