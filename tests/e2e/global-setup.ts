import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startServerProcess } from './server-process';

// Builds the client when its build is missing or older than its sources, then starts the
// real server (./server-process.ts) on the port chosen by playwright.config.ts with a fresh
// DATA_DIR, and stops it afterwards.

const root = path.resolve(import.meta.dirname, '../..');

/** The newest modification time of a file, or of every file under a folder. */
function newestMtime(target: string): number {
  if (!statSync(target).isDirectory()) return statSync(target).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function buildClientIfNeeded() {
  const index = path.join(root, 'dist/client/index.html');
  // The service worker (src-sw), the manifest and icons (public), the build's configuration and
  // the build plugins it loads from scripts/ are part of the client build too.
  const sources = Math.max(
    ...['src/client', 'src/domain', 'src-sw', 'public', 'vite.config.ts', 'scripts'].map((target) =>
      newestMtime(path.join(root, target)),
    ),
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('vite build failed');
}

/** A fresh database on the TEST_DATABASE_URL server for the PostgreSQL run, and how to drop it. */
async function createPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `hunch_e2e_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export default async function globalSetup() {
  const port = Number(process.env.HUNCH_E2E_PORT);
  buildClientIfNeeded();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-'));
  process.env.HUNCH_E2E_DATA_DIR = dataDir;
  const server = await startServerProcess({ port, dataDir });
  // With TEST_DATABASE_URL (CI), a second server on PostgreSQL for the chromium-postgres project.
  const postgresPort = Number(process.env.HUNCH_E2E_POSTGRES_PORT);
  const postgres =
    process.env.TEST_DATABASE_URL && postgresPort
      ? await createPostgresDatabase(process.env.TEST_DATABASE_URL)
      : null;
  const postgresDataDir = postgres ? mkdtempSync(path.join(tmpdir(), 'hunch-e2e-pg-')) : null;
  const postgresServer = postgres
    ? await startServerProcess({
        port: postgresPort,
        dataDir: postgresDataDir!,
        databaseUrl: postgres.url,
      })
    : null;

  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await postgresServer?.stop();
    await postgres?.drop();
    if (postgresDataDir) rmSync(postgresDataDir, { recursive: true, force: true });
  };
}
