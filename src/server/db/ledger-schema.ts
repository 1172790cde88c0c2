import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { LEDGER_KINDS } from '../../domain/ledger';
import { createdAt } from './schema-columns';
import { memberships } from './groups-schema';
import { bets, wagers } from './bets-schema';

// ---- the ledger (docs/architecture.md §4) ----

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
