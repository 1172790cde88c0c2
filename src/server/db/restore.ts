import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type DatabaseConnection } from './connect';
import {
  BackupError,
  backupMigrationLevel,
  backupRows,
  readHeader,
  type BackupHeader,
  type BackupTable,
} from './backup-file';
import { BATCH_ROWS, identifier, nonEmptyTables, query, readTables } from './database-catalog';
import { readAppliedMigrations } from './migration-level';

// A restore (backup.ts makes the file) reads the whole file first (a damaged or cut one
// changes nothing), refuses a database that holds any row (unless forced), migrates it as far
// as the backup's migrations, moves its transaction ids past the source's
// (advanceTransactionIds), loads every table in one transaction with the tables' own triggers
// off (they would stamp new versions over the saved ones), sets the sequences, then runs the
// newer migrations, so an older backup restores into newer code.

export interface RestoreSummary {
  tables: number;
  rows: number;
  /** Migrations applied after loading (the code's newer than the backup's). */
  laterMigrations: number;
  secrets: BackupHeader['secrets'];
}

/** PostgreSQL takes at most 65535 parameters per statement. */
const MAX_PARAMETERS = 60_000;
/**
 * The most transaction ids a restore advances its database by (about 20 s on PGlite for a
 * million); beyond it, devices start their mirror over instead (see advanceTransactionIds).
 */
const MAX_TRANSACTION_ADVANCE = 10_000_000n;

/** A copy of the migrations folder listing only its first `count` migrations. */
function migrationsUpTo(count: number): { folder: string; remove(): void } {
  const source = migrationsFolder();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'hunch-migrations-'));
  cpSync(source, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * Removes everything migrations made (tables, sequences, functions of the public schema and
 * drizzle's migration history), leaving a database as if new.
 */
async function dropHunchObjects(connection: DatabaseConnection) {
  await connection.db.transaction(async (tx) => {
    const tables = await query(
      tx,
      sql`select c.relname as "name" from pg_class c
          join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p')`,
    );
    for (const { name } of tables) {
      await tx.execute(sql`drop table if exists ${identifier(String(name))} cascade`);
    }
    const sequences = await query(
      tx,
      sql`select c.relname as "name" from pg_class c
          join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'S'`,
    );
    for (const { name } of sequences) {
      await tx.execute(sql`drop sequence if exists ${identifier(String(name))} cascade`);
    }
    const functions = await query(
      tx,
      sql`select p.oid::regprocedure::text as "signature" from pg_proc p
          join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and not exists (
            select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    );
    for (const { signature } of functions) {
      await tx.execute(sql.raw(`drop function if exists ${String(signature)} cascade`));
    }
    await tx.execute(sql`drop schema if exists drizzle cascade`);
  });
}

/**
 * Moves the database's transaction ids past the source's. Devices keep, in their mirror's
 * cursor, the source's snapshot (src/server/db/changes.ts): a write the restored database
 * stamps with a smaller transaction id would look already seen to them and never reach them.
 * Each round commits one empty transaction; a few seconds per million.
 */
async function advanceTransactionIds(connection: DatabaseConnection, horizon: bigint) {
  const [current] = await query(
    connection.db,
    sql`select pg_snapshot_xmax(pg_current_snapshot())::text as "xmax"`,
  );
  const behind = horizon - BigInt(String(current!.xmax));
  if (behind <= 0n) return { advanced: 0n, tooFar: false };
  if (behind > MAX_TRANSACTION_ADVANCE) return { advanced: 0n, tooFar: true };
  await connection.db.execute(
    sql.raw(
      `do $$ begin for i in 1..${behind} loop perform pg_current_xact_id(); commit; end loop; end $$`,
    ),
  );
  return { advanced: behind, tooFar: false };
}

export interface RestoreOptions {
  /** Replace whatever the database holds (else a database with any row is refused). */
  force?: boolean;
  /** Progress, one line at a time. */
  log?: (line: string) => void;
}

/** Restores `file` into the database; refuses a database that holds rows unless forced. */
export async function restoreBackup(
  connection: DatabaseConnection,
  file: string,
  { force = false, log = () => {} }: RestoreOptions = {},
): Promise<RestoreSummary> {
  const header = await readHeader(file);
  const level = backupMigrationLevel(file, header);
  // The whole file is read once before anything changes: a damaged or cut file is refused
  // while the database (even one --force would empty) is still as it was.
  let rowsInFile = 0;
  const reading = backupRows(file, header);
  while (!(await reading.next()).done) rowsInFile += 1;

  const applied = await readAppliedMigrations(connection.db);
  const holding = applied.length > 0 ? await nonEmptyTables(connection.db) : [];
  if (holding.length > 0 && !force) {
    const rows = holding.reduce((sum, table) => sum + table.rows, 0);
    const list = holding.map((table) => `${table.name} ${table.rows}`).join(', ');
    throw new BackupError(
      `The database is not empty (${rows} rows: ${list}). A restore fills an empty ` +
        'database: point DATA_DIR (or DATABASE_URL) at a new one, or pass --force to ' +
        'replace everything in this one.',
    );
  }
  if (holding.length > 0 || applied.length > level) {
    log('Removing the tables already there…');
    await dropHunchObjects(connection);
  }

  const upTo = migrationsUpTo(level);
  try {
    await connection.migrate(upTo.folder);
  } finally {
    upTo.remove();
  }
  const { tables } = await readTables(connection.db);
  for (const table of header.tables) {
    const columns = tables.get(table.name)?.columns.map((column) => column.name);
    const saved = table.columns.map((column) => column.name);
    if (!columns || columns.join() !== saved.join()) {
      throw new BackupError(
        `${file}: table ${table.name} does not match the database its migrations made ` +
          `(backup: ${saved.join(', ')}; database: ${columns?.join(', ') ?? 'no such table'}).`,
      );
    }
  }
  const missing = [...tables.keys()].filter((name) => !header.tables.some((t) => t.name === name));
  if (missing.length > 0) {
    throw new BackupError(`${file} lacks tables its migrations make: ${missing.join(', ')}.`);
  }

  const advance = await advanceTransactionIds(connection, BigInt(header.transactionHorizon));
  if (advance.advanced > 0n) log(`Advanced transaction ids by ${advance.advanced}.`);
  if (advance.tooFar) {
    log(
      'The backup comes from a database with far more transactions than this one: ' +
        'players should sign out and in again on each device so their offline copy starts over.',
    );
  }

  let total = 0;
  let runs = 0;
  await connection.db.transaction(async (tx) => {
    // The file is read once: a second run (transaction-retry.ts) cannot read it again.
    runs += 1;
    if (runs > 1) throw new BackupError('The database was busy; run the restore again.');
    for (const table of header.tables) {
      await tx.execute(sql`alter table ${identifier(table.name)} disable trigger user`);
    }
    const loaded = new Map<string, number>();
    let batch: unknown[][] = [];
    let batchTable: BackupTable | undefined;
    const flush = async () => {
      const table = batchTable;
      if (!table || batch.length === 0) return;
      const names = sql.join(
        table.columns.map((column) => identifier(column.name)),
        sql`, `,
      );
      const values = batch.map(
        (row) =>
          sql`(${sql.join(
            row.map((value, index) => {
              const type = sql.raw(table.columns[index]!.type);
              return sql`${value}::text::${type}`;
            }),
            sql`, `,
          )})`,
      );
      await tx.execute(
        sql`insert into ${identifier(table.name)} (${names}) values ${sql.join(values, sql`, `)}`,
      );
      batch = [];
    };
    for await (const { table, row } of backupRows(file, header)) {
      const batchRows = Math.max(
        1,
        Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length)),
      );
      if (table !== batchTable || batch.length >= batchRows) await flush();
      batchTable = table;
      batch.push(row);
      loaded.set(table.name, (loaded.get(table.name) ?? 0) + 1);
    }
    await flush();
    for (const table of header.tables) {
      const rows = loaded.get(table.name) ?? 0;
      total += rows;
      log(`${table.name}: ${rows} rows`);
    }
    for (const sequence of header.sequences) {
      await tx.execute(
        sql`select setval(${`public.${JSON.stringify(sequence.name)}`}::regclass,
                          ${sequence.lastValue}::bigint, ${sequence.isCalled})`,
      );
    }
    for (const table of header.tables) {
      await tx.execute(sql`alter table ${identifier(table.name)} enable trigger user`);
    }
  });

  const before = level;
  await connection.migrate();
  const after = (await readAppliedMigrations(connection.db)).length;
  if (total !== rowsInFile) throw new BackupError(`${file} changed while it was restored.`);
  return {
    tables: header.tables.length,
    rows: total,
    laterMigrations: after - before,
    secrets: header.secrets,
  };
}
