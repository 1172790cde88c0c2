import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { at, ensureServerBundle } from '../../scripts/server-bundle.mjs';
import { createMigratedPglite } from '../migrated-pglite';
import { startServerProcess } from './server-process';

// Builds the client when its build is missing or older than its sources, then starts the
// real server (./server-process.ts) on the port chosen by playwright.config.ts with a fresh
// DATA_DIR (a copy of the run's migrated database), and stops it afterwards. The browser walks through journeys on PGlite only: what
// depends on PostgreSQL is the server's and the devices' tests (POSTGRES_FILES in
// vitest.config.ts, and the convergence test on both engines).

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

export default async function globalSetup() {
  const port = Number(process.env.HUNCH_E2E_PORT);
  buildClientIfNeeded();
  ensureServerBundle(at('dist/server/main.js'));
  // The migrated database every server of the run starts from (tests/migrated-pglite.ts).
  const migrated = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-migrated-'));
  await (await createMigratedPglite(path.join(migrated, 'pglite'))).close();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-'));
  process.env.HUNCH_E2E_DATA_DIR = dataDir;
  const server = await startServerProcess({ port, dataDir });

  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(migrated, { recursive: true, force: true });
  };
}
