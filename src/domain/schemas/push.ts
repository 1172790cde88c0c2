import { z } from './zod';
import { PUSH_MESSAGES } from '../push';

// Push subscriptions on the wire (types and the payload: push.ts).

const PUSH_LIMITS = {
  appNameMax: 50,
  deviceIdMax: 128,
  endpointMax: 2048,
  userAgentMax: 512,
  deviceNameMax: 100,
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
// The client generates it once per app and keeps it (docs/groups-and-bets.md §3); it appears in a URL path.
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

/** POST /push-subscriptions: a browser's PushSubscription plus where it lives (docs/groups-and-bets.md §3). */
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

/** GET /push-subscriptions/status?deviceId&appName. */
export const pushStatusQuerySchema = z.object({ deviceId, appName });

/** DELETE /push-subscriptions/user/{deviceId}?appName and PATCH …/deactivate?appName. */
export const pushDeviceParamsSchema = z.object({ deviceId });
export const pushAppQuerySchema = z.object({ appName });

// ---- responses ----

export const vapidPublicKeyResponseSchema = z.object({ publicKey: z.string() });

export const pushStatusResponseSchema = z.object({ active: z.boolean() });

/** A registered subscription as its owner sees it; its keys never leave the server again. */
export const pushSubscriptionSchema = z.object({
  appName: z.string(),
  deviceId: z.string(),
  deviceName: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
