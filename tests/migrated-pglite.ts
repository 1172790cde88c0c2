import { chmodSync, cpSync, existsSync } from 'node:fs';
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

/** Creates the migrated PGlite folder `dir` and names it for the run's test processes; answers it open. */
export async function createMigratedPglite(dir: string): Promise<PGlite> {
  const client = await createPglite(dir);
  await fromPglite(client).migrate();
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
