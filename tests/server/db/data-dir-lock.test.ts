import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

interface TakerAnswer {
  won?: boolean;
  error?: string;
}

/** A child process that takes the lock when asked (data-dir-lock-taker.ts). */
function startTaker() {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'data-dir-lock-taker.ts'), {
    execArgv: ['--import', 'tsx'],
  });
  const answers: TakerAnswer[] = [];
  const waiting: Array<{ resolve(answer: TakerAnswer): void; reject(error: Error): void }> = [];
  child.on('message', (answer: TakerAnswer) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(answer);
    else answers.push(answer);
  });
  child.on('exit', (code) => {
    for (const waiter of waiting.splice(0)) waiter.reject(new Error(`the taker exited (${code})`));
  });
  const next = () =>
    new Promise<TakerAnswer>((resolve, reject) => {
      const answer = answers.shift();
      if (answer) resolve(answer);
      else waiting.push({ resolve, reject });
    });
  return {
    process: child,
    next,
    ask(message: object) {
      child.send(message);
      return next();
    },
  };
}

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
    // Two fresh data folders made and migrated: 121 s at load 15-22 on 2 cores. A hang guard.
  }, 180_000);

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

  it('is taken by exactly one of two processes starting together on a stale lock, round after round', async () => {
    const dataDir = tempDir();
    const lockFile = path.join(dataDir, 'hunch.lock');
    const takers = [startTaker(), startTaker()];
    try {
      await Promise.all(takers.map((taker) => taker.next()));
      for (let round = 0; round < 40; round++) {
        // Left by a process that is gone: a pid no process has, far above any pid_max.
        writeFileSync(lockFile, '999999999\n');
        const at = Date.now() + 30;
        const answers = await Promise.all(takers.map((taker) => taker.ask({ take: dataDir, at })));
        expect(answers.map((answer) => answer.error)).toEqual([undefined, undefined]);
        expect(
          answers.filter((answer) => answer.won),
          `round ${round}`,
        ).toHaveLength(1);
        await Promise.all(takers.map((taker) => taker.ask({ release: true })));
        expect(existsSync(lockFile)).toBe(false);
      }
      // Nothing of the takeovers is left behind.
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      for (const taker of takers) taker.process.kill();
    }
  }, 60_000);

  it('is not taken over while a takeover that died half-way left its guard: the start says what to delete', () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'hunch.lock'), '999999999\n');
    writeFileSync(path.join(dataDir, 'hunch.lock.takeover'), '999999998\n');
    expect(() => lockDataDir(dataDir)).toThrow(/delete .*hunch\.lock and .*hunch\.lock\.takeover/);
    rmSync(path.join(dataDir, 'hunch.lock.takeover'));
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
