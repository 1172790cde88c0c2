import type { Webhook, WebhookDelivery } from '../../domain/schemas/webhooks';
import { webhookFormatOf } from '../../domain/webhooks';
import type { GroupWebhookRow, WebhookDeliveryRow } from '../db/webhooks-schema';
import { isoTime } from '../iso-time';

// A hook as its group's admins see it: never its secret (only creation and rotation answer it,
// once), never a delivery's body or signature.

export function presentWebhook(row: GroupWebhookRow, now: Date): Webhook {
  const isPreviousLive = row.previousSecretUntil !== null && row.previousSecretUntil > now;
  return {
    id: row.id,
    groupId: row.groupId,
    url: row.url,
    events: row.events,
    postResults: row.postResults,
    timeZone: row.timeZone,
    format: webhookFormatOf(row.url),
    createdAt: isoTime(row.createdAt),
    pausedAt: row.pausedAt && isoTime(row.pausedAt),
    previousSecretUntil: isPreviousLive ? isoTime(row.previousSecretUntil!) : null,
  };
}

export function presentDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    hookId: row.hookId,
    eventId: row.eventId,
    type: row.eventType,
    state: row.state,
    attempts: row.attempts,
    createdAt: isoTime(row.createdAt),
    lastAttemptAt: row.lastAttemptAt && isoTime(row.lastAttemptAt),
    nextAttemptAt: row.state === 'pending' && row.nextAttemptAt ? isoTime(row.nextAttemptAt) : null,
    responseStatus: row.responseStatus,
    error: row.error,
  };
}
