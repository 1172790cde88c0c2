import { createReadStream, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { migrationLevel } from './migration-level';

// The backup file (docs/self-hosting.md): gzip'd JSON lines, a header (format, migrations,
// tables with their columns and row counts, sequences, the snapshot's transaction horizon),
// then each table's rows as JSON arrays of PostgreSQL's text form of each value, tables in
// foreign-key order. backup.ts writes it, restore.ts reads it through these.

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
export function backupMigrationLevel(file: string, header: BackupHeader): number {
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

/** The header of a backup file (its first line). */
export async function readHeader(file: string): Promise<BackupHeader> {
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
export async function* backupRows(
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
