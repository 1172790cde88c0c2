import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { connectDatabase } from './db/connect';
import { DataDirLockedError } from './db/data-dir-lock';
import { migrateForStart, SchemaMismatchError } from './db/migration-level';
import { checkMailServer } from './mail/mailer';

// Starts Hunch: config, database (migrated), the app on PORT; stops cleanly on SIGTERM/SIGINT.

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Hunch could not start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * PGlite's first start creates its database (initdb), which peaked at about 900 MB where later
 * starts stay near 400 MB (docs/self-hosting.md, Memory). It runs in a short-lived copy of this
 * process, so the serving one never holds that peak: the copy opens DATA_DIR and exits.
 */
async function createPgliteInChild(config: Config): Promise<void> {
  if (config.databaseUrl || existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'))) return;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [INITDB_ONLY]: '1' },
    stdio: 'inherit',
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  // Its one line said why; this process exits with it.
  if (code !== 0) process.exit(code ?? 1);
  if (signal) throw new Error(`creating the PGlite database ended by ${signal}`);
}

const INITDB_ONLY = 'HUNCH_INTERNAL_PGLITE_INITDB_ONLY';

async function main() {
  const config = readConfig();
  if (process.env[INITDB_ONLY] === '1') {
    await (await connectDatabase({ databaseUrl: undefined, dataDir: config.dataDir })).close();
    process.exit(0);
  }
  await createPgliteInChild(config);
  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  // A newer Hunch's database is refused before anything touches it; what ran is logged once
  // the app's logger exists.
  const migrationLog: [string, Record<string, unknown>][] = [];
  await migrateForStart(database, (message, details) => migrationLog.push([message, details]));
  // This file is src/server/main.ts under tsx and dist/server/main.js when bundled: both are
  // two levels below the project root, where dist/client is.
  const clientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));
  const app = await buildApp({ config, database, clientDir });
  for (const [message, details] of migrationLog) app.log.info(details, message);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting and finish requests in flight; then close the database.
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/pglite`;
  app.log.info(`Hunch is ready at ${config.publicUrl} (database: ${where})`);
  // In the background: a mail server that does not answer is a warning, not a refusal.
  void checkMailServer(config.smtpUrl, app.log);
}

/**
 * One line naming the cause and the variable to change, for the failures an operator meets
 * (a port in use, a database out of reach, a read-only or full DATA_DIR); undefined for the
 * unexpected, which keep their stack.
 */
function startFailure(thrown: unknown, env = process.env): string | undefined {
  if (thrown instanceof DataDirLockedError || thrown instanceof SchemaMismatchError)
    return thrown.message;
  // Drizzle wraps the driver's error (DrizzleQueryError, its code in `cause`).
  let error = thrown;
  while (error instanceof Error && !('code' in error) && error.cause !== undefined)
    error = error.cause;
  const { syscall } = (error ?? {}) as { syscall?: unknown };
  const code = errorCode(error);
  const port = env.PORT || '3000';
  const host = env.HOST || '0.0.0.0';
  const dataDir = env.DATA_DIR || './data';
  if (syscall === 'listen' && code === 'EADDRINUSE')
    return `port ${port} on ${host} is in use by another process: stop it, or set PORT to a free port.`;
  if (syscall === 'listen' && (code === 'EACCES' || code === 'EADDRNOTAVAIL'))
    return `cannot listen on ${host}:${port} (${code}): check HOST and PORT (ports below 1024 need privileges).`;
  if (env.DATABASE_URL && typeof code === 'string' && DATABASE_UNREACHABLE.has(code)) {
    const url = new URL(env.DATABASE_URL);
    return `the database at ${url.hostname}:${url.port || '5432'} cannot be reached (${code}): check DATABASE_URL and that PostgreSQL runs.`;
  }
  if (env.DATABASE_URL && code === '3D000')
    return 'the database named in DATABASE_URL does not exist: create it (createdb), or fix DATABASE_URL.';
  if (env.DATABASE_URL && code === '28P01')
    return 'the database refused the password of DATABASE_URL: check its user and password.';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return `DATA_DIR ${dataDir} is not writable (${code}): give the user running Hunch write access, or set DATA_DIR elsewhere.`;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return `DATA_DIR ${dataDir} is full (${code}): free some space, or set DATA_DIR on a larger disk.`;
  return undefined;
}

/**
 * PGlite's file system (Emscripten's) throws an ErrnoError with a number, not Node's code: a
 * full DATA_DIR printed "ErrnoError { errno: 51 }". Its numbers for the codes above.
 */
const EMSCRIPTEN_ERRNO: Record<number, string> = {
  2: 'EACCES',
  19: 'EDQUOT',
  51: 'ENOSPC',
  63: 'EPERM',
  69: 'EROFS',
};

function errorCode(error: unknown): unknown {
  const { code, errno, name } = (error ?? {}) as {
    code?: unknown;
    errno?: unknown;
    name?: unknown;
  };
  if (name === 'ErrnoError' && typeof errno === 'number') return EMSCRIPTEN_ERRNO[errno] ?? code;
  return code;
}

const DATABASE_UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ECONNRESET',
]);

main().catch((error: unknown) => {
  const line = startFailure(error);
  if (line) console.error(`Hunch could not start: ${line}`);
  else console.error('Hunch could not start:', error);
  process.exit(1);
});
