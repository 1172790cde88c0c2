import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import { runBackupCli } from '../../../src/server/db/backup-cli';
import { writeBackup } from '../../../src/server/db/backup';
import type { BackupHeader } from '../../../src/server/db/backup-file';
import { connectDatabase, type DatabaseConnection } from '../../../src/server/db/connect';
import { subscribeToPush, deleteAccount } from '../auth/account-data.factories';
import { cancel, createBet, placeWager, resolve } from '../bets/bet.factories';
import { addComment, deleteComment } from '../comments/comment.factories';
import { createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import {
  createUser,
  emptyPostgresDatabase,
  login,
  startTestServer,
  useTestServer,
  type SignedInUser,
} from '../harness';
import { inboxOf, NO_TIMERS } from '../notifications/notification.factories';

// `npm run backup` / `npm run restore` (src/server/db/backup-cli.ts): a backup of a database
// played through the real server restores, row for row in every table, into an empty PGlite
// data folder and an empty PostgreSQL database, whichever database made it; the restored
// server serves its players. Tables are listed from information_schema, so a new table is
// covered without touching this test.

const server = useTestServer(NO_TIMERS);
const work = mkdtempSync(path.join(os.tmpdir(), 'hunch-backup-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What the command printed, and its exit code. */
async function cli(
  command: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; error: string }> {
  const out: string[] = [];
  const error: string[] = [];
  const code = await runBackupCli(command, args, env, {
    out: (line) => out.push(line),
    error: (line) => error.push(line),
  });
  return { code, out: out.join('\n'), error: error.join('\n') };
}

type Rows = Record<string, unknown>[];

/** Every table of the public schema (information_schema), each row as text, sorted; and the sequences. */
async function contents(database: DatabaseConnection): Promise<Record<string, string[]>> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    await tx.execute(sql`set local extra_float_digits = 3`);
    const tables = (
      (await tx.execute(
        sql`select table_name as "name" from information_schema.tables
            where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
      )) as unknown as { rows: Rows }
    ).rows.map((row) => String(row.name));
    const result: Record<string, string[]> = {};
    for (const name of tables) {
      const rows = (
        (await tx.execute(
          sql`select t::text as "row" from ${sql.identifier(name)} t`,
        )) as unknown as { rows: Rows }
      ).rows;
      result[name] = rows.map((row) => String(row.row)).sort();
    }
    const sequences = (
      (await tx.execute(
        sql`select sequence_name as "name" from information_schema.sequences
            where sequence_schema = 'public' order by sequence_name`,
      )) as unknown as { rows: Rows }
    ).rows;
    for (const { name } of sequences) {
      const [state] = (
        (await tx.execute(
          sql`select last_value::text || ' ' || is_called::text as "state"
              from ${sql.identifier(String(name))}`,
        )) as unknown as { rows: Rows }
      ).rows;
      result[`sequence ${String(name)}`] = [String(state!.state)];
    }
    return result;
  });
}

/** Asserts the restored database holds exactly the source's rows, table by table. */
async function expectSameContents(source: DatabaseConnection, restored: DatabaseConnection) {
  const [expected, actual] = [await contents(source), await contents(restored)];
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  for (const table of Object.keys(expected)) {
    expect({ table, rows: actual[table] }).toEqual({ table, rows: expected[table] });
  }
  return expected;
}

/** A server on the restored database: the full account signs in again and sees its groups. */
async function expectServesPlayers(database: DatabaseConnection, dataDir: string) {
  const restoredServer = await startTestServer({ database, dataDir, ...NO_TIMERS });
  try {
    const signedIn = await login(restoredServer, alice.email, alice.password);
    expect(signedIn.status).toBe(200);
    const listed = await restoredServer.request('GET', '/api/groups', {
      token: signedIn.body.accessToken,
    });
    expect(listed.status).toBe(200);
    const names = (listed.body as Group[]).map((group) => group.name).sort();
    expect(names).toEqual([publicGroup.name, privateGroup.name].sort());
    // Ids continue after the restored ones: the sequences were set.
    const another = await createGroup(restoredServer, signedIn.body);
    expect(another.id).toBeGreaterThan(Math.max(publicGroup.id, privateGroup.id));
    // A device synced before the backup keeps its cursor, and still gets what changed since:
    // the restored database's transaction ids went on past the source's.
    const later = await createBet(restoredServer, signedIn.body, publicGroup, { title: 'Later' });
    const pulled = await restoredServer.request(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(aliceCursor)}`,
      { token: signedIn.body.accessToken },
    );
    expect(pulled.status).toBe(200);
    expect(pulled.body.reset).toBe(false);
    expect((pulled.body.bets as { id: number }[]).map((bet) => bet.id)).toEqual([later.id]);
  } finally {
    await restoredServer.close();
  }
}

let alice: SignedInUser;
let publicGroup: Group;
let privateGroup: Group;
let backupFile: string;
/** Alice's device's mirror cursor, synced just before the backup. */
let aliceCursor: string;
let header: BackupHeader;

beforeAll(async () => {
  // A small world played through the API: full accounts and guests, a public and a private
  // group, bets open, resolved and cancelled, wagers, the ledger they move, comments (one
  // deleted), inbox entries, a push subscription and a deleted account.
  alice = await createUser(server, { displayName: 'Alice' });
  const bob: AuthResponse = await createUser(server, { displayName: 'Bob' });
  const guest = await createPlayer(server, 'Guest');
  const leaver = await createPlayer(server, 'Leaver');
  publicGroup = await createGroup(server, alice, { privacy: 'public' });
  privateGroup = await createGroup(server, bob, { privacy: 'private' });
  for (const player of [bob, guest, leaver]) await joinGroup(server, player, publicGroup);
  await joinGroup(server, alice, privateGroup);

  const open = await createBet(server, alice, publicGroup, { title: 'Open: rain?' });
  await placeWager(server, bob, open, 'yes', 2);
  await placeWager(server, leaver, open, 'no', 1);
  const resolved = await createBet(server, bob, publicGroup, { title: 'Resolved: sun?' });
  await placeWager(server, guest, resolved, 'yes', 3);
  await placeWager(server, alice, resolved, 'no', 1);
  expect((await resolve(server, bob, resolved, 'yes')).status).toBe(200);
  const cancelled = await createBet(server, alice, publicGroup, { title: 'Cancelled: snow?' });
  await placeWager(server, bob, cancelled, 'no', 1);
  expect((await cancel(server, alice, cancelled)).status).toBe(200);
  const privateBet = await createBet(server, bob, privateGroup, { title: 'Private: fog?' });
  await placeWager(server, alice, privateBet, 'yes', 1);

  await addComment(server, alice, open, 'Surely not');
  const gone = await addComment(server, bob, open, 'Deleted soon');
  expect((await deleteComment(server, bob, gone)).status).toBe(200);
  await subscribeToPush(server, alice);
  expect((await deleteAccount(server, leaver)).status).toBe(200);
  expect((await inboxOf(server, guest)).notifications.length).toBeGreaterThan(0);

  for (let cursor = MIRROR_START_CURSOR; ;) {
    const page = await server.request(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(cursor)}`,
      { token: alice.accessToken },
    );
    cursor = page.body.cursor;
    if (!page.body.hasMore) {
      aliceCursor = cursor;
      break;
    }
  }

  backupFile = path.join(work, 'source.jsonl.gz');
  header = await writeBackup(server.database, backupFile);
});

describe('a backup', () => {
  it('is one gzip file of JSON lines: a header, then every row', () => {
    const lines = gunzipSync(readFileSync(backupFile)).toString('utf8').trim().split('\n');
    const first = JSON.parse(lines[0]!) as BackupHeader;
    expect(first.format).toBe('hunch-backup');
    expect(first.source).toBe(server.database.driver);
    const rows = first.tables.reduce((sum, table) => sum + table.rows, 0);
    expect(lines.length).toBe(1 + rows);
    const counted = Object.fromEntries(header.tables.map((table) => [table.name, table.rows]));
    for (const table of ['users', 'groups', 'memberships', 'bets', 'wagers', 'ledger']) {
      expect(counted[table], table).toBeGreaterThan(0);
    }
    for (const table of ['bet_comments', 'notifications', 'push_subscriptions']) {
      expect(counted[table], table).toBeGreaterThan(0);
    }
  });
});

// Each restore into PGlite starts a new data folder (initdb) and migrates it: seconds apiece on
// a loaded machine, several per test.
const RESTORE_TEST = { timeout: 180_000 };

let paths = 0;
/** A path in the work folder no earlier attempt used (`name-3`, `name-4.jsonl.gz`): a retried test starts from nothing. */
function fresh(name: string): string {
  const [base, ...extensions] = name.split('.');
  return path.join(work, [`${base}-${(paths += 1)}`, ...extensions].join('.'));
}
// The suite runs once per database the test server uses. What does not depend on which
// database made the backup (moving between databases, --force, bad files, the backup command
// on PGlite) runs in the PGlite run only.
const SOURCE_INDEPENDENT = process.env.HUNCH_TEST_DB !== 'postgres';

describe('npm run restore', RESTORE_TEST, () => {
  it('fills an empty PGlite data folder with every row of every table, and Hunch serves it', async () => {
    const dataDir = fresh('restored-pglite');
    const restored = await cli('restore', [backupFile], { DATA_DIR: dataDir });
    expect(restored.error).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/^Restored \d+ rows of \d+ tables into PGlite/m);

    const database = await connectDatabase({ databaseUrl: undefined, dataDir });
    try {
      const copied = await expectSameContents(server.database, database);
      expect(copied.users!.length).toBe(4);
      await expectServesPlayers(database, dataDir);
    } finally {
      await database.close();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'fills an empty PostgreSQL database with every row of every table, and Hunch serves it',
    async () => {
      const target = await emptyPostgresDatabase('hunch_backup');
      const dataDir = fresh('restored-postgres');
      try {
        const restored = await cli('restore', [backupFile], {
          DATA_DIR: dataDir,
          DATABASE_URL: target.url,
        });
        expect(restored.error).toBe('');
        expect(restored.code).toBe(0);
        expect(restored.out).toMatch(/into PostgreSQL/);
        const database = await connectDatabase({ databaseUrl: target.url, dataDir });
        try {
          await expectSameContents(server.database, database);
          await expectServesPlayers(database, dataDir);
        } finally {
          await database.close();
        }
      } finally {
        await target.drop();
      }
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL && SOURCE_INDEPENDENT)(
    'moves PGlite to PostgreSQL and back: each backup is the same rows',
    async () => {
      // From a PGlite data folder (npm run backup on it) to PostgreSQL, and back to PGlite.
      const pgliteDir = fresh('move-pglite');
      const fromPgliteFile = fresh('from-pglite.jsonl.gz');
      const fromPostgresFile = fresh('from-postgres.jsonl.gz');
      expect((await cli('restore', [backupFile], { DATA_DIR: pgliteDir })).code).toBe(0);
      const fromPglite = await cli('backup', [fromPgliteFile], {
        DATA_DIR: pgliteDir,
      });
      expect(fromPglite.error).toBe('');
      expect(fromPglite.out).toMatch(/from PGlite/);
      const target = await emptyPostgresDatabase('hunch_backup');
      try {
        const env = { DATA_DIR: fresh('move-postgres'), DATABASE_URL: target.url };
        const restored = await cli('restore', [fromPgliteFile], env);
        expect(restored.code).toBe(0);
        const back = await cli('backup', [fromPostgresFile], env);
        expect(back.out).toMatch(/from PostgreSQL/);
      } finally {
        await target.drop();
      }
      const rowsOf = (file: string) =>
        gunzipSync(readFileSync(file)).toString('utf8').split('\n').slice(1);
      expect(rowsOf(fromPostgresFile)).toEqual(rowsOf(fromPgliteFile));
      expect(rowsOf(fromPgliteFile)).toEqual(
        gunzipSync(readFileSync(backupFile)).toString('utf8').split('\n').slice(1),
      );
    },
  );

  it.runIf(SOURCE_INDEPENDENT)(
    'refuses a database that holds rows, and replaces them with --force',
    async () => {
      const dataDir = fresh('forced');
      expect((await cli('restore', [backupFile], { DATA_DIR: dataDir })).code).toBe(0);
      const refused = await cli('restore', [backupFile], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.error).toMatch(/^The database is not empty \(\d+ rows: users 4, /);
      expect(refused.error).toMatch(/--force/);

      // A cut file is refused before --force empties anything.
      const lines = gunzipSync(readFileSync(backupFile)).toString('utf8').trim().split('\n');
      const cut = path.join(work, 'cut-forced.jsonl.gz');
      writeFileSync(cut, gzipSync(lines.slice(0, -1).join('\n')));
      const fromCut = await cli('restore', [cut, '--force'], { DATA_DIR: dataDir });
      expect(fromCut.error).toMatch(/ends early/);

      const forced = await cli('restore', [backupFile, '--force'], { DATA_DIR: dataDir });
      expect(forced.error).toBe('');
      expect(forced.code).toBe(0);
      const database = await connectDatabase({ databaseUrl: undefined, dataDir });
      try {
        await expectSameContents(server.database, database);
      } finally {
        await database.close();
      }
    },
  );

  it.runIf(SOURCE_INDEPENDENT)(
    'says what is wrong with a file it cannot restore, and changes nothing',
    async () => {
      const dataDir = fresh('refusals');
      const restoreInto = (file: string) => cli('restore', [file], { DATA_DIR: dataDir });

      const missing = await restoreInto(path.join(work, 'nothing-here.jsonl.gz'));
      expect(missing.code).toBe(1);
      expect(missing.error).toMatch(/^No backup file at .*nothing-here\.jsonl\.gz/);

      const text = path.join(work, 'notes.txt');
      writeFileSync(text, 'shopping list\n');
      const other = await restoreInto(text);
      expect(other.error).toMatch(
        /notes\.txt is not a Hunch backup \(its first line is not JSON\)/,
      );

      const lines = gunzipSync(readFileSync(backupFile)).toString('utf8').trim().split('\n');
      const first = JSON.parse(lines[0]!) as BackupHeader;
      const newer = path.join(work, 'newer.jsonl.gz');
      const future = { createdAt: first.migrations.at(-1)!.createdAt + 1, hash: 'f'.repeat(64) };
      const withFuture = { ...first, migrations: [...first.migrations, future] };
      writeFileSync(newer, gzipSync([JSON.stringify(withFuture), ...lines.slice(1)].join('\n')));
      const fromNewer = await restoreInto(newer);
      expect(fromNewer.error).toMatch(/was made by a newer Hunch .* Upgrade this Hunch first/);

      const cut = path.join(work, 'cut.jsonl.gz');
      writeFileSync(cut, gzipSync(lines.slice(0, lines.length - 3).join('\n')));
      const fromCut = await restoreInto(cut);
      expect(fromCut.error).toMatch(/cut\.jsonl\.gz ends early: table \w+ has \d+ of its \d+ rows/);

      // Every refusal left the database as it was: empty, so a good file still restores.
      const good = await restoreInto(backupFile);
      expect(good.error).toBe('');
      expect(good.code).toBe(0);
    },
  );
});

describe.runIf(SOURCE_INDEPENDENT)('npm run backup', RESTORE_TEST, () => {
  // One restored PGlite data folder to back up (restoring takes PGlite's initdb: seconds).
  const dataDir = path.join(work, 'to-back-up');
  beforeAll(async () => {
    expect((await cli('restore', [backupFile], { DATA_DIR: dataDir })).code).toBe(0);
  });

  it('names its file by the time, in ./backups unless told', async () => {
    const folder = path.join(work, 'nightly');
    const made = await cli('backup', [folder], { DATA_DIR: dataDir });
    expect(made.code).toBe(0);
    expect(made.out).toMatch(
      /^Backed up \d+ rows of \d+ tables from PGlite in .* to .*nightly\/hunch-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl\.gz/,
    );
    expect(made.out).toMatch(/secrets\.json/);
  });

  it('cannot read PGlite while Hunch runs on it, and says to stop it first', async () => {
    const running = await connectDatabase({ databaseUrl: undefined, dataDir });
    try {
      const refused = await cli('backup', [path.join(work, 'never')], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.error).toMatch(/^Hunch is running on this data folder \(pid \d+\)/);
      expect(refused.error).toMatch(/Stop Hunch/);
    } finally {
      await running.close();
    }
  });

  it('refuses a database never migrated: nothing to back up, no file left', async () => {
    const file = path.join(work, 'empty.jsonl.gz');
    const refused = await cli('backup', [file], { DATA_DIR: path.join(work, 'never-migrated') });
    expect(refused.code).toBe(1);
    expect(refused.error).toMatch(/no Hunch tables yet/);
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
  });
});
