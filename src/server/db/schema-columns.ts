import { sql } from 'drizzle-orm';
import { bigint, customType, timestamp } from 'drizzle-orm/pg-core';

// The columns several tables share: the creation time, and the mirror's change stamp.

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** PostgreSQL's 64-bit transaction id (never wraps), as text: only compared inside SQL. */
export const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

// The local mirror's change tracking (src/server/mirror, docs/architecture.md §8). The trigger of
// migration 0005 stamps every insert and update of groups, memberships, bets and wagers with
// `version`, the next value of one sequence (a row's writers hold its lock, so its version only
// grows), and `change_txid`, the writing transaction: a pull returns the rows whose transaction
// its cursor's snapshot did not see. Values written here are overwritten by the trigger.
export const changeColumns = () => ({
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  changeTxid: xid8('change_txid')
    .notNull()
    .default(sql`pg_current_xact_id()`),
});
