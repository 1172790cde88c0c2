import { existsSync, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { consoleOutput, loadConfigOrSay, type CliOutput } from '../cli-output';
import { type Config } from '../config';
import { readSecretsFile, restoreSecretsFile } from '../secrets';
import { writeBackup } from './backup';
import { BackupError } from './backup-file';
import { restoreBackup } from './restore';
import { connectDatabase } from './connect';
import { DataDirLockedError } from './data-dir-lock';

// `npm run backup [-- <folder or file>]` and `npm run restore -- <file> [--force]`, on the
// database `npm start` would use (DATA_DIR's PGlite, or DATABASE_URL). scripts/backup.mjs
// runs this from the server bundle (dist/server/backup-cli.js), as scripts/start.mjs runs
// the server; the tests call runBackupCli directly. The format: src/server/db/backup.ts.

const DEFAULT_FOLDER = 'backups';
const BACKUP_SUFFIXES = ['.jsonl.gz', '.jsonl'];

const BACKUP_USAGE = `Usage: npm run backup [-- <folder or file>] [--keep <n>]
  Writes the whole database (DATA_DIR's PGlite, or DATABASE_URL) to one file: into the
  folder (default ./${DEFAULT_FOLDER}) as hunch-backup-<time>.jsonl.gz, or to the file named
  (ending in .jsonl.gz). --keep 7: then deletes all but the 7 newest hunch-backup-<time>
  files of that folder (no other file).`;
const RESTORE_USAGE = `Usage: npm run restore -- <backup file> [--force]
  Fills the database (DATA_DIR's PGlite, or DATABASE_URL) from a backup. It must be empty,
  unless --force: then everything in it is replaced.`;

/** hunch-backup-2026-11-26T15-04-05Z.jsonl.gz: sorts by time, no colons (Windows, scp). */
export function backupFileName(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
  return `hunch-backup-${stamp}.jsonl.gz`;
}

function describe(config: Config): string {
  return config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`;
}

function lockedMessage(error: DataDirLockedError, action: 'backup' | 'restore'): string {
  return (
    `Hunch is running on this data folder (pid ${error.holderPid}), and PGlite serves one ` +
    `process at a time: a ${action} cannot open it now. Stop Hunch (e.g. systemctl stop ` +
    `hunch), run the ${action}, start it again; a backup takes seconds. (On PostgreSQL, ` +
    'DATABASE_URL, backups run while Hunch serves.)'
  );
}

function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Where the backup goes: a file named with a backup suffix, else a file in that folder. */
function targetFile(argument: string | undefined, now: Date): string {
  const given = path.resolve(argument ?? DEFAULT_FOLDER);
  if (BACKUP_SUFFIXES.some((suffix) => given.endsWith(suffix))) {
    mkdirSync(path.dirname(given), { recursive: true, mode: 0o700 });
    return given;
  }
  if (existsSync(given) && !statSync(given).isDirectory()) {
    throw new BackupError(
      `${given} is a file without a backup suffix; name a folder, or a file ending in .jsonl.gz.`,
    );
  }
  mkdirSync(given, { recursive: true, mode: 0o700 });
  return path.join(given, backupFileName(now));
}

/** The files `npm run backup` names (backupFileName), and no other. */
const BACKUP_NAME = /^hunch-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.jsonl\.gz$/;

/** Deletes all but the `keep` newest backups of `folder` by their names' time; returns the deleted. */
export function rotateBackups(folder: string, keep: number): string[] {
  const backups = readdirSync(folder)
    .filter((name) => BACKUP_NAME.test(name))
    .sort();
  const old = backups.slice(0, Math.max(0, backups.length - keep));
  for (const name of old) unlinkSync(path.join(folder, name));
  return old;
}

/** `--keep <n>` (n ≥ 1) out of the arguments; null when it is malformed. */
function readKeep(args: string[]): { keep: number | undefined; rest: string[] } | null {
  const at = args.indexOf('--keep');
  if (at === -1) return { keep: undefined, rest: args };
  const value = args[at + 1] ?? '';
  if (!/^[1-9]\d*$/.test(value)) return null;
  return { keep: Number(value), rest: args.filter((_, index) => index !== at && index !== at + 1) };
}

async function backup(args: string[], config: Config, output: CliOutput): Promise<number> {
  const keepArgs = readKeep(args);
  const positional = keepArgs?.rest.filter((arg) => !arg.startsWith('--')) ?? [];
  const unknown = keepArgs?.rest.filter((arg) => arg.startsWith('--')) ?? [];
  if (!keepArgs || unknown.length > 0 || positional.length > 1) {
    output.error(BACKUP_USAGE);
    return 2;
  }
  const now = new Date();
  const file = targetFile(positional[0], now);
  if (existsSync(file)) throw new BackupError(`${file} exists already; nothing was written.`);
  const database = await connectDatabase(config);
  try {
    // PGlite's DATA_DIR or not, its secrets.json (when Hunch generated one) goes along.
    const header = await writeBackup(database, file, now, readSecretsFile(config.dataDir));
    const rows = header.tables.reduce((sum, table) => sum + table.rows, 0);
    output.out(
      `Backed up ${rows} rows of ${header.tables.length} tables from ${describe(config)} ` +
        `to ${file} (${humanSize(statSync(file).size)}).`,
    );
    output.out(
      header.secrets
        ? 'It holds DATA_DIR/secrets.json too (the generated JWT secret and VAPID keys).'
        : 'It holds the database; DATA_DIR has no secrets.json (JWT_SECRET and VAPID keys are ' +
            'set in the environment: keep them with your backups).',
    );
    if (keepArgs.keep !== undefined) {
      const deleted = rotateBackups(path.dirname(file), keepArgs.keep);
      output.out(
        `Kept the ${keepArgs.keep} newest backups in ${path.dirname(file)}; deleted ${deleted.length}` +
          (deleted.length > 0 ? ` (${deleted.join(', ')}).` : '.'),
      );
    }
    return 0;
  } finally {
    await database.close();
  }
}

/** What a restore did with the backup's DATA_DIR/secrets.json. */
function secretsLine(dataDir: string, secrets: Record<string, unknown> | undefined): string {
  const file = path.join(dataDir, 'secrets.json');
  if (!secrets)
    return `The backup holds no secrets.json (set in its environment, or made before backups carried it): keep ${file} from the old server.`;
  const done = restoreSecretsFile(dataDir, secrets);
  if (done === 'written') return `Wrote the backup's secrets to ${file}.`;
  if (done === 'same') return `${file} already holds the backup's secrets.`;
  return `${file} exists and differs from the backup's: kept it (sign-ins made under the backup's secret end).`;
}

async function restore(args: string[], config: Config, output: CliOutput): Promise<number> {
  const force = args.includes('--force');
  const positional = args.filter((arg) => !arg.startsWith('--'));
  const unknown = args.filter((arg) => arg.startsWith('--') && arg !== '--force');
  if (unknown.length > 0 || positional.length !== 1) {
    output.error(RESTORE_USAGE);
    return 2;
  }
  const file = path.resolve(positional[0]!);
  if (!existsSync(file)) throw new BackupError(`No backup file at ${file}; nothing was changed.`);
  const database = await connectDatabase(config);
  try {
    const summary = await restoreBackup(database, file, { force, log: output.out });
    output.out(
      `Restored ${summary.rows} rows of ${summary.tables} tables into ${describe(config)}` +
        (summary.laterMigrations > 0
          ? `, then applied ${summary.laterMigrations} newer migrations.`
          : '.'),
    );
    output.out(secretsLine(config.dataDir, summary.secrets));
    output.out('Start Hunch (npm start) on it.');
    return 0;
  } finally {
    await database.close();
  }
}

/** Runs `backup` or `restore` with the command line's arguments; returns the exit code. */
export async function runBackupCli(
  command: 'backup' | 'restore',
  args: string[],
  env: Record<string, string | undefined> = process.env,
  output: CliOutput = consoleOutput,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    output.out(command === 'backup' ? BACKUP_USAGE : RESTORE_USAGE);
    return 0;
  }
  const config = loadConfigOrSay(env, output);
  if (!config) return 1;
  try {
    return command === 'backup'
      ? await backup(args, config, output)
      : await restore(args, config, output);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      output.error(lockedMessage(error, command));
      return 1;
    }
    if (error instanceof BackupError) {
      output.error(error.message);
      return 1;
    }
    const what = error instanceof Error ? error.message : String(error);
    output.error(`The ${command} failed: ${what}`);
    return 1;
  }
}
