import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { WebhookEventType } from '../../domain/webhooks';
import { groups, users } from './schema';

// A group's outgoing webhooks and their outbox (src/server/webhooks, docs/integrations.md).
// The secret is kept as it is, not hashed: every delivery is signed with it. A delivery row is
// written in the same transaction as the event it tells (a bet created, resolved…), with its
// whole body, so a restart loses nothing and every try sends the same bytes; the jobs runner
// sends it and records each try. Not mirrored: the screen asks the server.
export const groupWebhooks = pgTable(
  'group_webhooks',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().$type<WebhookEventType[]>().notNull(),
    postResults: boolean('post_results').notNull().default(false),
    /** Where "Monday morning" is for leaderboard.weekly (the adding admin's zone). */
    timeZone: text('time_zone').notNull().default('UTC'),
    secret: text('secret').notNull(),
    /** After a rotation the old secret signs too, until `previousSecretUntil`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Paused: nothing is queued or sent until an admin resumes it. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** The first failed try since the last success; a day of it pauses the hook. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    /** The Monday (local date) whose leaderboard.weekly was queued last. */
    weeklySentFor: text('weekly_sent_for'),
  },
  (table) => [index('group_webhooks_group_idx').on(table.groupId, table.id)],
);
export type GroupWebhookRow = typeof groupWebhooks.$inferSelect;

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    hookId: integer('hook_id')
      .notNull()
      .references(() => groupWebhooks.id, { onDelete: 'cascade' }),
    /** The `webhook-id` header: one per event and hook, the same on every try and resend. */
    eventId: text('event_id').notNull(),
    eventType: text('event_type').$type<WebhookEventType>().notNull(),
    /** The Standard Webhooks body, exactly as signed and sent. */
    body: text('body').notNull(),
    /** What an event made by a timer is once per hook (a bet's closing_soon, a week's table). */
    dedupeKey: text('dedupe_key'),
    state: text('state', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next try is due; while one is under way, when it may be taken again. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.state} = 'pending'`),
    index('webhook_deliveries_hook_idx').on(table.hookId, table.id),
    uniqueIndex('webhook_deliveries_dedupe_idx')
      .on(table.hookId, table.dedupeKey)
      .where(sql`${table.dedupeKey} is not null`),
    check(
      'webhook_deliveries_state_check',
      sql`${table.state} in ('pending', 'delivered', 'failed')`,
    ),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
