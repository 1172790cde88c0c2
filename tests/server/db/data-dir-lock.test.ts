import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../../src/server/db/connect';
import { DataDirLockedError, lockDataDir } from '../../../src/server/db/data-dir-lock';
import { createMailer } from '../../../src/server/mail/mailer';

// One process per PGlite data folder (audit item 7): a second start on the same DATA_DIR
// fails at once, saying why; the folder and what Hunch writes there are the owner's only.

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hunch-lock-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('the PGlite data folder', () => {
  it('is held by one process: a second open fails at once with a clear message, and works again once the first closes', async () => {
    const dataDir = tempDir();
    const first = await connectDatabase({ databaseUrl: undefined, dataDir });
    try {
      await expect(connectDatabase({ databaseUrl: undefined, dataDir })).rejects.toThrow(
        DataDirLockedError,
      );
      await expect(connectDatabase({ databaseUrl: undefined, dataDir })).rejects.toThrow(
        /is in use by another Hunch process \(pid \d+\)/,
      );
      await first.ping();
    } finally {
      await first.close();
    }
    const second = await connectDatabase({ databaseUrl: undefined, dataDir });
    await second.ping();
    await second.close();
  }, 60_000);

  it('takes over a lock left by a process that is gone', () => {
    const dataDir = tempDir();
    // A pid no process has: far above any pid_max.
    writeFileSync(path.join(dataDir, 'hunch.lock'), '999999999\n');
    const lock = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    lock.release();
    // Our own pid in a lock we do not hold: a previous life of this container's pid 1.
    writeFileSync(path.join(dataDir, 'hunch.lock'), `${process.pid}\n`);
    lockDataDir(dataDir).release();
  });

  it('is owner-only (0700), and so are the lock and the database folder', async () => {
    const dataDir = tempDir();
    const connection = await connectDatabase({ databaseUrl: undefined, dataDir });
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path.join(dataDir, 'pglite'))).toBe(0o700);
      expect(modeOf(path.join(dataDir, 'hunch.lock'))).toBe(0o600);
    } finally {
      await connection.close();
    }
  }, 60_000);
});

describe('the mail outbox', () => {
  it('writes .eml files 0600 in a 0700 folder: they hold reset links', async () => {
    const dataDir = tempDir();
    const logger = { info: () => {}, error: () => {}, warn: () => {}, debug: () => {} } as never;
    const mailer = createMailer({ smtpUrl: undefined, dataDir, logger });
    mailer.send({ to: 'ada@example.com', subject: 'Reset', text: 'link', html: '<p>link</p>' });
    await mailer.close();
    const outbox = path.join(dataDir, 'outbox');
    const [file] = readdirSync(outbox);
    expect(modeOf(outbox)).toBe(0o700);
    expect(modeOf(path.join(outbox, file!))).toBe(0o600);
  });
});
