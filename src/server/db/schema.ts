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
import { BET_HISTORY_KINDS, DISPUTE_STATES } from '../../domain/fair-resolution';
import { LEDGER_KINDS } from '../../domain/ledger';
import { NOTIFICATION_KINDS, type NotificationPayload } from '../../domain/notifications';
import { SEASON_STATES } from '../../domain/seasons';

// One schema for PGlite and PostgreSQL (docs/architecture.md §3, §4). Ids are integers.
// Later features add their tables here and a new migration with `npm run db:generate`.

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** PostgreSQL's 64-bit transaction id (never wraps), as text: only compared inside SQL. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

// The local mirror's change tracking (src/server/mirror, docs/architecture.md §8). The trigger of
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
  // Guests have neither email, username nor password (docs/accounts-and-shell.md §3); emails and usernames are
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
// family; presenting a rotated token again revokes the whole family (docs/architecture.md §6).
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

// Password reset tokens: random, stored hashed, single use, valid one hour, and only while the
// account's email is still the address the link was mailed to (`sent_to`): a link in a mailbox
// the account has left must not take the account over.
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentTo: text('sent_to').notNull(),
    tokenHash: text('token_hash').notNull().unique('password_resets_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
);

// A full account's change of email waiting for the new address to confirm it: the link mailed
// there carries a random token, of which only the SHA-256 is kept; valid 24 hours. Its row is
// deleted when it is used, and when a newer change, sign-out everywhere, a password change or
// reset or the account's deletion ends it.
export const emailChanges = pgTable(
  'email_changes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique('email_changes_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('email_changes_user_idx').on(table.userId)],
);

// Move to another device: a one-time sign-in code, `<id>.<secret>`, of which only
// the secret's SHA-256 is kept; valid 10 minutes, single use, revocable. A new code revokes the
// user's earlier ones.
export const deviceTransfers = pgTable(
  'device_transfers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('device_transfers_user_idx').on(table.userId)],
);

// ---- groups (docs/groups-and-bets.md §3, docs/architecture.md §4) ----

export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    privacy: text('privacy', { enum: ['public', 'private'] }).notNull(),
    // Private groups only: joining one by id needs this code (docs/groups-and-bets.md §3, §4).
    inviteCode: text('invite_code'),
    defaultPoints: integer('default_points').notNull(),
    // "Nobody is out of the game": on by default, an admin can turn it off.
    floorTopUp: boolean('floor_top_up').notNull().default(true),
    // The base amounts its bets choose from, $ / $$ / $$$ (src/domain/stakes.ts STAKE_TIER_SETS).
    stakeTiers: integer('stake_tiers')
      .array()
      .notNull()
      .default(sql`'{1,2,3}'`),
    createdByUserId: integer('created_by_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
  },
  (table) => [
    // Joining a public group is by name, so public names are unique case-insensitively
    // (docs/architecture.md §4); private groups may share names.
    uniqueIndex('groups_public_name_unique')
      .on(sql`lower(${table.name})`)
      .where(sql`${table.privacy} = 'public'`),
    check('groups_privacy_check', sql`${table.privacy} in ('public', 'private')`),
    check(
      'groups_invite_code_check',
      sql`(${table.privacy} = 'private') = (${table.inviteCode} is not null)`,
    ),
    check('groups_default_points_check', sql`${table.defaultPoints} > 0`),
    check(
      'groups_stake_tiers_check',
      sql`${table.stakeTiers} in ('{1,2,3}', '{5,10,15}', '{10,20,30}')`,
    ),
  ],
);
export type GroupRow = typeof groups.$inferSelect;

// One row per user and group, kept when the user leaves (left_at) so joining again restores
// the points and never grants them twice (docs/architecture.md §4).
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
    // Set when an admin removed the member (left_at is set too): they may not join again by
    // themself, by name, link or code, until an admin adds them back, which clears it.
    removedAt: timestamp('removed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
    // The change stamp other members' mirrors read (migration 0017's trigger): it moves only with
    // what they may see (total points, role, leaving, name), never with available points alone,
    // so a wager does not send the wagerer's row to the group next to the bet's new totals.
    publicVersion: bigint('public_version', { mode: 'number' }).notNull().default(0),
    publicChangeTxid: xid8('public_change_txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId] }),
    index('memberships_user_idx').on(table.userId),
    index('memberships_group_change_idx').on(table.groupId, table.changeTxid),
    index('memberships_group_public_change_idx').on(table.groupId, table.publicChangeTxid),
    // The floor top-up job looks for members low on available points, not through every membership.
    index('memberships_available_idx')
      .on(table.availablePoints)
      .where(sql`${table.leftAt} is null`),
    check('memberships_role_check', sql`${table.role} in ('member', 'admin')`),
    // Points held in open wagers (total − available) are never negative. Available points may
    // be: a re-resolution takes back winnings the winner already wagered again (a debt that
    // payouts, refunds, the floor top-up or a season's reset fill).
    check('memberships_points_check', sql`${table.availablePoints} <= ${table.totalPoints}`),
  ],
);
export type MembershipRow = typeof memberships.$inferSelect;

// Every change of a membership's points is one row here, written in the same transaction
// (docs/architecture.md §4); a membership's points are the sums of its rows' deltas.
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

// One row per member and ISO week they were topped up (src/server/jobs/floor-top-up.job.ts):
// the primary key makes the weekly top-up happen at most once, whichever instance runs it.
export const floorTopUps = pgTable(
  'floor_top_ups',
  {
    groupId: integer('group_id').notNull(),
    userId: integer('user_id').notNull(),
    /** ISO week of the run, e.g. "2026-W48". */
    week: text('week').notNull(),
    points: integer('points').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId, table.week] }),
    foreignKey({
      name: 'floor_top_ups_membership_fk',
      columns: [table.groupId, table.userId],
      foreignColumns: [memberships.groupId, memberships.userId],
    }).onDelete('cascade'),
    check('floor_top_ups_points_check', sql`${table.points} > 0`),
  ],
);

// ---- seasons (src/domain/seasons.ts) ----

// A group's seasons: at most one active per group (a partial unique index). Ending one writes
// its standings and sets state, ended_at in one transaction (src/server/seasons). Mirrored like
// the comments: the stamp trigger of the seasons migration versions each row, and a season's
// standings travel with it (they are written once, when the season ends).
export const seasons = pgTable(
  'seasons',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    resetPoints: boolean('reset_points').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    state: text('state', { enum: SEASON_STATES }).notNull().default('active'),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: createdAt(),
    ...changeColumns(),
  },
  (table) => [
    uniqueIndex('seasons_one_active_per_group')
      .on(table.groupId)
      .where(sql`${table.state} = 'active'`),
    // The seasons job finds due seasons by their end.
    index('seasons_active_ends_idx')
      .on(table.endsAt)
      .where(sql`${table.state} = 'active'`),
    index('seasons_group_change_idx').on(table.groupId, table.changeTxid),
    check('seasons_name_check', sql`char_length(${table.name}) between 1 and 40`),
    check('seasons_state_check', sql`${table.state} in ('active', 'ended')`),
    check('seasons_ended_check', sql`(${table.state} = 'ended') = (${table.endedAt} is not null)`),
    check('seasons_span_check', sql`${table.startsAt} < ${table.endsAt}`),
  ],
);
export type SeasonRow = typeof seasons.$inferSelect;

// A finished season's final standings, written once when it ends: the ranks, what each member
// won or lost during the season (from the ledger), their name and total points as they were.
export const seasonStandings = pgTable(
  'season_standings',
  {
    seasonId: integer('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rank: integer('rank').notNull(),
    points: integer('points').notNull(),
    userName: text('user_name').notNull(),
    totalPoints: integer('total_points').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.seasonId, table.userId] }),
    check('season_standings_rank_check', sql`${table.rank} >= 1`),
  ],
);
export type SeasonStandingRow = typeof seasonStandings.$inferSelect;

// ---- bets (docs/groups-and-bets.md §3, docs/architecture.md §5) ----

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
    // Set by jobs/picks-reveal.job.ts once expiresAt passed: the stamp makes the delta pull carry
    // the bet again, now with everyone's picks.
    picksRevealedAt: timestamp('picks_revealed_at', { withTimezone: true }),
    // The dispute of the current resolution: open until an admin re-resolves or
    // dismisses it (closed: final); an undo clears it with the resolution it disputed.
    disputeState: text('dispute_state', { enum: DISPUTE_STATES }),
    disputedBy: integer('disputed_by').references(() => users.id, { onDelete: 'set null' }),
    disputeReason: text('dispute_reason'),
    disputedAt: timestamp('disputed_at', { withTimezone: true }),
    // A repeating bet's later slots (bets/bet-repeats.ts): the series' first bet and this one's
    // slot in it (1, 2, …). The first bet has neither; the unique index makes one bet per slot.
    repeatOf: integer('repeat_of').references((): AnyPgColumn => bets.id, { onDelete: 'set null' }),
    repeatSlot: integer('repeat_slot'),
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
    // The jobs read open bets by their close across all groups: expiry and the resolve reminders
    // the closed ones, the picks reveal and the closes-soon reminders those whose picks are still
    // hidden. Partial, so a pass reads the bets it is about, not the table.
    index('bets_active_expires_idx')
      .on(table.expiresAt, table.id)
      .where(sql`${table.state} = 'active'`),
    index('bets_hidden_picks_expires_idx')
      .on(table.expiresAt, table.id)
      .where(sql`${table.state} = 'active' and ${table.picksRevealedAt} is null`),
    check(
      'bets_state_check',
      sql`${table.state} in (${sql.raw(BET_STATES.map((state) => `'${state}'`).join(', '))})`,
    ),
    check(
      'bets_type_check',
      sql`${table.betType} in (${sql.raw(BET_TYPES.map((type) => `'${type}'`).join(', '))})`,
    ),
    check('bets_base_wager_check', sql`${table.baseWagerAmount} > 0`),
    uniqueIndex('bets_repeat_slot_unique')
      .on(table.repeatOf, table.repeatSlot)
      .where(sql`${table.repeatOf} is not null`),
    check(
      'bets_dispute_state_check',
      sql`${table.disputeState} is null or ${table.disputeState} in ('open', 'closed')`,
    ),
  ],
);
export type BetRow = typeof bets.$inferSelect;

// The resolve reminders' schedule (src/server/jobs/reminders.job.ts): one row per active bet,
// when the job next looks at it for its creator's reminder (domain resolveReminderDueAt: its
// close, then a day after each reminder). Every write of a bet's state keeps it
// (bets/resolve-reminders.ts): a settled bet has none. A pass reads the rows due through the
// index, not every closed bet. Apart from `bets` and not mirrored: moving a reminder a day on
// is the job's bookkeeping, so it never restamps the bet for the devices.
export const resolveReminders = pgTable(
  'resolve_reminders',
  {
    betId: integer('bet_id')
      .primaryKey()
      .references(() => bets.id, { onDelete: 'cascade' }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('resolve_reminders_due_idx').on(table.dueAt, table.betId)],
);

// One wager per user per bet (docs/architecture.md §4); changing it updates the row.
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
    // 0: a score tip, which stakes nothing (docs/rules.md "Tipping rounds").
    check('wagers_points_check', sql`${table.points} >= 0`),
  ],
);
export type WagerRow = typeof wagers.$inferSelect;

// ---- a bet's history ----

// What happened to a bet, by whom and when: created, resolved, undone, disputed, re-resolved,
// dismissed, cancelled, expired. Only ever inserted. Mirrored like the comments (`group_id`
// for the change index; the fair_resolution migration stamps its rows).
export const betHistory = pgTable(
  'bet_history',
  {
    id: serial('id').primaryKey(),
    betId: integer('bet_id')
      .notNull()
      .references(() => bets.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: BET_HISTORY_KINDS }).notNull(),
    // Null: the bet did it by itself (the expiry job), or the actor deleted their account.
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    correctAnswer: text('correct_answer'),
    reason: text('reason'),
    createdAt: createdAt(),
    ...changeColumns(),
  },
  (table) => [
    index('bet_history_bet_idx').on(table.betId, table.id),
    index('bet_history_group_change_idx').on(table.groupId, table.changeTxid),
    check(
      'bet_history_kind_check',
      sql`${table.kind} in (${sql.raw(BET_HISTORY_KINDS.map((kind) => `'${kind}'`).join(', '))})`,
    ),
  ],
);
export type BetHistoryRow = typeof betHistory.$inferSelect;

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

// ---- idempotency keys (docs/architecture.md §4, §8) ----

// The first answer to each (user, Idempotency-Key) REST write, replayed to retries for 24 h
// (src/server/idempotency). Written in the write's own transaction, with its answer: a row
// exists exactly when its write committed (or was refused for good), as a push's mutation ids do.
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
    statusCode: integer('status_code').notNull(),
    // The serialized body as it was sent (text, not jsonb, so a replay is byte for byte the same).
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [table.userId, table.key] }),
    // The purge of keys older than 24 h scans by age.
    index('idempotency_keys_created_at_idx').on(table.createdAt),
  ],
);
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

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

// One write path (src/server/sync, docs/architecture.md §8): each device's outbox numbers its
// writes per client (1, 2, 3 …) and pushes them in order; the last number applied is written in
// the same transaction as the write, so a write is applied once whatever is sent again. A client
// group (one per player per device) belongs to one user; its clients are that device's tabs.
export const clientMutations = pgTable(
  'client_mutations',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientGroupId: text('client_group_id').notNull(),
    clientId: text('client_id').notNull(),
    lastMutationId: integer('last_mutation_id').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'client_mutations_pk', columns: [table.clientGroupId, table.clientId] }),
    index('client_mutations_user_idx').on(table.userId),
  ],
);
export type ClientMutationRow = typeof clientMutations.$inferSelect;

// What a pull tells a device about its writes besides their numbers: a write the server
// refused (its error, for the message) and a created row's id (a group, a bet, a comment,
// a season), so the device renames its temporary id even when the push's answer was lost.
// Written with the number, in the same transaction; kept 24 hours.
export const clientMutationOutcomes = pgTable(
  'client_mutation_outcomes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientGroupId: text('client_group_id').notNull(),
    clientId: text('client_id').notNull(),
    mutationId: integer('mutation_id').notNull(),
    createdId: integer('created_id'),
    error: jsonb('error').$type<{ code: string; message: string; status: number }>(),
    createdAt: createdAt(),
    // The writing transaction: a pull sends the outcomes its cursor's snapshot did not see.
    changeTxid: xid8('change_txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (table) => [
    primaryKey({
      name: 'client_mutation_outcomes_pk',
      columns: [table.clientGroupId, table.clientId, table.mutationId],
    }),
    index('client_mutation_outcomes_group_change_idx').on(table.clientGroupId, table.changeTxid),
    index('client_mutation_outcomes_created_at_idx').on(table.createdAt),
    index('client_mutation_outcomes_user_idx').on(table.userId),
  ],
);
