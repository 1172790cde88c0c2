import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { changeColumns } from './schema-columns';
import { bets, groups, users } from './schema';

// Tipping rounds (docs/rules.md "Tipping rounds", src/server/rounds): a named set of matches,
// each a score-tip bet of the group; the round carries its own scoring table (copied from the
// group's previous round, else Kicktipp's defaults), editable until its first kick-off. Mirrored
// (migration 0032): a round's matches are written with it and travel with its row, so a round
// page opens offline; their results and tips are their bets'.
export const rounds = pgTable(
  'rounds',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    scoringExact: integer('scoring_exact').notNull(),
    scoringDifference: integer('scoring_difference').notNull(),
    scoringTendency: integer('scoring_tendency').notNull(),
    /** Tips close this many minutes before each kick-off (0: at kick-off). */
    closeMinutes: integer('close_minutes').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
  },
  (table) => [
    index('rounds_group_idx').on(table.groupId, table.id),
    index('rounds_group_change_idx').on(table.groupId, table.changeTxid),
    check('rounds_name_check', sql`char_length(${table.name}) between 1 and 60`),
    check(
      'rounds_scoring_check',
      sql`${table.scoringExact} >= ${table.scoringDifference} and ${table.scoringDifference} >= ${table.scoringTendency} and ${table.scoringTendency} >= 0 and ${table.scoringExact} <= 100`,
    ),
    check('rounds_close_minutes_check', sql`${table.closeMinutes} between 0 and 1440`),
  ],
);
export type RoundRow = typeof rounds.$inferSelect;

export const roundMatches = pgTable(
  'round_matches',
  {
    id: serial('id').primaryKey(),
    roundId: integer('round_id')
      .notNull()
      .references(() => rounds.id, { onDelete: 'cascade' }),
    /** The match's score-tip bet: tips are its wagers, the result its correct answer. */
    betId: integer('bet_id')
      .notNull()
      .references(() => bets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    home: text('home').notNull(),
    away: text('away').notNull(),
    kickoff: timestamp('kickoff', { withTimezone: true }).notNull(),
    /** The results provider's match id: from the list, or found by teams and date when first polled. */
    providerMatchId: integer('provider_match_id'),
    /** When a results poller last claimed it (src/server/rounds/results-provider.job.ts). */
    resultCheckedAt: timestamp('result_checked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('round_matches_bet_idx').on(table.betId),
    uniqueIndex('round_matches_round_position_idx').on(table.roundId, table.position),
    index('round_matches_kickoff_idx').on(table.kickoff),
  ],
);
export type RoundMatchRow = typeof roundMatches.$inferSelect;
