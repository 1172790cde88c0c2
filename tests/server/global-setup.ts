import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { at, ensureServerBundle } from '../../scripts/server-bundle.mjs';
import { fromPool } from '../../src/server/db/connect';
import { createMigratedPglite } from '../migrated-pglite';

// Prepares one migrated database per test run, which every test file copies:
// - PGlite: initdb takes seconds, so migrate once and dump the data directory; each test
//   file loads the dump into a fresh in-memory PGlite (fast and isolated), and a server a test
//   starts as a process on an empty DATA_DIR gets a copy of the folder (tests/migrated-pglite.ts).
// - PostgreSQL (TEST_DATABASE_URL): a migrated template database; each test file creates
//   its own database from it and drops it afterwards.

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const kind = project.config.env?.HUNCH_TEST_DB ?? 'pglite';

  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('HUNCH_TEST_DB=postgres needs TEST_DATABASE_URL');
    const template = `hunch_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const connection = fromPool(new pg.Pool({ connectionString: templateUrl.toString(), max: 1 }));
    await connection.migrate();
    await connection.close();
    project.provide('postgresTemplate', template);
    project.provide('pgliteSnapshot', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    };
  }

  // The servers tests start as processes run the bundle `npm start` runs (built when stale):
  // starting from source through tsx cost a second of CPU more per start.
  ensureServerBundle(at('dist/server/main.js'));
  const dir = path.resolve('.tmp');
  mkdirSync(dir, { recursive: true });
  const snapshot = path.join(dir, `pglite-snapshot-${process.pid}-${project.name}.tar`);
  // On disk, so that servers started as processes copy it too (tests/migrated-pglite.ts).
  const migrated = path.join(dir, `pglite-migrated-${process.pid}-${project.name}`);
  rmSync(migrated, { recursive: true, force: true });
  const client = await createMigratedPglite(migrated);
  const dump = await client.dumpDataDir('none');
  writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide('pgliteSnapshot', snapshot);
  project.provide('postgresTemplate', '');
  return () => {
    rmSync(snapshot, { force: true });
    rmSync(migrated, { recursive: true, force: true });
  };
}
