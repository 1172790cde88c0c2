import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  PGlite,
  types,
  type ParserOptions,
  type PGliteOptions,
  type QueryOptions,
} from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import * as schema from './schema';
import { retryingTransactions } from './transaction-retry';
import { releasingDeadClients } from './dead-clients';

/** The Drizzle database both drivers satisfy; services take this (or a transaction of it). */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of that database; functions meant to run inside a caller's transaction take an Executor. */
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

export interface DatabaseConnection {
  db: Database;
  driver: 'pglite' | 'postgres';
  /**
   * Applies pending migrations: drizzle-kit's history in ./migrations, or the history in
   * `folder` (a restore first migrates only as far as its backup, src/server/db/backup.ts).
   */
  migrate(folder?: string): Promise<void>;
  /** Throws unless the database answers; /readyz uses it. */
  ping(): Promise<void>;
  /**
   * LISTENs on `channel` (src/server/mirror/change-watermarks.ts): `onPayload` gets each
   * notification delivered from the moment this resolves, `onLost` is called once when the
   * listening connection ends (nothing is delivered after).
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLost: (error?: Error) => void,
  ): Promise<Listener>;
  /** The connections as the driver tells them, for the metrics (src/server/metrics.ts). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

export interface Listener {
  /** NOTIFYs the channel from the listening connection (it hears it too, after all earlier commits). */
  notify(payload: string): Promise<void>;
  stop(): Promise<void>;
}

export interface PoolStats {
  inUse: number;
  idle: number;
  /** Requests waiting for a connection; PGlite (one connection): calls queued behind the running one. */
  waiting: number;
}

/**
 * The migrations folder: src/server/db/migrations when run from source (tsx, Vitest), and
 * dist/server/migrations next to the esbuild bundle, where scripts/build-server.mjs copies
 * it. In both cases it sits beside the module that contains this code.
 */
export function migrationsFolder(): string {
  const candidates = [
    fileURLToPath(new URL('./migrations', import.meta.url)),
    path.resolve('src/server/db/migrations'),
  ];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`Database migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * Drizzle asks PGlite, on every query, to leave dates, timestamps and intervals as text (its
 * columns map them). PGlite merges such a per-query `parsers` option into its table of every
 * type's parser (hundreds of array types) on each call: 80 µs, 40% of a small statement. The
 * same parsers are given once, as PGlite's `parsers` option at creation (createPglite), and the
 * per-query option is dropped. (Array parsers look their element's parser up at call time, so
 * they follow.)
 */
const DRIZZLE_TEXT_PARSERS: ParserOptions = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE].map((type) => [
    type,
    (value: string) => value,
  ]),
);

/** The instances createPglite made: the only ones fromPglite takes. */
const withDrizzleParsers = new WeakSet<PGlite>();

/** Opens PGlite (a data folder, or `options`) with the parsers fromPglite needs. */
export async function createPglite(options: string | PGliteOptions = {}): Promise<PGlite> {
  const client = await PGlite.create({
    ...(typeof options === 'string' ? { dataDir: options } : options),
    parsers: DRIZZLE_TEXT_PARSERS,
  });
  withDrizzleParsers.add(client);
  return client;
}

type Queryable = Pick<PGlite, 'query'> & Partial<Pick<PGlite, 'transaction'>>;

/** Calls started on the PGlite instance and not yet finished: one runs, the rest wait. */
interface Pending {
  count: number;
}

function counted<R>(pending: Pending | undefined, call: () => Promise<R>): Promise<R> {
  if (!pending) return call();
  pending.count++;
  return call().finally(() => pending.count--);
}

/** `pending` counts the instance's own calls (a transaction's statements run inside its one). */
function withInstanceParsers<T extends Queryable>(target: T, pending?: Pending): T {
  return new Proxy(target, {
    get(object, key) {
      if (key === 'query') {
        return (text: string, params?: unknown[], options?: QueryOptions) =>
          counted(pending, () =>
            object.query(
              text,
              params,
              options?.parsers ? { ...options, parsers: undefined } : options,
            ),
          );
      }
      if (key === 'transaction' && object.transaction) {
        return <R>(work: (tx: Queryable) => Promise<R>) =>
          counted(pending, () => object.transaction!((tx) => work(withInstanceParsers(tx))));
      }
      // PGlite keeps private fields: its own methods must run on itself, not on the proxy.
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** Wraps a PGlite opened by createPglite (file-backed or in memory). */
export function fromPglite(client: PGlite): DatabaseConnection {
  if (!withDrizzleParsers.has(client))
    throw new Error('fromPglite takes a PGlite opened by createPglite (it sets Drizzle’s parsers)');
  const pending: Pending = { count: 0 };
  const db = retryingTransactions(
    drizzlePglite({ client: withInstanceParsers(client, pending), schema }),
  );
  return {
    db,
    driver: 'pglite',
    poolStats: () => ({
      inUse: Math.min(1, pending.count),
      idle: pending.count > 0 ? 0 : 1,
      waiting: Math.max(0, pending.count - 1),
    }),
    migrate: (folder = migrationsFolder()) => migratePglite(db, { migrationsFolder: folder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    // One process on one backend: a notification is never lost while the instance is open.
    listen: async (channel, onPayload) => ({
      notify: async (payload) => {
        await client.query('select pg_notify($1, $2)', [channel, payload]);
      },
      stop: await client.listen(channel, onPayload),
    }),
    close: () => client.close(),
  };
}

/** The advisory lock key every instance's migration run takes (any fixed bigint; "hunch mig" in hex). */
const MIGRATION_LOCK_KEY = 0x68756e63686d6967n;

/**
 * Migrations from several instances starting at once take turns (drizzle-orm has no guard
 * against concurrent runs): one connection holds a session advisory lock for the whole run,
 * and whoever waited finds the migrations applied. The lock ends with the session, so a
 * process dying mid-run never leaves it held.
 */
async function migrateUnderLock(pool: pg.Pool, folder: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migratePostgres(drizzlePostgres({ client, schema }), { migrationsFolder: folder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
    client.release();
  } catch (error) {
    // A connection that failed mid-run may still hold the lock: drop it rather than pool it.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/** The application name of a listening connection (tests find its backend by it). */
export const LISTENER_APPLICATION_NAME = 'hunch-listener';

/**
 * A connection of its own, outside the pool (a pooled one would be handed to a request): LISTEN
 * holds for the session. Keepalive probes find a connection whose peer vanished silently.
 */
async function listenOn(
  pool: pg.Pool,
  channel: string,
  onPayload: (payload: string) => void,
  onLost: (error?: Error) => void,
): Promise<Listener> {
  const client = new pg.Client({
    ...pool.options,
    keepAlive: true,
    application_name: LISTENER_APPLICATION_NAME,
  });
  let isOpen = true;
  const lost = (error?: Error) => {
    if (!isOpen) return;
    isOpen = false;
    onLost(error);
    client.end().catch(() => {});
  };
  client.on('error', lost);
  client.on('end', () => lost());
  client.on('notification', (message) => {
    if (isOpen && message.channel === channel) onPayload(message.payload ?? '');
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    // Its notifications are fences, nothing to keep: their commits need not wait for the disk.
    await client.query('SET synchronous_commit = off');
  } catch (error) {
    isOpen = false;
    await client.end().catch(() => {});
    throw error;
  }
  return {
    notify: async (payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    stop: async () => {
      isOpen = false;
      await client.end().catch(() => {});
    },
  };
}

/** Wraps a node-postgres pool; closing the connection ends the pool. */
export function fromPool(pool: pg.Pool): DatabaseConnection {
  const client = releasingDeadClients(pool);
  const db = retryingTransactions(drizzlePostgres({ client: client.pool, schema }), {
    beforeReadRetry: client.forgetOlderConnections,
  });
  return {
    db,
    driver: 'postgres',
    poolStats: () => ({
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    migrate: (folder = migrationsFolder()) => migrateUnderLock(pool, folder),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel, onPayload, onLost) => listenOn(pool, channel, onPayload, onLost),
    close: () => pool.end(),
  };
}

/** PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR/pglite (docs/architecture.md §3). */
export async function connectDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<DatabaseConnection> {
  if (options.databaseUrl) {
    return fromPool(new pg.Pool({ connectionString: options.databaseUrl, max: 10 }));
  }
  // Before opening anything: a second process on these files would lose its writes.
  const lock = lockDataDir(options.dataDir);
  try {
    const dir = path.join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const connection = fromPglite(await createPglite(dir));
    return {
      ...connection,
      async close() {
        try {
          await connection.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
