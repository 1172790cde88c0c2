import type pg from 'pg';
import { isConnectionLost } from './transaction-retry';

// A pool whose clients go back the moment their connection dies (connect.ts `fromPool` uses it).

/** A statement that only reads (its text starts with SELECT): run again, it changes nothing. */
function isPlainRead(statement: unknown): boolean {
  const text = typeof statement === 'string' ? statement : (statement as { text?: unknown })?.text;
  return typeof text === 'string' && /^\s*select\b/i.test(text);
}

type PoolQuery = (...args: unknown[]) => Promise<unknown>;

/**
 * The pool as Drizzle gets it: each checked-out client goes back to the pool the moment its
 * connection dies. Drizzle sends BEGIN before its try/finally, so a connection dropped right
 * after the checkout left the client checked out for ever: the pool shrank by one slot per
 * drop and pool.end() never finished. A client is released once; Drizzle's own later
 * release() of it does nothing.
 *
 * A read that lost its connection runs once more on a fresh one before the request answers 503
 * (issue 41, finding 11): a SELECT outside a transaction here, a read-only transaction in
 * transaction-retry.ts (which calls `forgetOlderConnections` first). "Fresh": a failover or a
 * restart drops every connection, and an idle one learns of it only when used, so after a loss
 * every connection opened before it is closed at its next checkout instead of handed out.
 */
export function releasingDeadClients(pool: pg.Pool): {
  pool: pg.Pool;
  forgetOlderConnections: () => void;
} {
  const checkedOut = new WeakMap<pg.PoolClient, (error?: Error) => void>();
  /** Each connection's number, in the order they were opened. */
  const openedAs = new WeakMap<pg.PoolClient, number>();
  let opened = 0;
  /** Connections numbered up to this one predate the last loss. */
  let suspectUpTo = 0;
  const forgetOlderConnections = () => {
    suspectUpTo = opened;
  };
  // A client losing its server (a failover, a PgBouncer restart, pg_terminate_backend) must
  // not crash the process. Idle, pg re-emits the error on the pool; checked out (inside a
  // transaction, between two statements) the client itself emits it, and an 'error' event
  // nobody listens to is an uncaught exception. The query in flight fails on its own (the
  // request answers 503 database_unavailable, errors.ts, unless it was a read run again),
  // PostgreSQL rolls back whatever transaction the connection held, and the next checkout
  // connects afresh.
  pool.on('error', forgetOlderConnections);
  pool.on('connect', (client) => {
    openedAs.set(client, ++opened);
    client.on('error', (error) => {
      forgetOlderConnections();
      checkedOut.get(client)?.(error);
    });
  });
  const connect = async (): Promise<pg.PoolClient> => {
    let client = await pool.connect();
    while ((openedAs.get(client) ?? 0) <= suspectUpTo) {
      client.release(true); // closed, not pooled again
      client = await pool.connect();
    }
    const release = client.release;
    let isReleased = false;
    const releaseOnce = (error?: Error | boolean) => {
      if (isReleased) return;
      isReleased = true;
      checkedOut.delete(client);
      release(error);
    };
    client.release = releaseOnce;
    checkedOut.set(client, releaseOnce);
    return client;
  };
  /** A statement outside a transaction: a read that lost its connection runs once more, on a fresh one. */
  const query: PoolQuery = async (...args) => {
    try {
      return await (pool.query as PoolQuery)(...args);
    } catch (error) {
      if (!isConnectionLost(error) || !isPlainRead(args[0])) throw error;
      forgetOlderConnections();
      const client = await connect();
      try {
        const result = await (client.query as PoolQuery)(...args);
        client.release();
        return result;
      } catch (again) {
        client.release(again instanceof Error ? again : true);
        throw again;
      }
    }
  };
  const proxied = new Proxy(pool, {
    get(target, key) {
      if (key === 'connect') return connect;
      // A callback-style call is not Drizzle's: it goes to the pool as it is.
      if (key === 'query')
        return (...args: unknown[]) =>
          typeof args[args.length - 1] === 'function'
            ? (target.query as PoolQuery)(...args)
            : query(...args);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { pool: proxied, forgetOlderConnections };
}
