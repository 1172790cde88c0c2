import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { webhookRetryDelayMs, WEBHOOK_LIMITS } from '../../domain/webhooks';
import type { Database } from '../db/connect';
import { groups } from '../db/schema';
import {
  groupWebhooks,
  webhookDeliveries,
  type GroupWebhookRow,
  type WebhookDeliveryRow,
} from '../db/webhooks-schema';
import type { EventBus } from '../events';
import { listActiveAdminIds } from '../groups/membership-queries';
import { announceNotifications } from '../notifications/notification.recorder';
import { saveNotifications } from '../notifications/notification-store';
import type { SendOutcome } from './webhook-sender';

// Taking due deliveries and recording each try (docs/integrations.md, "Retries"). A pass
// claims a batch in one short transaction, rows taken FOR UPDATE SKIP LOCKED: each claimed row
// has its try counted and its next time moved a lease ahead, so no other pass or instance
// takes it while the request is under way; the request is made outside any transaction; its
// outcome is written in a transaction of its own. A process killed mid-try leaves the row
// pending: it is tried again once the lease ends (at least once; receivers dedupe on
// `webhook-id`, which stays the same). A failure is tried again after webhookRetryDelayMs,
// 8 tries in all; a hook whose tries kept failing for a day is paused and its admins told.

const CLAIM_BATCH = 50;
/** Longer than a try can take (5 s), so a try under way is never taken twice. */
export const DELIVERY_LEASE_MS = 60_000;

export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  hook: GroupWebhookRow;
}

/** Claims up to a batch of due deliveries of hooks not paused, oldest first. */
export async function claimDueDeliveries(db: Database, now: Date): Promise<ClaimedDelivery[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(groupWebhooks, eq(groupWebhooks.id, webhookDeliveries.hookId))
      .where(
        and(
          eq(webhookDeliveries.state, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          isNull(groupWebhooks.pausedAt),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
      .limit(CLAIM_BATCH)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    if (due.length === 0) return [];
    const claimed = await tx
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lastAttemptAt: now,
        nextAttemptAt: new Date(now.getTime() + DELIVERY_LEASE_MS),
      })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    const hooks = await tx
      .select()
      .from(groupWebhooks)
      .where(inArray(groupWebhooks.id, [...new Set(claimed.map((row) => row.hookId))]));
    const hookById = new Map(hooks.map((hook) => [hook.id, hook]));
    return claimed
      .sort((a, b) => a.id - b.id)
      .map((delivery) => ({ delivery, hook: hookById.get(delivery.hookId)! }));
  });
}

/** Writes a try's outcome; a day of failures pauses the hook and tells its admins. */
export async function recordOutcome(
  deps: { db: Database; events?: EventBus | undefined },
  claimed: ClaimedDelivery,
  outcome: SendOutcome,
  now: Date,
): Promise<void> {
  const { delivery } = claimed;
  const isDelivered = outcome.error === null;
  const saved = await deps.db.transaction(async (tx) => {
    const retryMs = isDelivered ? null : webhookRetryDelayMs(delivery.attempts);
    await tx
      .update(webhookDeliveries)
      .set({
        state: isDelivered ? 'delivered' : retryMs === null ? 'failed' : 'pending',
        nextAttemptAt: retryMs === null ? null : new Date(now.getTime() + retryMs),
        responseStatus: outcome.status,
        error: outcome.error,
      })
      .where(eq(webhookDeliveries.id, delivery.id));
    const [hook] = await tx
      .select()
      .from(groupWebhooks)
      .where(eq(groupWebhooks.id, delivery.hookId))
      .for('no key update');
    if (!hook) return [];
    if (isDelivered) {
      if (hook.failingSince)
        await tx
          .update(groupWebhooks)
          .set({ failingSince: null })
          .where(eq(groupWebhooks.id, hook.id));
      return [];
    }
    const failingSince = hook.failingSince ?? now;
    const shouldPause =
      hook.pausedAt === null &&
      now.getTime() - failingSince.getTime() >= WEBHOOK_LIMITS.failingPauseMs;
    await tx
      .update(groupWebhooks)
      .set({ failingSince, ...(shouldPause ? { pausedAt: now } : {}) })
      .where(eq(groupWebhooks.id, hook.id));
    if (!shouldPause) return [];
    const [group] = await tx
      .select({ name: groups.name })
      .from(groups)
      .where(eq(groups.id, hook.groupId));
    const admins = await listActiveAdminIds(tx, hook.groupId);
    return saveNotifications(
      tx,
      'webhookPaused',
      admins.map((userId) => ({
        userId,
        groupId: hook.groupId,
        betId: null,
        actorId: null,
        eventKey: `${hook.id}:${now.getTime()}`,
        payload: { groupName: group?.name ?? 'your group' },
      })),
      now,
    );
  });
  if (deps.events) announceNotifications(deps.events, saved);
}
