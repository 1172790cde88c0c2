// PostgreSQL may end a transaction that did nothing wrong: a deadlock victim (40P01) or a
// serialization failure (40001). Row locks are taken in one order (README.md, "Lock order"),
// which keeps deadlocks away on the paths we know; this is the net under whatever that order
// misses. The whole transaction runs again, a few times, after a short random pause, before the
// request answers. That is safe because a transaction callback only talks to its transaction:
// events are published, mails sent and sockets told after the commit, by the caller.

/** Deadlock detected, serialization failure: the transaction was rolled back and may simply run again. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each driver's transaction has its own callback type
type RunTransaction = (...args: any[]) => Promise<unknown>;

/** Tries per transaction, the first included. */
export const TRANSACTION_ATTEMPTS = 5;

/** Whether the error (or one it wraps: Drizzle wraps the driver's) is a deadlock or a serialization failure. */
export function isTransactionConflict(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (typeof e !== 'object') return false;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE_SQLSTATES.has(code)) return true;
  }
  return false;
}

/** A pause before try `attempt` (2, 3, …): random, so two transactions that clashed do not meet again in step. */
function pauseBefore(attempt: number): Promise<void> {
  const ms = Math.random() * 10 * 2 ** (attempt - 1);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Makes `db.transaction` run its callback again when PostgreSQL rolls the transaction back
 * for a deadlock or a serialization failure, up to TRANSACTION_ATTEMPTS tries; any other
 * error, and the last conflict, go to the caller as they are. A transaction's own savepoints
 * (`tx.transaction`) are not retried: the outer transaction is.
 */
export function retryingTransactions<Db extends { transaction: RunTransaction }>(db: Db): Db {
  const transaction: RunTransaction = db.transaction.bind(db);
  const retrying: RunTransaction = async (...args) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await transaction(...args);
      } catch (error) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(error)) throw error;
        await pauseBefore(attempt + 1);
      }
    }
  };
  // Drizzle's own method, the same signature, on this instance only.
  db.transaction = retrying as Db['transaction'];
  return db;
}
