import { appendFileSync, chmodSync, cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite, fromPglite } from '../src/server/db/connect';

// A first start of Hunch on PGlite creates its database (initdb, in a process of its own) and
// runs every migration: seconds of CPU per server, for what every test's server starts from.
// A run's global setup (tests/server/global-setup.ts, tests/e2e/global-setup.ts) makes one
// migrated data folder and names it in this variable, which the test processes inherit; a
// server a test starts on an empty DATA_DIR (tests/e2e/server-process.ts) gets a copy of it.
// The tests of the first start itself (initdb, migrations, their failures) start on nothing.
export const MIGRATED_PGLITE_ENV = 'HUNCH_TEST_MIGRATED_PGLITE';

// A test's database holds a few hundred rows; PostgreSQL's default 128 MB of shared buffers is
// zeroed in WebAssembly memory at every start, two thirds of the CPU of opening a copy. The
// copies tests start from keep 16 MB (a server a player runs keeps the default).
const TEST_SETTINGS =
  '\n# Tests (tests/migrated-pglite.ts): a small database, a quick start.\nshared_buffers = 16MB\n';

/** Creates the migrated PGlite folder `dir` and names it for the run's test processes; answers it open. */
export async function createMigratedPglite(dir: string): Promise<PGlite> {
  const client = await createPglite(dir);
  await fromPglite(client).migrate();
  // Read at the next start: by every copy, and by the dump made of this folder.
  appendFileSync(path.join(dir, 'postgresql.conf'), TEST_SETTINGS);
  process.env[MIGRATED_PGLITE_ENV] = dir;
  return client;
}

/** Gives `dataDir` the run's migrated database, unless it has one (or the run made none). */
export function seedDataDir(dataDir: string): void {
  const from = process.env[MIGRATED_PGLITE_ENV];
  const to = path.join(dataDir, 'pglite');
  if (!from || existsSync(to)) return;
  cpSync(from, to, { recursive: true });
  // As Hunch makes it (src/server/db/connect.ts): owner-only.
  chmodSync(to, 0o700);
}

const snapshots = new Map<string, Buffer>();

/**
 * A dump of the migrated database (a tar file) as PGlite's `loadDataDir` reads it. PGlite asks
 * only for its bytes, and Node's Blob hands 40 MB back in small chunks joined again: a third
 * of the CPU of opening a copy. The file is read once per process; each copy gets its own bytes.
 */
export function migratedSnapshot(file: string): Blob {
  let tar = snapshots.get(file);
  if (!tar) snapshots.set(file, (tar = readFileSync(file)));
  const bytes = tar;
  const snapshot: Pick<Blob, 'type' | 'size' | 'arrayBuffer'> = {
    type: 'application/x-tar',
    size: bytes.length,
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
  };
  return snapshot as Blob;
}
