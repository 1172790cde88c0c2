import { once } from 'node:events';
import { createWriteStream, openSync, renameSync, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { DatabaseConnection, Executor } from './connect';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  type BackupHeader,
  type BackupTable,
} from './backup-file';
import { BATCH_ROWS, identifier, query, readSequences, readTables } from './database-catalog';
import { readAppliedMigrations } from './migration-level';

// Backups: one file holding every row of every table of the public schema, in PostgreSQL's
// text form of each value, with the migrations applied when it was made (the file's format:
// backup-file.ts). The same file restores into PGlite or PostgreSQL, whichever made it
// (restore.ts, docs/self-hosting.md). Everything is read in one REPEATABLE READ transaction.

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
