import { createECDH, randomBytes } from 'node:crypto';
import type { BrowserContext } from '@playwright/test';

// The browser's own push service cannot be reached from here, so the specs replace only
// PushManager.prototype.subscribe, at the browser boundary: it returns a subscription for a
// local stand-in push service, with keys made as a browser makes them.

/** Keys made as a browser makes them: a P-256 public key (65 bytes) and a 16-byte secret. */
export function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/**
 * Makes every page of the context subscribe to `${pushServiceUrl}/push/<id>`; returns the
 * subscription the server will be given.
 */
export async function replacePushSubscribe(context: BrowserContext, pushServiceUrl: string) {
  const fake = { endpoint: `${pushServiceUrl}/push/${randomBytes(8).toString('hex')}`, ...browserKeys() };
  await context.addInitScript((subscription) => {
    PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
      return {
        endpoint: subscription.endpoint,
        expirationTime: null,
        options: { applicationServerKey: options?.applicationServerKey ?? null, userVisibleOnly: true },
        getKey: () => null,
        toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }),
        unsubscribe: async () => true,
      } as unknown as PushSubscription;
    };
  }, fake);
  return fake;
}

