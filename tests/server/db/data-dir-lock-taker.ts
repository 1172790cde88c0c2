import { lockDataDir, type DataDirLock } from '../../../src/server/db/data-dir-lock';

// A separate process that tries to take a DATA_DIR lock when its parent says so
// (data-dir-lock.test.ts runs two of these against one stale lock). The lock is pid based, so
// the takers must be processes, not threads. Messages:
//   parent → { take: dataDir, at: epoch ms }  taker → { won: boolean, error?: string }
//   parent → { release: true }                taker → { released: true }

let held: DataDirLock | undefined;

process.on('message', (message: { take?: string; at?: number; release?: boolean }) => {
  if (message.take !== undefined) {
    // Both takers start at the same instant: spinning beats a timer's jitter.
    while (Date.now() < (message.at ?? 0));
    try {
      held = lockDataDir(message.take);
      process.send!({ won: true });
    } catch (error) {
      const isLocked = (error as Error).name === 'DataDirLockedError';
      process.send!({ won: false, ...(isLocked ? {} : { error: String(error) }) });
    }
  } else if (message.release) {
    held?.release();
    held = undefined;
    process.send!({ released: true });
  }
});
process.send!({ ready: true });
