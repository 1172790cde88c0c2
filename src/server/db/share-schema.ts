import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bets, users } from './schema';

// A bet's public link (docs/groups-and-bets.md, "Sharing a bet"): the token in /s/<token> opens
// that one bet's public page for anyone holding it. One live link per bet: every member who taps
// Share gets the same one; "Stop sharing" (its sharer or an admin) ends it, and the next Share
// makes a new token. The token is kept as it is, not hashed: it must be shown again (the sheet
// offers the same link on every tap), and what it opens is no secret of an account (a bet's
// question, state and, once resolved, its result), the same standing as a group's invite code.
// Its 128 random bits make it unguessable; the public read is rate-limited per address.
export const betShareLinks = pgTable(
  'bet_share_links',
  {
    id: serial('id').primaryKey(),
    token: text('token').notNull(),
    betId: integer('bet_id')
      .notNull()
      .references(() => bets.id, { onDelete: 'cascade' }),
    /** Who made it; null once their account is deleted (an admin can still turn it off). */
    sharedBy: integer('shared_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('bet_share_links_token_idx').on(table.token),
    uniqueIndex('bet_share_links_live_idx')
      .on(table.betId)
      .where(sql`${table.revokedAt} is null`),
  ],
);
export type BetShareLinkRow = typeof betShareLinks.$inferSelect;
