// Push: the types of the subscription calls (the wire schemas: schemas/push.ts), and the
// notification payload the service worker shows.

/** At most one "odds changed" push per bet per person in this window (docs/architecture.md §7). */
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

/** POST /push-subscriptions: a browser's PushSubscription plus where it lives (docs/groups-and-bets.md §3), as validated. */
export type RegisterPushSubscriptionRequest = {
  appName: string;
  deviceId: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  userAgent?: string | null | undefined;
  deviceName?: string | null | undefined;
};

export type VapidPublicKeyResponse = { publicKey: string };

export type PushStatusResponse = { active: boolean };

/** A registered subscription as its owner sees it; its keys never leave the server again. */
export type PushSubscription = {
  appName: string;
  deviceId: string;
  deviceName: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
};

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
