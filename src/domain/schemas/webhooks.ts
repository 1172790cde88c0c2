import { z } from './zod';
import { GROUP_MESSAGES } from '../groups';
import { isKnownTimeZone } from '../time-zones';
import {
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_EVENTS,
  WEBHOOK_LIMITS,
  type WebhookFormat,
} from '../webhooks';
import { idSchema } from './ids';

// A group's webhooks on the wire (rules and types: src/domain/webhooks.ts), with the messages
// the Settings screen shows.

export const WEBHOOK_MESSAGES = {
  urlInvalid: 'Enter the full address, starting with https://',
  urlTooLong: `Keep the address under ${WEBHOOK_LIMITS.urlMax} characters`,
  eventsRequired: 'Pick at least one event',
  timeZoneUnknown: 'Unknown time zone',
  hookRequired: 'Webhook id is required',
  deliveryRequired: 'Delivery id is required',
};

const url = z
  .string({ error: WEBHOOK_MESSAGES.urlInvalid })
  .trim()
  .max(WEBHOOK_LIMITS.urlMax, WEBHOOK_MESSAGES.urlTooLong)
  .refine(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    WEBHOOK_MESSAGES.urlInvalid,
  );

const events = z
  .array(z.enum(WEBHOOK_EVENTS), { error: WEBHOOK_MESSAGES.eventsRequired })
  .min(1, WEBHOOK_MESSAGES.eventsRequired)
  .max(WEBHOOK_EVENTS.length)
  // Each once, in the list's order, whatever order they came in.
  .transform((list) => WEBHOOK_EVENTS.filter((event) => list.includes(event)));

/** POST /groups/{id}/webhooks. */
export const createWebhookRequestSchema = z.object({
  url,
  events,
  /** bet.resolved names the answer and the winners only with this on (off: no spoilers). */
  postResults: z.boolean().default(false),
  /** Where "Monday morning" is for leaderboard.weekly: the adding admin's zone (default UTC). */
  timeZone: z
    .string()
    .max(64)
    .refine(isKnownTimeZone, WEBHOOK_MESSAGES.timeZoneUnknown)
    .default('UTC'),
});
export type CreateWebhookRequest = z.input<typeof createWebhookRequestSchema>;

/** PATCH /groups/{id}/webhooks/{hookId}: what changes; `paused: false` resumes a paused hook. */
export const updateWebhookRequestSchema = z.object({
  url: url.optional(),
  events: events.optional(),
  postResults: z.boolean().optional(),
  paused: z.boolean().optional(),
});
export type UpdateWebhookRequest = z.input<typeof updateWebhookRequestSchema>;

export const webhookParamsSchema = z.object({
  id: idSchema(GROUP_MESSAGES.groupIdRequired),
  hookId: idSchema(WEBHOOK_MESSAGES.hookRequired),
});
export const webhookDeliveryParamsSchema = webhookParamsSchema.extend({
  deliveryId: idSchema(WEBHOOK_MESSAGES.deliveryRequired),
});

export const webhookSchema = z.object({
  id: z.number().int(),
  groupId: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  postResults: z.boolean(),
  timeZone: z.string(),
  /** How deliveries are written: signed JSON, or a Discord or Slack message (by the URL). */
  format: z.enum(['standard', 'discord', 'slack'] satisfies WebhookFormat[]),
  createdAt: z.string(),
  /** Set when its deliveries failed for a day (or an admin paused it): nothing is sent. */
  pausedAt: z.string().nullable(),
  /** While an old secret still signs beside the current one, until when. */
  previousSecretUntil: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The one answer with the secret (creation and rotation): shown once, never again. */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });
export type WebhookList = z.infer<typeof webhookListSchema>;

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  hookId: z.number().int(),
  /** The `webhook-id` header: the same on every try, so a receiver can drop a repeat. */
  eventId: z.string(),
  type: z.enum(WEBHOOK_EVENTS),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  /** The receiver's HTTP status on the last try; null when it never answered. */
  responseStatus: z.number().int().nullable(),
  /** Why the last try failed, in a few words (timeout, refused address…); null on success. */
  error: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;
