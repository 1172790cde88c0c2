import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

// The next release of Hunch, for the protocol update spec: this checkout copied to
// .tmp/e2e-newer-release with its sync protocol one version up and the current version no
// longer spoken (src/domain/sync-protocol.ts), as a release that changed the protocol would
// be. Its client and its server bundle are built there (again only when the sources changed) and
// its server runs from there (startServerProcess's `root`), so the browser meets a real newer server and a real
// newer service worker, and the checkout's own build plays the installed, older app.

const checkout = path.resolve(import.meta.dirname, '../..');
const release = path.join(checkout, '.tmp/e2e-newer-release');
const PROTOCOL_FILE = 'src/domain/sync-protocol.ts';
/** What a release is built and served from. */
const SOURCES = ['src', 'src-sw', 'public', 'scripts', 'vite.config.ts', 'tsconfig.json'];

function newestMtime(target: string): number {
  if (!statSync(target).isDirectory()) return statSync(target).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** The protocol file with both versions set to `version`. */
function bumped(source: string, version: number): string {
  let replaced = 0;
  const text = source.replace(
    /^export const (SYNC_PROTOCOL_VERSION|OLDEST_SYNC_PROTOCOL_VERSION) = \d+;$/gm,
    (_line, name: string) => {
      replaced += 1;
      return `export const ${name} = ${version};`;
    },
  );
  if (replaced !== 2)
    throw new Error(`${PROTOCOL_FILE}: expected both versions, found ${replaced}`);
  return text;
}

/** Prepares the newer release; answers its root and the protocol version it speaks. */
export function prepareNewerRelease(currentVersion: number): { root: string; version: number } {
  const version = currentVersion + 1;
  mkdirSync(release, { recursive: true });
  for (const source of SOURCES)
    cpSync(path.join(checkout, source), path.join(release, source), {
      recursive: true,
      preserveTimestamps: true,
      filter: (from) => path.relative(checkout, from) !== PROTOCOL_FILE,
    });
  // package.json says "type": "module"; the dependencies are the checkout's own.
  writeFileSync(
    path.join(release, 'package.json'),
    readFileSync(path.join(checkout, 'package.json')),
  );
  if (!existsSync(path.join(release, 'node_modules')))
    symlinkSync(path.join(checkout, 'node_modules'), path.join(release, 'node_modules'), 'dir');
  // Written only when it changes, so an unchanged release is not built again.
  const protocolFile = path.join(release, PROTOCOL_FILE);
  const wanted = bumped(readFileSync(path.join(checkout, PROTOCOL_FILE), 'utf8'), version);
  if (!existsSync(protocolFile) || readFileSync(protocolFile, 'utf8') !== wanted)
    writeFileSync(protocolFile, wanted);

  const index = path.join(release, 'dist/client/index.html');
  const sources = Math.max(...SOURCES.map((source) => newestMtime(path.join(release, source))));
  if (!existsSync(index) || statSync(index).mtimeMs < sources) {
    const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
      cwd: release,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error('the newer release did not build');
  }
  const server = path.join(release, 'dist/server/main.js');
  if (!existsSync(server) || statSync(server).mtimeMs < sources) {
    const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], {
      cwd: release,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error('the newer release’s server did not build');
  }
  return { root: release, version };
}
