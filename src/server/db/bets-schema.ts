import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { BET_TYPES } from '../../domain/bet-types';
import { BET_STATES, type BetTypeConfig } from '../../domain/bets';
import { BET_HISTORY_KINDS, DISPUTE_STATES } from '../../domain/fair-resolution';
import { createdAt, changeColumns } from './schema-columns';
import { users } from './accounts-schema';
import { groups } from './groups-schema';

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
