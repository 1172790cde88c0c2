import { z } from './zod';

// Push: the request and response schemas of spec 02 §7 (Push) for a subscription of spec 02
// §3, and the notification payload the service worker shows (ARCHITECTURE.md §7).

const PUSH_LIMITS = {
  appNameMax: 50,
  deviceIdMax: 128,
  endpointMax: 2048,
  userAgentMax: 512,
  deviceNameMax: 100,
} as const;

/** At most one "odds changed" push per bet per person in this window (ARCHITECTURE.md §7). */
export const ODDS_PUSH_INTERVAL_MS = 10 * 60 * 1000;

export const PUSH_MESSAGES = {
  appNameRequired: 'appName is required',
  deviceIdRequired: 'deviceId is required',
  deviceIdCharacters: 'deviceId may only contain letters, numbers, -, _, . and :',
  endpointUrl: 'endpoint must be an https:// URL',
  endpointService: "endpoint must be an https:// URL of a browser's push service",
  p256dhKey: 'keys.p256dh must be a P-256 public key in base64url (65 bytes)',
  authKey: 'keys.auth must be a 16-byte secret in base64url',
} as const;

/** base64url (RFC 4648 §5), padding optional, as PushSubscription.toJSON() gives the keys. */
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Bytes of a base64url string (padding ignored). */
function base64urlByteLength(value: string): number {
  return Math.floor((value.replace(/=+$/, '').length * 3) / 4);
}

const base64urlKey = (bytes: number, message: string) =>
  z
    .string({ error: message })
    .regex(BASE64URL, message)
    .refine((value) => base64urlByteLength(value) === bytes, message);

const appName = z
  .string({ error: PUSH_MESSAGES.appNameRequired })
  .trim()
  .min(1, PUSH_MESSAGES.appNameRequired)
  .max(PUSH_LIMITS.appNameMax);
// The client generates it once per app and keeps it (spec 02 §3); it appears in a URL path.
const deviceId = z
  .string({ error: PUSH_MESSAGES.deviceIdRequired })
  .trim()
  .min(1, PUSH_MESSAGES.deviceIdRequired)
  .max(PUSH_LIMITS.deviceIdMax)
  .regex(/^[A-Za-z0-9_.:-]+$/, PUSH_MESSAGES.deviceIdCharacters);

// Push services are reached over https. Plain http is accepted by the schema so a local
// stand-in push service works in development and tests; the server refuses it unless the
// app itself is served over http (src/server/push/push.service.ts).
const endpoint = z
  .url({ protocol: /^https?$/, error: PUSH_MESSAGES.endpointUrl })
  .max(PUSH_LIMITS.endpointMax);

const optionalLabel = (max: number) => z.string().trim().max(max).nullish();

// ---- requests ----

/** POST /push-subscriptions: a browser's PushSubscription plus where it lives (spec 02 §3). */
export const registerPushSubscriptionSchema = z.strictObject({
  appName,
  deviceId,
  endpoint,
  keys: z.strictObject({
    p256dh: base64urlKey(65, PUSH_MESSAGES.p256dhKey),
    auth: base64urlKey(16, PUSH_MESSAGES.authKey),
  }),
  userAgent: optionalLabel(PUSH_LIMITS.userAgentMax),
  deviceName: optionalLabel(PUSH_LIMITS.deviceNameMax),
});
export type RegisterPushSubscriptionRequest = z.infer<typeof registerPushSubscriptionSchema>;

/** GET /push-subscriptions/status?deviceId&appName. */
export const pushStatusQuerySchema = z.object({ deviceId, appName });

/** DELETE /push-subscriptions/user/{deviceId}?appName and PATCH …/deactivate?appName. */
export const pushDeviceParamsSchema = z.object({ deviceId });
export const pushAppQuerySchema = z.object({ appName });

// ---- responses ----

export const vapidPublicKeyResponseSchema = z.object({ publicKey: z.string() });
export type VapidPublicKeyResponse = z.infer<typeof vapidPublicKeyResponseSchema>;

export const pushStatusResponseSchema = z.object({ active: z.boolean() });
export type PushStatusResponse = z.infer<typeof pushStatusResponseSchema>;

/** A registered subscription as its owner sees it; its keys never leave the server again. */
export const pushSubscriptionSchema = z.object({
  appName: z.string(),
  deviceId: z.string(),
  deviceName: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PushSubscription = z.infer<typeof pushSubscriptionSchema>;

// ---- what a push carries ----

/**
 * The JSON of every push message: the service worker shows `title` and `body`, replaces an
 * earlier notification with the same `tag`, and opens or focuses `url` when it is clicked.
 */
export interface PushNotification {
  title: string;
  body: string;
  /** An app path such as /bets/12 or /group/3. */
  url: string;
  tag?: string;
}
