import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { NOTIFICATION_KINDS, type NotificationPayload } from '../../domain/notifications';
import { createdAt, changeColumns } from './schema-columns';
import { users } from './accounts-schema';
import { groups } from './groups-schema';
import { bets } from './bets-schema';

// ---- push (docs/groups-and-bets.md §3 push subscription, docs/architecture.md §7) ----

// One subscription per user, app and device (docs/groups-and-bets.md §3): a device registering again updates
// its row. An endpoint is one browser's push channel, so it belongs to one row only: when
// another account signs in on that browser, registering moves the endpoint to it, and the
// previous account stops receiving that browser's notifications.
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appName: text('app_name').notNull(),
    deviceId: text('device_id').notNull(),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    deviceName: text('device_name'),
    // Off after the user detaches it (logout) or the push service answers 404/410.
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('push_subscriptions_device_unique').on(table.userId, table.appName, table.deviceId),
    uniqueIndex('push_subscriptions_endpoint_unique').on(table.endpoint),
    // Every notification looks up the active subscriptions of its recipients.
    index('push_subscriptions_active_user_idx')
      .on(table.userId)
      .where(sql`${table.active}`),
  ],
);
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

// When each person was last told the odds moved on a bet (an inbox entry, and its push): at
// most once per bet per 10 minutes (docs/architecture.md §7). Kept in the database so every
// instance agrees; a claim is one conditional upsert, so two instances never both tell.
export const pushOddsNotices = pgTable(
  'push_odds_notices',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    betId: integer('bet_id')
      .notNull()
      .references(() => bets.id, { onDelete: 'cascade' }),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ name: 'push_odds_notices_pk', columns: [table.userId, table.betId] })],
);

// ---- the inbox (src/server/notifications) ----

// One row per entry of a player's inbox. `key` names what the entry is about
// ("closes-soon:bet:12", "bet-created:group:3"): an entry of a kind sent once is unique per
// (user, key) for good, so two instances or a restart never send it twice; a gathering entry
// is unique per (user, key) while unread, so a burst lands in one row ("3 new bets").
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    betId: integer('bet_id').references(() => bets.id, { onDelete: 'cascade' }),
    // Who caused it (the latest, for a gathered entry): a deleted account's name leaves the payload.
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    key: text('key').notNull(),
    coalesces: boolean('coalesces').notNull(),
    count: integer('count').notNull().default(1),
    payload: jsonb('payload').$type<NotificationPayload>().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    // The last push of this entry: at most one per bet per kind, a burst pushed once per window.
    pushedAt: timestamp('pushed_at', { withTimezone: true }),
    ...changeColumns(),
  },
  (table) => [
    uniqueIndex('notifications_once_key')
      .on(table.userId, table.key)
      .where(sql`not ${table.coalesces}`),
    uniqueIndex('notifications_unread_key')
      .on(table.userId, table.key)
      .where(sql`${table.coalesces} and ${table.readAt} is null`),
    index('notifications_user_change_idx').on(table.userId, table.changeTxid),
    index('notifications_updated_idx').on(table.updatedAt),
    index('notifications_actor_idx').on(table.actorId),
    // A bet's settlement marks its entries read, and a bet's deletion cascades to them.
    index('notifications_bet_idx').on(table.betId),
    check(
      'notifications_kind_check',
      sql`${table.kind} in (${sql.raw(NOTIFICATION_KINDS.map((kind) => `'${kind}'`).join(', '))})`,
    ),
  ],
);
export type NotificationRow = typeof notifications.$inferSelect;

// A player's choices: which kinds reach push (those turned off are listed) and what is muted.
// One row per player, made on their first change; no row means the defaults.
export const notificationSettings = pgTable('notification_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  pushOff: text('push_off')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  mutedGroupIds: integer('muted_group_ids')
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`),
  mutedBetIds: integer('muted_bet_ids')
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`),
  ...changeColumns(),
});
export type NotificationSettingsRow = typeof notificationSettings.$inferSelect;
