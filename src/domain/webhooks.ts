// A group's outgoing webhooks (docs/integrations.md, "Webhooks"): what a hook may ask to hear,
// how its deliveries are retried, and which of the three formats its URL gets. Pure: the
// server queues and sends (src/server/webhooks), the Settings screen offers the same choices.

/** Every event a hook may ask for, in the order the screen lists them. */
export const WEBHOOK_EVENTS = [
  'bet.created',
  'bet.closing_soon',
  'bet.closed',
  'bet.resolved',
  'bet.cancelled',
  'member.joined',
  'leaderboard.weekly',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_LIMITS = {
  /** Hooks per group. */
  perGroup: 5,
  urlMax: 500,
  /** Deliveries a hook's list shows (newest first). */
  deliveriesShown: 50,
  /** Tries of one delivery before it is given up. */
  attempts: 8,
  /** A request's whole time, connect to last byte. */
  timeoutMs: 5_000,
  /** A hook whose deliveries failed this long in a row is paused and its admins told. */
  failingPauseMs: 24 * 60 * 60 * 1000,
  /** After a rotation the old secret keeps signing (beside the new one) this long. */
  previousSecretMs: 24 * 60 * 60 * 1000,
  /** leaderboard.weekly goes out on Monday from this hour, in the hook's time zone. */
  weeklyHour: 9,
} as const;

/**
 * How long after failed try number `attempt` (1-based) the next one is made: 30 s, 2 min,
 * 8 min, 32 min, about 2 h, then 8 h; the 8 tries span about 19 hours. Null after the last.
 */
export function webhookRetryDelayMs(attempt: number): number | null {
  if (attempt >= WEBHOOK_LIMITS.attempts) return null;
  return Math.min(30_000 * 4 ** (attempt - 1), 8 * 60 * 60 * 1000);
}

/** What a receiver gets: a signed Standard Webhooks body, or a chat's own message. */
export type WebhookFormat = 'standard' | 'discord' | 'slack';

// Chosen by the path's shape, whatever the host: a channel's webhook URL at Discord is
// /api/webhooks/<id>/<token> (also /api/v10/webhooks/…), at Slack /services/T…/B…/<token>.
// Where a host may be requested at all is the operator's (WEBHOOK_HOSTS) and the server's
// address rules; a local stand-in on an allowed host with Discord's path gets Discord's format.
const DISCORD_PATH = /^\/api(\/v\d+)?\/webhooks\/\d+\/[\w-]+\/?$/;
const SLACK_PATH = /^\/services\/T\w+\/B\w+\/\w+\/?$/;

export function webhookFormatOf(url: string): WebhookFormat {
  if (!URL.canParse(url)) return 'standard';
  const { pathname } = new URL(url);
  if (DISCORD_PATH.test(pathname)) return 'discord';
  if (SLACK_PATH.test(pathname)) return 'slack';
  return 'standard';
}

/** A delivery's state: waiting for its (next) try, answered with a 2xx, or given up. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

// The events' payloads (`data`) are described in schemas/webhook-events.ts, one schema each,
// which the OpenAPI description's `webhooks` shows too.
