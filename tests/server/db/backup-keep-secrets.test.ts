import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackupCli } from '../../../src/server/db/backup-cli';
import { connectDatabase } from '../../../src/server/db/connect';

// Backups are complete (issue 42, point 17): DATA_DIR/secrets.json travels in the backup and
// a restore puts it back; `npm run backup -- <folder> --keep 7` for a nightly timer keeps the
// 7 newest backups, deletes older ones of its own naming, and touches nothing else.

const root = mkdtempSync(path.join(os.tmpdir(), 'hunch-backup-rotation-'));
const dataDir = path.join(root, 'data');
const folder = path.join(root, 'backups');
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(async () => {
  const database = await connectDatabase({ databaseUrl: undefined, dataDir });
  await database.migrate();
  await database.close();
}, 120_000);

async function backup(args: string[], command: 'backup' | 'restore' = 'backup', dir = dataDir) {
  const out: string[] = [];
  const error: string[] = [];
  const code = await runBackupCli(
    command,
    args,
    { DATA_DIR: dir },
    {
      out: (line) => out.push(line),
      error: (line) => error.push(line),
    },
  );
  return { code, out: out.join('\n'), error: error.join('\n') };
}

describe('npm run backup --keep', () => {
  it('keeps the newest backups, deletes the older ones of its naming only', async () => {
    const old = Array.from(
      { length: 9 },
      (_, day) => `hunch-backup-2020-01-0${day + 1}T04-30-00Z.jsonl.gz`,
    );
    const foreign = [
      'notes.txt',
      'hunch-backup-before-upgrade.jsonl.gz',
      'hunch-backup-2020-01-01T04-30-00Z.jsonl',
    ];
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    for (const name of [...old, ...foreign]) writeFileSync(path.join(folder, name), 'x');

    const result = await backup([folder, '--keep', '7']);
    expect(result.code).toBe(0);
    const left = readdirSync(folder).sort();
    const made = left.filter(
      (name) =>
        /^hunch-backup-\d{4}-.*Z\.jsonl\.gz$/.test(name) && !name.startsWith('hunch-backup-2020'),
    );
    expect(made).toHaveLength(1);
    // The one made now and the six newest of the old ones; the foreign files all stay.
    expect(left).toEqual([...foreign, ...old.slice(3), ...made].sort());
    expect(result.out).toContain(`Kept the 7 newest backups in ${folder}; deleted 3 (`);
  }, 120_000);

  it('refuses a --keep that is not a whole number of at least 1, writing nothing', async () => {
    for (const args of [['--keep', '0'], ['--keep'], ['--keep', 'seven']]) {
      const result = await backup([path.join(root, 'refused'), ...args]);
      expect(result.code).toBe(2);
      expect(result.error).toContain('--keep');
    }
    expect(readdirSync(root)).not.toContain('refused');
  });
});

describe('a backup and its restore', () => {
  it('carry DATA_DIR/secrets.json: restored (0600) into a data folder that has none', async () => {
    const secrets = {
      jwtSecret: 'j'.repeat(64),
      vapidKeys: { publicKey: 'BPub', privateKey: 'priv' },
    };
    writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify(secrets), { mode: 0o600 });
    const file = path.join(root, 'with-secrets.jsonl.gz');
    const made = await backup([file]);
    expect(made.out).toContain('It holds DATA_DIR/secrets.json too');

    const elsewhere = path.join(root, 'restored');
    const restored = await backup([file], 'restore', elsewhere);
    expect(restored.code).toBe(0);
    const written = path.join(elsewhere, 'secrets.json');
    expect(restored.out).toContain(`Wrote the backup's secrets to ${written}.`);
    expect(JSON.parse(readFileSync(written, 'utf8'))).toEqual(secrets);
    expect(statSync(written).mode & 0o777).toBe(0o600);
  }, 120_000);
});
