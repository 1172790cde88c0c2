// PostgreSQL may end a transaction that did nothing wrong: a deadlock victim (40P01) or a
// serialization failure (40001). Row locks are taken in one order (README.md, "Lock order"),
// which keeps deadlocks away on the paths we know; this is the net under whatever that order
// misses. The whole transaction runs again, a few times, after a short random pause, before the
// request answers. That is safe because a transaction callback only talks to its transaction:
// events are published, mails sent and sockets told after the commit, by the caller.
// A read-only transaction whose connection was lost (a failover, a killed backend) runs once
// more too, on a fresh connection (connect.ts, which does the same for a SELECT outside a
// transaction): it wrote nothing, so nothing can apply twice. A transaction that may write is
// never run again after a lost connection: its COMMIT may have landed.

/** Deadlock detected, serialization failure: the transaction was rolled back and may simply run again. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each driver's transaction has its own callback type
type RunTransaction = (...args: any[]) => Promise<unknown>;

/** Tries per transaction, the first included. */
export const TRANSACTION_ATTEMPTS = 5;

/** The error and those it wraps (Drizzle wraps the driver's), up to five deep, objects only. */
function causesOf(error: unknown): object[] {
  const chain: object[] = [];
  for (let e: unknown = error; e && typeof e === 'object' && chain.length < 5;) {
    chain.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return chain;
}

/** Whether the error (or one it wraps) is a deadlock or a serialization failure. */
export function isTransactionConflict(error: unknown): boolean {
  return causesOf(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
  });
}

// PostgreSQL's "the connection is gone" classes (57P01–57P03 shutdowns, 08xxx connection
// exceptions) and what node-postgres and the socket say when the server vanishes.
const CONNECTION_LOST_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];
const CONNECTION_LOST_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** Whether the error (or one it wraps) says the database connection was lost or could not be made. */
export function isConnectionLost(error: unknown): boolean {
  return causesOf(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (/^57P0[1-3]$/.test(code) || /^08/.test(code) || CONNECTION_LOST_CODES.has(code))
    )
      return true;
    const message = (e as { message?: unknown }).message;
    return (
      typeof message === 'string' && CONNECTION_LOST_MESSAGES.some((text) => message.includes(text))
    );
  });
}

/** A pause before try `attempt` (2, 3, …): random, so two transactions that clashed do not meet again in step. */
function pauseBefore(attempt: number): Promise<void> {
  const ms = Math.random() * 10 * 2 ** (attempt - 1);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a transaction's config (Drizzle's second argument) declares it read only. */
function isReadOnly(config: unknown): boolean {
  return (
    typeof config === 'object' &&
    config !== null &&
    (config as { accessMode?: unknown }).accessMode === 'read only'
  );
}

/**
 * Makes `db.transaction` run its callback again when PostgreSQL rolls the transaction back
 * for a deadlock or a serialization failure, up to TRANSACTION_ATTEMPTS tries, and once more
 * when a read-only one lost its connection; any other error, and the last conflict, go to the
 * caller as they are. A transaction's own savepoints (`tx.transaction`) are not retried: the
 * outer transaction is.
 */
export function retryingTransactions<Db extends { transaction: RunTransaction }>(
  db: Db,
  /** Called before a read-only transaction that lost its connection runs again (connect.ts: the pool forgets the connections opened before). */
  { beforeReadRetry = () => undefined }: { beforeReadRetry?: () => void } = {},
): Db {
  const transaction: RunTransaction = db.transaction.bind(db);
  const retrying: RunTransaction = async (...args) => {
    let mayRetryLostConnection = isReadOnly(args[1]);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await transaction(...args);
      } catch (error) {
        if (mayRetryLostConnection && isConnectionLost(error)) {
          mayRetryLostConnection = false;
          beforeReadRetry();
          continue;
        }
        if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(error)) throw error;
        await pauseBefore(attempt + 1);
      }
    }
  };
  // Drizzle's own method, the same signature, on this instance only.
  db.transaction = retrying as Db['transaction'];
  return db;
}
