import {
  closeSync,
  chmodSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

// One process per PGlite data folder: a second instance on the same DATA_DIR opened the same
// files, and its acknowledged writes were lost. The first to start holds DATA_DIR/hunch.lock
// (created exclusively, holding its pid); a second start fails at once with a message saying
// who holds it. A lock left by a process that died is taken over.

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another Hunch process (pid ${holderPid}). ` +
        'Stop it first, or give this instance its own DATA_DIR (or a DATABASE_URL to share PostgreSQL). ' +
        `If no Hunch runs there, delete ${path.join(dataDir, 'hunch.lock')}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** The lock files this process holds: our own pid in a lock we do not hold is a previous life's (a container restarted as pid 1). */
const heldHere = new Set<string>();

export interface DataDirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates DATA_DIR owner-only (0700) if needed and takes its lock; throws DataDirLockedError while another live process holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Everything inside (database files, secrets, the mail outbox) is then the owner's alone.
  chmodSync(dataDir, 0o700);
  const file = path.join(dataDir, 'hunch.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      heldHere.add(file);
      let isReleased = false;
      return {
        release() {
          if (isReleased) return;
          isReleased = true;
          heldHere.delete(file);
          if (holderOf(file) === process.pid) unlinkSync(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(file);
      const isOurs = holder === process.pid;
      if (holder !== undefined && (isOurs ? heldHere.has(file) : isAlive(holder)))
        throw new DataDirLockedError(dataDir, holder);
      // Left by a process that is gone (or half-written by one that died creating it): take it over.
      unlinkSync(file);
    }
  }
  throw new DataDirLockedError(dataDir, holderOf(file) ?? 0);
}
