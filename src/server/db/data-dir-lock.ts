import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

// One process per PGlite data folder: a second instance on the same DATA_DIR opened the same
// files, and its acknowledged writes were lost. The first to start holds DATA_DIR/hunch.lock
// (holding its pid); a second start fails at once with a message saying who holds it. A lock
// left by a process that died is taken over.
//
// Every step that decides who holds the lock is one atomic file-system operation, so two
// processes starting together never both get it (reading a stale lock, deleting it and creating
// a new one let both through):
// - the lock appears whole or not at all: our pid is written to a file of our own first, then
//   hard-linked as hunch.lock, which fails when the name exists (no half-written lock to misread);
// - a stale lock is replaced only by the one process that created hunch.lock.takeover (the same
//   exclusive link), which reads the lock again before renaming its own file over it, and
//   deletes the guard right after. A guard whose taker is gone means a start died in the middle
//   of a takeover (between two file operations): nobody can tell then whether the lock it left
//   is being replaced, so the start fails and says which files to delete.

const LOCK_FILE = 'hunch.lock';
const TAKEOVER_FILE = 'hunch.lock.takeover';
/** How long a start waits for another process's takeover (microseconds of work) to finish. */
const TAKEOVER_WAIT_MS = 2_000;
const TAKEOVER_POLL_MS = 5;

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
    /** What to delete by hand when no Hunch runs there. */
    files: string[] = [LOCK_FILE],
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another Hunch process (pid ${holderPid}). ` +
        'Stop it first, or give this instance its own DATA_DIR (or a DATABASE_URL to share PostgreSQL). ' +
        `If no Hunch runs there, delete ${files.map((file) => path.join(dataDir, file)).join(' and ')}.`,
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

/** The pid in a lock file: null when there is no file, 0 when it names no pid. */
function holderOf(file: string): number | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : 0;
}

/** Whether the pid of `file` is a live holder (our own pid only if this process holds `file`). */
function isLive(pid: number, file: string): boolean {
  if (pid <= 0) return false;
  return pid === process.pid ? heldHere.has(file) : isAlive(pid);
}

/** Hard-links `from` as `to`; false when `to` exists. Atomic: of processes racing for one name, one wins. */
function linkIfAbsent(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Sleeps the thread: taking the lock is synchronous, and another start's takeover is a matter of microseconds. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Writes our pid to a file only this call uses, next to the lock (a link never crosses folders). */
function writeOwnFile(dataDir: string): string {
  const file = path.join(dataDir, `${LOCK_FILE}.${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return file;
}

function held(file: string): DataDirLock {
  heldHere.add(file);
  let isReleased = false;
  return {
    release() {
      if (isReleased) return;
      isReleased = true;
      heldHere.delete(file);
      // A live holder's lock is never taken over, so it is still ours to delete.
      if (holderOf(file) === process.pid) unlinkSync(file);
    },
  };
}

/** Creates DATA_DIR owner-only (0700) if needed and takes its lock; throws DataDirLockedError while another live process holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Everything inside (database files, secrets, the mail outbox) is then the owner's alone.
  chmodSync(dataDir, 0o700);
  const file = path.join(dataDir, LOCK_FILE);
  const guard = path.join(dataDir, TAKEOVER_FILE);
  const own = writeOwnFile(dataDir);
  try {
    const deadline = Date.now() + TAKEOVER_WAIT_MS;
    for (;;) {
      if (linkIfAbsent(own, file)) return held(file);
      const holder = holderOf(file);
      if (holder !== null && isLive(holder, file)) throw new DataDirLockedError(dataDir, holder);
      // Gone, or left by a process that is gone: whoever creates the guard takes it over.
      if (linkIfAbsent(own, guard)) {
        try {
          // The lock may have changed hands since it was read; nobody else replaces it now.
          const current = holderOf(file);
          if (current === null) {
            if (linkIfAbsent(own, file)) return held(file);
            continue;
          }
          if (isLive(current, file)) throw new DataDirLockedError(dataDir, current);
          renameSync(own, file);
          return held(file);
        } finally {
          unlinkSync(guard);
        }
      }
      const taker = holderOf(guard);
      if (taker === null) continue;
      // Our own pid here is a previous life's: this process takes over synchronously.
      if (taker === process.pid || !isAlive(taker))
        throw new DataDirLockedError(dataDir, taker, [LOCK_FILE, TAKEOVER_FILE]);
      if (Date.now() > deadline) throw new DataDirLockedError(dataDir, taker);
      pause(TAKEOVER_POLL_MS);
    }
  } finally {
    // Renamed into place, or a second name of the lock: this name goes either way.
    rmSync(own, { force: true });
  }
}
