// What scripts/start.mjs and scripts/backup.mjs share: whether a build output is older than its
// sources, and running a build step. Plain Node (no tsx), so both work after `npm ci` with the
// bundles already built, devDependencies or not.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const at = (...parts) => path.join(root, ...parts);

/** The sources the server bundles (dist/server) are built from. */
export const SERVER_SOURCES = ['src/server', 'src/domain'];

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

export function run(command, args) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// A checkout that moved on (git pull) never serves stale code: whatever is older than its
// sources is built again.
export const isStale = (output, sources) => {
  if (!existsSync(output)) return true;
  const newest = Math.max(...sources.map((dir) => newestMtime(at(dir))));
  return newest > statSync(output).mtimeMs;
};

/** Bundles the server again (scripts/build-server.mjs) when `bundle` is missing or stale. */
export function ensureServerBundle(bundle) {
  if (isStale(bundle, SERVER_SOURCES)) run(process.execPath, [at('scripts/build-server.mjs')]);
}
