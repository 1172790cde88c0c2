import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { BET_TYPES } from '../../domain/bet-types';
import { BET_STATES, type BetTypeConfig } from '../../domain/bets';
import { LEDGER_KINDS } from '../../domain/ledger';

// One schema for PGlite and PostgreSQL (ARCHITECTURE.md §3, §4). Ids are integers.
// Later features add their tables here and a new migration with `npm run db:generate`.

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** PostgreSQL's 64-bit transaction id (never wraps), as text: only compared inside SQL. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

// The local mirror's change tracking (src/server/mirror, ARCHITECTURE.md §8). The trigger of
// migration 0005 stamps every insert and update of groups, memberships, bets and wagers with
// `version`, the next value of one sequence (a row's writers hold its lock, so its version only
// grows), and `change_txid`, the writing transaction: a pull returns the rows whose transaction
// its cursor's snapshot did not see. Values written here are overwritten by the trigger.
const changeColumns = () => ({
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  changeTxid: xid8('change_txid')
    .notNull()
    .default(sql`pg_current_xact_id()`),
});

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  appName: text('app_name').notNull(),
  // Guests have neither email, username nor password (spec 01 §3); emails and usernames are
  // stored lowercased by the domain schemas, so a plain unique index is case-insensitive.
  email: text('email').unique('users_email_unique'),
  username: text('username').unique('users_username_unique'),
  passwordHash: text('password_hash'),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  displayName: text('display_name').notNull(),
  isTemporary: boolean('is_temporary').notNull().default(false),
  roles: text('roles')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  profilePictureUrl: text('profile_picture_url'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // Set when the player deleted their account: the row stays as a nameless tombstone so the
  // groups' ledgers, wagers and bets keep their owner (src/server/auth/account-data.service.ts).
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});
export type UserRow = typeof users.$inferSelect;

// Refresh tokens are stored only as a SHA-256 hash. Every refresh rotates the token within its
// family; presenting a rotated token again revokes the whole family (ARCHITECTURE.md §6).
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('refresh_tokens_token_hash_unique'),
    familyId: text('family_id').notNull(),
    appName: text('app_name').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('refresh_tokens_family_idx').on(table.familyId),
    index('refresh_tokens_user_idx').on(table.userId),
  ],
);

// Password reset tokens: random, stored hashed, single use, valid one hour.
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('password_resets_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
);

// ---- groups (spec 02 §3, ARCHITECTURE.md §4) ----

export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    privacy: text('privacy', { enum: ['public', 'private'] }).notNull(),
    // Private groups only: joining one by id needs this code (spec 02 §3, §4).
    inviteCode: text('invite_code'),
    defaultPoints: integer('default_points').notNull(),
    createdByUserId: integer('created_by_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
  },
  (table) => [
    // Joining a public group is by name, so public names are unique case-insensitively
    // (ARCHITECTURE.md §4); private groups may share names.
    uniqueIndex('groups_public_name_unique')
      .on(sql`lower(${table.name})`)
      .where(sql`${table.privacy} = 'public'`),
    check('groups_privacy_check', sql`${table.privacy} in ('public', 'private')`),
    check(
      'groups_invite_code_check',
      sql`(${table.privacy} = 'private') = (${table.inviteCode} is not null)`,
    ),
    check('groups_default_points_check', sql`${table.defaultPoints} > 0`),
  ],
);
export type GroupRow = typeof groups.$inferSelect;

// One row per user and group, kept when the user leaves (left_at) so joining again restores
// the points and never grants them twice (ARCHITECTURE.md §4).
export const memberships = pgTable(
  'memberships',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['member', 'admin'] })
      .notNull()
      .default('member'),
    totalPoints: integer('total_points').notNull(),
    availablePoints: integer('available_points').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    leftAt: timestamp('left_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId] }),
    index('memberships_user_idx').on(table.userId),
    index('memberships_group_change_idx').on(table.groupId, table.changeTxid),
    check('memberships_role_check', sql`${table.role} in ('member', 'admin')`),
    check(
      'memberships_points_check',
      sql`0 <= ${table.availablePoints} and ${table.availablePoints} <= ${table.totalPoints}`,
    ),
  ],
);
export type MembershipRow = typeof memberships.$inferSelect;

// Every change of a membership's points is one row here, written in the same transaction
// (ARCHITECTURE.md §4); a membership's points are the sums of its rows' deltas.
export const ledger = pgTable(
  'ledger',
  {
    // Many rows per wager over the years: 64-bit ids (still JavaScript numbers, far below 2^53).
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    groupId: integer('group_id').notNull(),
    userId: integer('user_id').notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    totalDelta: integer('total_delta').notNull(),
    availableDelta: integer('available_delta').notNull(),
    // Set on wager, payout and refund rows. No cascade: a bet or wager with ledger rows cannot
    // be deleted on its own, which would break "points = sum of the ledger".
    betId: integer('bet_id').references((): AnyPgColumn => bets.id),
    wagerId: integer('wager_id').references((): AnyPgColumn => wagers.id),
    createdAt: createdAt(),
  },
  (table) => [
    // A ledger row always belongs to a membership.
    foreignKey({
      name: 'ledger_membership_fk',
      columns: [table.groupId, table.userId],
      foreignColumns: [memberships.groupId, memberships.userId],
    }).onDelete('cascade'),
    index('ledger_group_user_idx').on(table.groupId, table.userId),
    check(
      'ledger_kind_check',
      sql`${table.kind} in (${sql.raw(LEDGER_KINDS.map((kind) => `'${kind}'`).join(', '))})`,
    ),
  ],
);
export type LedgerRow = typeof ledger.$inferSelect;

// ---- bets (spec 02 §3, ARCHITECTURE.md §5) ----

export const bets = pgTable(
  'bets',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    betType: text('bet_type', { enum: BET_TYPES }).notNull(),
    // Validated per type by src/domain/bets.ts before it is stored (yes_no labels, options, line).
    betTypeConfig: jsonb('bet_type_config').$type<BetTypeConfig>().notNull().default({}),
    baseWagerAmount: integer('base_wager_amount').notNull(),
    state: text('state', { enum: BET_STATES }).notNull().default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    correctAnswer: text('correct_answer'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => users.id),
    // How many members the group had when the bet was resolved: its statistics' totalMembers,
    // fixed then, so they read the same on every device and never drift as people come and go.
    membersAtResolution: integer('members_at_resolution'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
  },
  (table) => [
    // A group's lists, the member state's queues and the expiry job all filter on these.
    index('bets_group_state_expires_idx').on(table.groupId, table.state, table.expiresAt),
    index('bets_group_change_idx').on(table.groupId, table.changeTxid),
    index('bets_created_by_idx').on(table.createdBy),
    check(
      'bets_state_check',
      sql`${table.state} in (${sql.raw(BET_STATES.map((state) => `'${state}'`).join(', '))})`,
    ),
    check(
      'bets_type_check',
      sql`${table.betType} in (${sql.raw(BET_TYPES.map((type) => `'${type}'`).join(', '))})`,
    ),
    check('bets_base_wager_check', sql`${table.baseWagerAmount} > 0`),
  ],
);
export type BetRow = typeof bets.$inferSelect;

// One wager per user per bet (ARCHITECTURE.md §4); changing it updates the row.
export const wagers = pgTable(
  'wagers',
  {
    id: serial('id').primaryKey(),
    betId: integer('bet_id')
      .notNull()
      .references(() => bets.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Stored normalised (src/domain/bets.ts normalizeAnswer), so equal answers share one key.
    prediction: text('prediction').notNull(),
    points: integer('points').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
  },
  (table) => [
    uniqueIndex('wagers_bet_user_unique').on(table.betId, table.userId),
    index('wagers_user_idx').on(table.userId),
    index('wagers_user_change_idx').on(table.userId, table.changeTxid),
    check('wagers_points_check', sql`${table.points} > 0`),
  ],
);
export type WagerRow = typeof wagers.$inferSelect;

// ---- comments on a bet ----

// A thread per bet. `group_id` is the bet's, kept here so the mirror reads a group's comments
// by its change index like the other mirrored tables. A delete is soft (`deleted_at`, text
// cleared): the row stays as a tombstone, which the mirror's delta pull carries to devices.
// Migration 0007 stamps its rows like migration 0005's tables (`version`, `change_txid`).
export const betComments = pgTable(
  'bet_comments',
  {
    id: serial('id').primaryKey(),
    betId: integer('bet_id')
      .notNull()
      .references(() => bets.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: integer('deleted_by').references(() => users.id, { onDelete: 'set null' }),
    ...changeColumns(),
  },
  (table) => [
    index('bet_comments_bet_idx').on(table.betId, table.createdAt),
    index('bet_comments_group_change_idx').on(table.groupId, table.changeTxid),
    check('bet_comments_text_check', sql`char_length(${table.text}) <= 500`),
  ],
);
export type BetCommentRow = typeof betComments.$inferSelect;

// ---- idempotency keys (ARCHITECTURE.md §4, §8) ----

export const IDEMPOTENCY_STATUSES = ['pending', 'done'] as const;

// The first answer to each (user, Idempotency-Key) write, replayed to retries for 24 h
// (src/server/idempotency). 'pending' while the first request runs, so a concurrent twin waits
// instead of applying the write again.
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    // sha256 of method, path and body: the same key sent with another request is refused (422).
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: IDEMPOTENCY_STATUSES }).notNull().default('pending'),
    statusCode: integer('status_code'),
    // The serialized body as it was sent (text, not jsonb, so a replay is byte for byte the same).
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [table.userId, table.key] }),
    // The purge of keys older than 24 h scans by age.
    index('idempotency_keys_created_at_idx').on(table.createdAt),
    check('idempotency_keys_status_check', sql`${table.status} in ('pending', 'done')`),
  ],
);
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

// ---- push (spec 02 §3 push subscription, ARCHITECTURE.md §7) ----

// One subscription per user, app and device (spec 02 §3): a device registering again updates
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

// When each person was last told the odds moved on a bet: at most one such push per bet per
// 10 minutes (ARCHITECTURE.md §7). Kept in the database so every instance agrees; a claim is
// one conditional upsert, so two instances never both send.
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
