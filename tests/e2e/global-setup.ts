import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServerProcess } from './server-process';

// Builds the client when its build is missing or older than its sources, then starts the
// real server (./server-process.ts) on the port chosen by playwright.config.ts with a fresh
// DATA_DIR, and stops it afterwards.

const root = path.resolve(import.meta.dirname, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function buildClientIfNeeded() {
  const index = path.join(root, 'dist/client/index.html');
  // The service worker (src-sw) and the manifest and icons (public) are part of the client build.
  const sources = Math.max(...['src/client', 'src/domain', 'src-sw', 'public'].map((dir) => newestMtime(path.join(root, dir))));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

export default async function globalSetup() {
  const port = Number(process.env.HUNCH_E2E_PORT);
  buildClientIfNeeded();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-'));
  process.env.HUNCH_E2E_DATA_DIR = dataDir;
  const server = await startServerProcess({ port, dataDir });

  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
