import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { expect } from 'vitest';
import { emptyPostgresDatabase } from '../harness';

// A migration's test: an empty database migrated up to the migration, rows written as an older
// version left them, then the rest of the migrations applied.

/** The repository's migrations folder. */
export const MIGRATIONS = path.resolve('src/server/db/migrations');

/** The migrations folder as it was before `tag`: the same files, the journal cut there. */
export function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hunch-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

export interface EmptyDatabase {
  migrate(folder: string): Promise<void>;
  rows<T>(query: SQL): Promise<T[]>;
  close(): Promise<void>;
}

/** An empty database of the project's kind: PGlite in memory, or a new PostgreSQL database. */
export async function openEmptyDatabase(): Promise<EmptyDatabase> {
  if (process.env.HUNCH_TEST_DB !== 'postgres') {
    const client = await PGlite.create();
    const db = drizzlePglite({ client });
    return {
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      rows: async (query) => (await db.execute(query)).rows as never,
      close: () => client.close(),
    };
  }
  const database = await emptyPostgresDatabase('hunch_migration');
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  // A connection lost between queries is reported by the next query; unheard, the pool's or the
  // client's 'error' event would end the test process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePostgres({ client: pool });
  return {
    migrate: (folder) => migratePostgres(db, { migrationsFolder: folder }),
    rows: async (query) => (await db.execute(query)).rows as never,
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}
