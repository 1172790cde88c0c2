import { sql } from 'drizzle-orm';
import pg from 'pg';
import { expect } from 'vitest';
import type { TestServer } from '../harness';

// A connection of a test's own to the database a test server runs on (PostgreSQL), outside
// the app's pool: to hold a lock while requests meet it, and to watch who waits for one.

/** A second connection to `server`'s database, outside the app's pool. */
export async function connectAside(server: TestServer): Promise<pg.Client> {
  const result = (await server.database.db.execute(
    sql`select current_database() as name`,
  )) as unknown as { rows: Array<{ name: string }> };
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${result.rows[0]!.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

/** How many other connections wait for a lock now (inside a transaction the statistics are a snapshot: cleared first). */
export async function lockWaiters(client: pg.Client): Promise<number> {
  await client.query('select pg_stat_clear_snapshot()');
  const result = await client.query<{ waiting: number }>(
    `select count(*)::int as waiting from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid()
       and state = 'active' and wait_event_type = 'Lock'`,
  );
  return result.rows[0]!.waiting;
}

/** Waits until `count` other connections wait for a lock. */
export async function waitForLockWaiters(client: pg.Client, count: number): Promise<void> {
  await expect.poll(() => lockWaiters(client), { timeout: 10_000, interval: 20 }).toBe(count);
}
