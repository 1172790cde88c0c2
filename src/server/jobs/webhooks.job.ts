import type { Database } from '../db/connect';
import type { EventBus } from '../events';
import type { PushEndpointRule } from '../push-endpoints';
import {
  claimDueDeliveries,
  recordOutcome,
  type ClaimedDelivery,
} from '../webhooks/webhook-delivery';
import { postWebhook, webhookRequestOf } from '../webhooks/webhook-sender';
import { queueClosingSoon, queueWeeklyTables } from '../webhooks/webhook-timed-events';
import type { AddressLookup } from '../webhooks/webhook-urls';
import { startIntervalJob, type IntervalJob, type IntervalJobOptions } from './interval-job';

// Group webhooks (src/server/webhooks, docs/integrations.md): each pass queues the events a
// timer makes (closing soon, Monday's table), then sends every due delivery. Deliveries are
// claimed FOR UPDATE SKIP LOCKED with a lease (webhook-delivery.ts), so with several
// instances each is sent by one; one hook's deliveries go one after another, in the order
// they were queued, different hooks side by side. A bus event that queued deliveries (a bet
// created, resolved…) starts a pass at once, so a channel hears within a moment, not at the
// next tick.

export interface WebhooksDeps {
  db: Database;
  /** For the inbox entry of a paused hook. */
  events?: EventBus;
  /** PUBLIC_URL: the links in every payload start with it. */
  origin: string;
  hostRules: readonly PushEndpointRule[];
  closesSoonMs: number;
  timeoutMs?: number;
  lookup?: AddressLookup;
}

export interface WebhooksOutcome {
  queued: number;
  delivered: number;
  failed: number;
}

/** One pass: timed events queued, then every due delivery tried once. */
export async function runWebhooks(
  deps: WebhooksDeps,
  now: Date = new Date(),
): Promise<WebhooksOutcome> {
  const outcome: WebhooksOutcome = { queued: 0, delivered: 0, failed: 0 };
  outcome.queued += await queueClosingSoon(deps.db, now, deps.closesSoonMs);
  outcome.queued += await queueWeeklyTables(deps.db, now);
  for (;;) {
    const claimed = await claimDueDeliveries(deps.db, now);
    if (claimed.length === 0) return outcome;
    const byHook = new Map<number, ClaimedDelivery[]>();
    for (const entry of claimed)
      byHook.set(entry.hook.id, [...(byHook.get(entry.hook.id) ?? []), entry]);
    await Promise.all(
      [...byHook.values()].map(async (entries) => {
        for (const entry of entries) {
          const sentAt = new Date();
          const request = webhookRequestOf(entry.hook, entry.delivery, deps.origin, sentAt);
          const sent = await postWebhook(request, {
            rules: deps.hostRules,
            timeoutMs: deps.timeoutMs,
            lookup: deps.lookup,
          });
          await recordOutcome(deps, entry, sent, now);
          if (sent.error === null) outcome.delivered += 1;
          else outcome.failed += 1;
        }
      }),
    );
  }
}

/** The bus events whose write may have queued deliveries: each starts a pass. */
const QUEUEING_EVENTS = new Set([
  'betCreated',
  'betResolved',
  'betCancelled',
  'betExpired',
  'picksRevealed',
  'userJoinedGroup',
]);

export type WebhooksJob = IntervalJob & { kick(): void };

/** Runs `runWebhooks` every `intervalMs`, and at once after a write that queued deliveries. */
export function startWebhooksJob(
  deps: WebhooksDeps & IntervalJobOptions & { events: EventBus },
): WebhooksJob {
  const job = startIntervalJob({
    ...deps,
    name: 'webhooks',
    run: async (now) => {
      await runWebhooks(deps, now);
    },
  });
  const unsubscribe = deps.events.subscribe(({ event }) => {
    if (QUEUEING_EVENTS.has(event)) job.kick();
  });
  return {
    kick: () => job.kick(),
    async stop() {
      unsubscribe();
      await job.stop();
    },
  };
}
