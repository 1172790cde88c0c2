import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// Reading what changed since a pull (src/server/mirror). A cursor holds the PostgreSQL snapshot
// its pull read under (`pg_current_snapshot()` as text); a row changed since then when the
// transaction that last wrote it (`change_txid`, stamped by migration 0005's trigger) was not
// visible in that snapshot: it committed later, or was still running. Transactions that commit
// out of order are therefore never skipped, which a plain "version > last seen" would do.

/** A snapshot as `pg_current_snapshot()::text` prints it: `xmin:xmax:xip,xip,…`. */
export const SNAPSHOT_PATTERN = /^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20})*)?$/;

/** A snapshot that sees every transaction before the first: "since the beginning". */
export const EARLIEST_SNAPSHOT = '1:1:';

/**
 * True for rows of `changeTxid` written by a transaction the snapshot did not see. `snapshot`
 * (a value matching SNAPSHOT_PATTERN, or a placeholder for one) is sent as a parameter.
 */
export function changedSince(changeTxid: AnyPgColumn | SQL, snapshot: string | SQL): SQL {
  return sql`(${changeTxid} >= pg_snapshot_xmin(${snapshot}::pg_snapshot) and not pg_visible_in_snapshot(${changeTxid}, ${snapshot}::pg_snapshot))`;
}
