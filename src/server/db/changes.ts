import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// Reading what changed since a pull (src/server/mirror). A cursor holds the PostgreSQL snapshot
// its pull read under (`pg_current_snapshot()` as text); a row changed since then when the
// transaction that last wrote it (`change_txid`, stamped by migration 0005's trigger) was not
// visible in that snapshot: it committed later, or was still running. Transactions that commit
// out of order are therefore never skipped, which a plain "version > last seen" would do.

/** A snapshot as `pg_current_snapshot()::text` prints it: `xmin:xmax:xip,xip,…`. */
export const SNAPSHOT_PATTERN = /^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20})*)?$/;

/** The largest transaction id (xid8 is unsigned 64-bit). */
const MAX_TXID = 2n ** 64n - 1n;
/** A full transaction id is an epoch and a 32-bit id. */
const EPOCH_SIZE = 2n ** 32n;

/**
 * Whether `text` is a snapshot `::pg_snapshot` accepts; the pattern alone let through ones it
 * refuses (`5:3:`, `0:0:`, `1:5:9`), and a refused cast fails the whole statement. The rules
 * are PostgreSQL's: xmin <= xmax < 2^64, neither with a 32-bit part of 0 (PostgreSQL 15 calls
 * 2^32 or 2^63 invalid; no real id has it, the counter skips 0 to 2 as it wraps), each
 * in-progress id within [xmin, xmax), in increasing order (as `pg_current_snapshot()` prints
 * them; PostgreSQL would also take a repeated one, never written by it).
 */
export function isSnapshot(text: string): boolean {
  if (!SNAPSHOT_PATTERN.test(text)) return false;
  const [xminText, xmaxText, xipText] = text.split(':') as [string, string, string];
  const xmin = BigInt(xminText);
  const xmax = BigInt(xmaxText);
  if (xmin % EPOCH_SIZE === 0n || xmax % EPOCH_SIZE === 0n) return false;
  if (xmax < xmin || xmax > MAX_TXID) return false;
  let previous = xmin - 1n;
  for (const part of xipText ? xipText.split(',') : []) {
    const xip = BigInt(part);
    if (xip <= previous || xip >= xmax) return false;
    previous = xip;
  }
  return true;
}

/** A snapshot that sees every transaction before the first: "since the beginning". */
export const EARLIEST_SNAPSHOT = '1:1:';

/**
 * True for rows of `changeTxid` written by a transaction the snapshot did not see. `snapshot`
 * (a value isSnapshot accepts, or a placeholder for one) is sent as a parameter.
 */
export function changedSince(changeTxid: AnyPgColumn | SQL, snapshot: string | SQL): SQL {
  return sql`(${changeTxid} >= pg_snapshot_xmin(${snapshot}::pg_snapshot) and not pg_visible_in_snapshot(${changeTxid}, ${snapshot}::pg_snapshot))`;
}
