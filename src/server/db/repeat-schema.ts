import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { REPEAT_PERIODS } from '../../domain/bet-repeats';
import { bets } from './schema';

// A repeating bet's series (docs/rules.md "Bets that come back"; src/server/bets/bet-repeats.ts):
// keyed by its first bet. `nextDueAt` is the close of its latest bet, when the next one is due;
// null once the series has ended (its `until` passed, the bet was cancelled, its creator left).
// The job reads the due rows through the partial index, never the bets table.
export const betRepeats = pgTable(
  'bet_repeats',
  {
    betId: integer('bet_id')
      .primaryKey()
      .references(() => bets.id, { onDelete: 'cascade' }),
    every: text('every', { enum: REPEAT_PERIODS }).notNull(),
    until: timestamp('until', { withTimezone: true }),
    /** The creator's IANA time zone: the close keeps its time of day there. */
    timeZone: text('time_zone').notNull(),
    lastSlot: integer('last_slot').notNull().default(0),
    nextDueAt: timestamp('next_due_at', { withTimezone: true }),
  },
  (table) => [
    index('bet_repeats_due_idx')
      .on(table.nextDueAt)
      .where(sql`${table.nextDueAt} is not null`),
    check('bet_repeats_every_check', sql`${table.every} in ('day', 'week', 'month')`),
  ],
);
export type BetRepeatRow = typeof betRepeats.$inferSelect;
