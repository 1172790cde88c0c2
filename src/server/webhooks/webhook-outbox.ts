import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { WebhookEventData } from '../../domain/schemas/webhook-events';
import type { WebhookEventType } from '../../domain/webhooks';
import type { Executor } from '../db/connect';
import { groupWebhooks, webhookDeliveries } from '../db/webhooks-schema';
import { isoTime } from '../iso-time';

// The outbox (docs/integrations.md "Webhooks", "Delivery"): an event's deliveries are written
// in the transaction of the change they tell, so they commit or roll back with it, and a crash
// right after the commit loses nothing; the jobs runner sends them (jobs/webhooks.job.ts).
// Each hook that asked for the event type and is not paused gets one row; rows made by a
// timer carry a key (`dedupeKey`), unique per hook, so a second pass or instance adds none.

export interface QueuedEvent<T extends WebhookEventType> {
  groupId: number;
  type: T;
  /** When it happened: the body's `timestamp`. */
  at: Date;
  /** The event's data for a hook: "Post results" changes what bet.resolved says. */
  data: (hook: { postResults: boolean }) => Promise<WebhookEventData[T]>;
  /** For an event a timer makes (closing soon, the weekly table): once per hook. */
  dedupeKey?: string;
  /** Only these hooks (the weekly table, due per hook by its own time zone). */
  hookIds?: readonly number[];
}

/** A new `webhook-id`: `msg_` and 128 random bits. */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** Queues the event for every live hook of its group that wants it; returns how many rows. */
export async function queueWebhookEvent<T extends WebhookEventType>(
  tx: Executor,
  event: QueuedEvent<T>,
): Promise<number> {
  const hooks = await tx
    .select({ id: groupWebhooks.id, postResults: groupWebhooks.postResults })
    .from(groupWebhooks)
    .where(
      and(
        eq(groupWebhooks.groupId, event.groupId),
        isNull(groupWebhooks.pausedAt),
        sql`${event.type} = any(${groupWebhooks.events})`,
        event.hookIds ? inArray(groupWebhooks.id, [...event.hookIds]) : undefined,
      ),
    );
  if (hooks.length === 0) return 0;
  const bodies = new Map<boolean, string>();
  const eventId = newEventId();
  const timestamp = isoTime(event.at);
  const rows = [];
  for (const hook of hooks) {
    let body = bodies.get(hook.postResults);
    if (body === undefined) {
      body = JSON.stringify({ type: event.type, timestamp, data: await event.data(hook) });
      bodies.set(hook.postResults, body);
    }
    rows.push({
      hookId: hook.id,
      eventId,
      eventType: event.type,
      body,
      dedupeKey: event.dedupeKey ?? null,
      nextAttemptAt: event.at,
      createdAt: event.at,
    });
  }
  const inserted = await tx
    .insert(webhookDeliveries)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  return inserted.length;
}
