import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql, type SQL } from 'drizzle-orm';
import { migrationsFolder, type DatabaseConnection, type Executor } from './connect';
import { migrationLevel, readAppliedMigrations } from './migration-level';

// Backups: one file holding every row of every table of the public schema, in PostgreSQL's
// text form of each value, with the migrations applied when it was made. The same file
// restores into PGlite or PostgreSQL, whichever made it (docs/self-hosting.md).
//
// The file is gzip'd JSON lines: a header (format, migrations, tables with their columns and
// row counts, sequences, the snapshot's transaction horizon), then each table's rows as JSON
// arrays, tables in foreign-key order. Everything is read in one REPEATABLE READ transaction.
//
// A restore reads the whole file first (a damaged or cut one changes nothing), refuses a
// database that holds any row (unless forced), migrates it as far as the backup's migrations,
// moves its transaction ids past the source's (advanceTransactionIds), loads every table in
// one transaction with the tables' own triggers off (they would stamp new versions over the
// saved ones), sets the sequences, then runs the newer migrations, so an older backup
// restores into newer code.

export const BACKUP_FORMAT = 'hunch-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** A backup file cannot be used, or the database refuses it; the message says why. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface BackupTable {
  name: string;
  columns: { name: string; type: string }[];
  rows: number;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  /** Which database made it (informational: the file restores into either). */
  source: 'pglite' | 'postgres';
  /** The migrations applied to the source, oldest first (drizzle-kit's journal `when`). */
  migrations: { createdAt: number; hash: string }[];
  /** Tables in foreign-key order: a table comes after every table it references. */
  tables: BackupTable[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  /** The source's next transaction id when the backup was read (`pg_snapshot_xmax`). */
  transactionHorizon: string;
  /** DATA_DIR/secrets.json of the source, when it had one (older backups lack it). */
  secrets?: Record<string, unknown>;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  /** Migrations applied after loading (the code's newer than the backup's). */
  laterMigrations: number;
  secrets: BackupHeader['secrets'];
}

/** Rows fetched from the source per round trip, and at most inserted per statement. */
const BATCH_ROWS = 500;
/** PostgreSQL takes at most 65535 parameters per statement. */
const MAX_PARAMETERS = 60_000;
/**
 * The most transaction ids a restore advances its database by (about 20 s on PGlite for a
 * million); beyond it, devices start their mirror over instead (see advanceTransactionIds).
 */
const MAX_TRANSACTION_ADVANCE = 10_000_000n;

type Row = Record<string, unknown>;

async function query(db: Executor, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as { rows: Row[] };
  return result.rows;
}

const identifier = (name: string) => sql.identifier(name);

/** The base tables of the public schema, each with its columns (in order) and primary key. */
async function readTables(db: Executor) {
  const columns = await query(
    db,
    sql`select c.relname as "table", a.attname as "column",
          format_type(a.atttypid, a.atttypmod) as "type"
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attgenerated = ''
        order by c.relname, a.attnum`,
  );
  const keys = await query(
    db,
    sql`select c.relname as "table", a.attname as "column"
        from pg_index i
        join pg_class c on c.oid = i.indrelid
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
        where n.nspname = 'public' and i.indisprimary
        order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const references = await query(
    db,
    sql`select distinct c.relname as "child", p.relname as "parent"
        from pg_constraint k
        join pg_class c on c.oid = k.conrelid
        join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and k.contype = 'f'`,
  );
  const tables = new Map<string, { columns: { name: string; type: string }[]; key: string[] }>();
  for (const row of columns) {
    const name = String(row.table);
    if (!tables.has(name)) tables.set(name, { columns: [], key: [] });
    tables.get(name)!.columns.push({ name: String(row.column), type: String(row.type) });
  }
  for (const row of keys) tables.get(String(row.table))?.key.push(String(row.column));
  const parents = new Map<string, Set<string>>([...tables.keys()].map((name) => [name, new Set()]));
  for (const row of references) {
    if (row.child !== row.parent) parents.get(String(row.child))?.add(String(row.parent));
  }
  return { tables, order: dependencyOrder(parents) };
}

/** Tables so that each comes after those it references (alphabetical among equals). */
function dependencyOrder(parents: Map<string, Set<string>>): string[] {
  const order: string[] = [];
  const placed = new Set<string>();
  while (placed.size < parents.size) {
    const ready = [...parents.keys()]
      .filter((name) => !placed.has(name) && [...parents.get(name)!].every((p) => placed.has(p)))
      .sort();
    if (ready.length === 0) {
      const stuck = [...parents.keys()].filter((name) => !placed.has(name)).sort();
      throw new BackupError(`Tables reference each other in a cycle: ${stuck.join(', ')}`);
    }
    for (const name of ready) {
      placed.add(name);
      order.push(name);
    }
  }
  return order;
}

async function readSequences(db: Executor) {
  const names = await query(
    db,
    sql`select c.relname as "name" from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  const sequences: BackupHeader['sequences'] = [];
  for (const { name } of names) {
    const [state] = await query(
      db,
      sql`select last_value::text as "lastValue", is_called as "isCalled"
          from ${identifier('public')}.${identifier(String(name))}`,
    );
    sequences.push({
      name: String(name),
      lastValue: String(state!.lastValue),
      isCalled: state!.isCalled === true,
    });
  }
  return sequences;
}

/** Text forms that read back the same in any session. */
async function setPortableOutput(db: Executor) {
  await db.execute(sql`set local datestyle = 'ISO, YMD'`);
  await db.execute(sql`set local intervalstyle = 'iso_8601'`);
  await db.execute(sql`set local timezone = 'UTC'`);
  await db.execute(sql`set local extra_float_digits = 3`);
  await db.execute(sql`set local bytea_output = 'hex'`);
}

/** Writes a backup of the whole database to `file` (gzip'd JSON lines); returns its header. */
export async function writeBackup(
  connection: DatabaseConnection,
  file: string,
  now: Date = new Date(),
  secrets?: BackupHeader['secrets'],
): Promise<BackupHeader> {
  const partial = `${file}.partial`;
  const gzip = createGzip();
  // Opened at once (owner-only: it holds password hashes), so a refusal below finds it made.
  const out = createWriteStream(partial, { fd: openSync(partial, 'wx', 0o600) });
  gzip.pipe(out);
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  // db.transaction runs its callback again after a serialization failure (transaction-retry.ts);
  // what a first run wrote cannot be taken back, so a second run gives up instead.
  let runs = 0;
  try {
    const header = await connection.db.transaction(
      async (tx) => {
        runs += 1;
        if (runs > 1) throw new BackupError('The database was busy; run the backup again.');
        await setPortableOutput(tx);
        const migrations = await readAppliedMigrations(tx);
        if (migrations.length === 0) {
          throw new BackupError(
            'The database has no Hunch tables yet (never migrated): there is nothing to back up.',
          );
        }
        const { tables, order } = await readTables(tx);
        const [horizon] = await query(
          tx,
          sql`select pg_snapshot_xmax(pg_current_snapshot())::text as "xmax"`,
        );
        const counted: BackupTable[] = [];
        for (const name of order) {
          const [counts] = await query(
            tx,
            sql`select count(*)::text as "rows" from ${identifier(name)}`,
          );
          counted.push({ name, columns: tables.get(name)!.columns, rows: Number(counts!.rows) });
        }
        // Sequences last: their values are then at least every id the rows hold.
        const sequences = await readSequences(tx);
        const made: BackupHeader = {
          format: BACKUP_FORMAT,
          formatVersion: BACKUP_FORMAT_VERSION,
          createdAt: now.toISOString(),
          source: connection.driver,
          migrations,
          tables: counted,
          sequences,
          ...(secrets ? { secrets } : {}),
          transactionHorizon: String(horizon!.xmax),
        };
        await write(JSON.stringify(made));
        for (const table of counted) {
          const { columns, key } = tables.get(table.name)!;
          const selected = sql.join(
            columns.map((column) => sql`${identifier(column.name)}::text`),
            sql`, `,
          );
          const orderBy = key.length
            ? sql` order by ${sql.join(key.map(identifier), sql`, `)}`
            : sql``;
          await tx.execute(
            sql`declare hunch_backup no scroll cursor for
                select ${selected} from ${identifier(table.name)}${orderBy}`,
          );
          for (;;) {
            const rows = await query(tx, sql.raw(`fetch forward ${BATCH_ROWS} from hunch_backup`));
            for (const row of rows) await write(JSON.stringify(Object.values(row)));
            if (rows.length < BATCH_ROWS) break;
          }
          await tx.execute(sql`close hunch_backup`);
        }
        return made;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    gzip.end();
    await finished(out);
    renameSync(partial, file);
    return header;
  } catch (error) {
    gzip.unpipe(out);
    gzip.destroy();
    out.end();
    await finished(out).catch(() => {});
    rmSync(partial, { force: true });
    throw error;
  }
}

/** The lines of a backup file, gzip'd or not. */
async function* readLines(file: string): AsyncGenerator<string> {
  if (!existsSync(file)) throw new BackupError(`No backup file at ${file}`);
  const start = Buffer.alloc(2);
  const fd = await open(file, 'r');
  try {
    await fd.read(start, 0, 2, 0);
  } finally {
    await fd.close();
  }
  const raw = createReadStream(file);
  const isGzip = start[0] === 0x1f && start[1] === 0x8b;
  const input = isGzip ? raw.pipe(createGunzip()) : raw;
  const failed = new Promise<never>((_, reject) => {
    input.on('error', (error: Error) =>
      reject(new BackupError(`${file} cannot be read: ${error.message}`)),
    );
  });
  failed.catch(() => {});
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([lines.next(), failed]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    raw.destroy();
  }
}

const notABackup = (file: string, why: string) =>
  new BackupError(`${file} is not a Hunch backup (${why}).`);

function parseHeader(file: string, line: string | undefined): BackupHeader {
  if (line === undefined) throw notABackup(file, 'it is empty');
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(line) as Partial<BackupHeader>;
  } catch {
    throw notABackup(file, 'its first line is not JSON');
  }
  if (header?.format !== BACKUP_FORMAT) throw notABackup(file, `no "format": "${BACKUP_FORMAT}"`);
  if (header.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      `${file} is a Hunch backup of format ${String(header.formatVersion)}; this Hunch reads ` +
        `format ${BACKUP_FORMAT_VERSION}. Restore it with the Hunch version that made it.`,
    );
  }
  if (
    !Array.isArray(header.migrations) ||
    !Array.isArray(header.tables) ||
    !Array.isArray(header.sequences) ||
    typeof header.transactionHorizon !== 'string'
  ) {
    throw notABackup(file, 'its header is incomplete');
  }
  return header as BackupHeader;
}

/**
 * How many of the code's migrations the backup's are (they must be the code's first ones).
 * A backup of newer code cannot be restored: its tables may have columns this code lacks.
 */
function backupMigrationLevel(file: string, header: BackupHeader): number {
  const level = migrationLevel(header.migrations);
  if (level.kind === 'newer')
    throw new BackupError(
      `${file} was made by a newer Hunch (its database has ${level.count} ` +
        `migrations, this code knows ${level.codeCount}). Upgrade this Hunch first ` +
        '(git pull, npm ci), then restore.',
    );
  if (level.kind === 'foreign')
    throw new BackupError(
      `${file} has a migration history this Hunch does not share; restore it with the ` +
        'Hunch that made it.',
    );
  return level.count;
}

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

/** Row counts of the tables that hold any rows. */
async function nonEmptyTables(db: Executor): Promise<{ name: string; rows: number }[]> {
  const { order } = await readTables(db);
  const found: { name: string; rows: number }[] = [];
  for (const name of order) {
    const [counts] = await query(db, sql`select count(*)::text as "rows" from ${identifier(name)}`);
    if (Number(counts!.rows) > 0) found.push({ name, rows: Number(counts!.rows) });
  }
  return found;
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

/** The header of a backup file (its first line). */
async function readHeader(file: string): Promise<BackupHeader> {
  const lines = readLines(file);
  try {
    const first = await lines.next();
    return parseHeader(file, first.done ? undefined : first.value);
  } finally {
    await lines.return(undefined);
  }
}

/**
 * The file's rows, table by table in its header's order; throws at the first damaged or
 * missing row, and at a row beyond the header's counts.
 */
async function* backupRows(
  file: string,
  header: BackupHeader,
): AsyncGenerator<{ table: BackupTable; row: unknown[] }> {
  const lines = readLines(file);
  try {
    await lines.next();
    for (const table of header.tables) {
      for (let index = 0; index < table.rows; index += 1) {
        const next = await lines.next();
        if (next.done) {
          throw new BackupError(
            `${file} ends early: table ${table.name} has ${index} of its ${table.rows} rows ` +
              '(the file was cut short). Nothing was restored.',
          );
        }
        let row: unknown;
        try {
          row = JSON.parse(next.value);
        } catch {
          row = undefined;
        }
        const isRow =
          Array.isArray(row) &&
          row.length === table.columns.length &&
          row.every((value) => value === null || typeof value === 'string');
        if (!isRow) {
          throw new BackupError(
            `${file}: row ${index + 1} of table ${table.name} is damaged. Nothing was restored.`,
          );
        }
        yield { table, row: row as unknown[] };
      }
    }
    if (!(await lines.next()).done) {
      throw new BackupError(`${file} has more rows than its header counts. Nothing was restored.`);
    }
  } finally {
    await lines.return(undefined);
  }
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
