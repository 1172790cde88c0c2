import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type DatabaseConnection, type Executor } from './connect';

// Which migrations a database has against the code's (drizzle-kit's journal), one rule for the
// start (main.ts) and the restore (backup.ts): a database or backup of a newer Hunch is refused,
// as its tables may have columns this code does not know; one with another history too.

export interface AppliedMigration {
  /** drizzle-kit's journal `when`, which drizzle stores as created_at. */
  createdAt: number;
  hash: string;
}

/** The migrations applied to the database, oldest first (none when it was never migrated). */
export async function readAppliedMigrations(db: Executor): Promise<AppliedMigration[]> {
  const exists = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as "exists"`,
  )) as unknown as { rows: { exists: unknown }[] };
  if (exists.rows[0]?.exists !== true) return [];
  const result = (await db.execute(
    sql`select created_at::text as "createdAt", hash from drizzle.__drizzle_migrations
        order by created_at`,
  )) as unknown as { rows: { createdAt: unknown; hash: unknown }[] };
  return result.rows.map((row) => ({ createdAt: Number(row.createdAt), hash: String(row.hash) }));
}

/** The code's migrations, oldest first, as drizzle-kit's journal lists them. */
export function codeMigrations(): { createdAt: number; tag: string }[] {
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { when: number; tag: string }[] };
  return journal.entries.map((entry) => ({ createdAt: entry.when, tag: entry.tag }));
}

export type MigrationLevel =
  | { kind: 'known'; count: number }
  | { kind: 'newer'; count: number; codeCount: number }
  | { kind: 'foreign' };

/** How many of the code's migrations `applied` are; or that they are a newer code's, or another history. */
export function migrationLevel(applied: readonly AppliedMigration[]): MigrationLevel {
  const code = codeMigrations();
  const known = new Set(code.map((migration) => migration.createdAt));
  const newest = code.at(-1)?.createdAt ?? 0;
  const unknown = applied.filter((migration) => !known.has(migration.createdAt));
  if (unknown.some((migration) => migration.createdAt > newest))
    return { kind: 'newer', count: applied.length, codeCount: code.length };
  const isPrefix = applied.every(
    (migration, index) => code[index]?.createdAt === migration.createdAt,
  );
  if (unknown.length > 0 || !isPrefix) return { kind: 'foreign' };
  return { kind: 'known', count: applied.length };
}

/** The database cannot be served by this code; the message is one line saying what to do. */
export class SchemaMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaMismatchError';
  }
}

/**
 * Start-up's migration: refuses a database of a newer Hunch (or another history) before
 * touching it, then applies the pending migrations and says what it did (one line, from → to).
 */
export async function migrateForStart(
  database: DatabaseConnection,
  say: (message: string, details: Record<string, unknown>) => void,
): Promise<void> {
  const level = migrationLevel(await readAppliedMigrations(database.db));
  const where = database.driver === 'pglite' ? 'DATA_DIR' : 'DATABASE_URL';
  if (level.kind === 'newer')
    throw new SchemaMismatchError(
      `the database of ${where} was migrated by a newer Hunch (${level.count} migrations, this ` +
        `code knows ${level.codeCount}): run the newer version, or restore the backup made ` +
        'before the upgrade into an empty database (docs/self-hosting.md, Upgrades).',
    );
  if (level.kind === 'foreign')
    throw new SchemaMismatchError(
      `the database of ${where} has a migration history this Hunch does not share: point ` +
        `${where} at Hunch's own database.`,
    );
  const code = codeMigrations();
  const pending = code.slice(level.count).map((migration) => migration.tag);
  const names = pending.length > 3 ? `${pending[0]} … ${pending.at(-1)}` : pending.join(', ');
  if (pending.length === 0) {
    say(`database schema is up to date (${level.count} migrations)`, { migrations: level.count });
    return;
  }
  const started = Date.now();
  await database.migrate();
  say(
    `database migrated from ${level.count} to ${code.length} migrations in ${Date.now() - started} ms (${names})`,
    { from: level.count, to: code.length },
  );
}
