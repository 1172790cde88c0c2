import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { SEASON_STATES } from '../../domain/seasons';
import { createdAt, changeColumns } from './schema-columns';
import { users } from './accounts-schema';
import { groups } from './groups-schema';

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
