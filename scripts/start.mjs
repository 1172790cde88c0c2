// `npm start`: builds whatever is missing or out of date, then runs the bundled server
// (which migrates the database and serves the API and the PWA on one port).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);
const serverBundle = at('dist/server/main.js');

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function run(command, args) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// A checkout that moved on (git pull) never serves stale code: whatever is older than its
// sources is built again.
const isStale = (output, sources) => {
  if (!existsSync(output)) return true;
  const newest = Math.max(...sources.map((dir) => newestMtime(at(dir))));
  return newest > statSync(output).mtimeMs;
};
const hasClientSource = existsSync(at('src/client/index.html'));
const needsClient =
  hasClientSource &&
  isStale(at('dist/client/index.html'), ['src/client', 'src/domain', 'src-sw', 'public']);
const needsServer = isStale(serverBundle, ['src/server', 'src/domain']);

if (needsClient) {
  run('npm', ['run', 'build']);
} else if (needsServer) {
  run(process.execPath, [at('scripts/build-server.mjs')]);
}

await import(pathToFileURL(serverBundle).href);
