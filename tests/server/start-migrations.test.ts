import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/server/db/connect';
import { codeMigrations } from '../../src/server/db/migration-level';
import { freePort } from '../e2e/server-process';
import { hunchEnv, runServerUntilExit, SERVER_BUNDLE, spawnProcess } from './spawned-process';

// Upgrades are visible and safe (issue 42, point 15): a start says which migrations it ran,
// from → to, and a server older than its database's schema refuses it in one line, by the rule
// a restore uses (src/server/db/migration-level.ts).

/** The deepest process under `pid` (tsx runs the server in a child of its own). */
function serverPid(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  return children[0] ? serverPid(Number(children[0])) : pid;
}

/** VmHWM: the most resident memory the process has held, in MB. */
function peakResidentMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-start-migrations-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const env = () => hunchEnv({ HOST: '127.0.0.1', DATA_DIR: dataDir });

describe('the migrations at start', () => {
  const count = codeMigrations().length;

  it('are logged from → to on a new DATA_DIR, and "up to date" on the next start', async () => {
    for (const expected of [
      new RegExp(`"msg":"database migrated from 0 to ${count} migrations in \\d+ ms \\(`),
      new RegExp(`"msg":"database schema is up to date \\(${count} migrations\\)"`),
    ]) {
      const port = await freePort();
      const child = spawnProcess(process.execPath, [SERVER_BUNDLE], {
        ...env(),
        PORT: String(port),
      });
      try {
        await child.line(/Hunch is ready/, 180_000);
        expect(child.output()).toMatch(expected);
        // Point 18: PGlite's initdb (about 900 MB) ran in a short-lived child, not in the
        // server, which peaks near 400 MB (docs/self-hosting.md, Memory).
        expect(peakResidentMb(serverPid(child.child.pid!))).toBeLessThan(600);
        child.child.kill('SIGTERM');
        expect((await child.exited()).code).toBe(0);
      } finally {
        await child.kill();
      }
    }
  }, 400_000);

  it('refuse a database a newer Hunch migrated, in one line', async () => {
    const database = await connectDatabase({ databaseUrl: undefined, dataDir });
    const newer = (codeMigrations().at(-1)?.createdAt ?? 0) + 86_400_000;
    await database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-the-future', ${newer})`,
    );
    await database.close();
    const { exit, failure, output } = await runServerUntilExit({
      ...env(),
      PORT: String(await freePort()),
    });
    expect(exit.code).toBe(1);
    expect(failure).toEqual([
      `Hunch could not start: the database of DATA_DIR was migrated by a newer Hunch (${count + 1} migrations, ` +
        `this code knows ${count}): run the newer version, or restore the backup made before the upgrade ` +
        'into an empty database (docs/self-hosting.md, Upgrades).',
    ]);
    expect(output).not.toMatch(/\n\s+at /);
  }, 240_000);
});
