import { activeGroupStore, type ActiveGroupStore } from './active-group-store';
import { forgetAllDrafts } from './drafts';
import { db as appDb, sessionTables, type HeldWrite, type HunchDb, type OutboxEntry } from './db';
import { unmarkLocalDataOwner } from './local-data-owner';
import { forgetClientGroups } from './sync-client';
import type { SignOutReason } from './session-store';

// The end of a session on this device, whatever ended it: the player signing out, a refresh
// the server refused (signed out everywhere, a changed password, a socket refused for the
// same reason), the account deleted, or, found at the next start, tokens that went with
// the tab that held them. A browser may be shared: nothing the session brought may stay.
// - The mirror, the inbox, the caches, the outbox and the meta rows are emptied, the active
//   group and the drafts (drafts.ts) forgotten, the service worker's queue of writes emptied.
// - A write still waiting is held for its own player (HeldWrite): never sent by itself, shown
//   at their next sign-in here for a last decision, dropped if someone else signs in
//   (sync-engine.ts claimFor). A deleted account's writes go with it.

/** What ended the session: a sign-out reason, or its tokens found gone at start. */
export type SessionEndReason = SignOutReason | 'tokens-gone';

export interface SessionEnd {
  reason: SessionEndReason;
  /** Whose session it was, when known (a deletion drops that player's writes). */
  userId: number | null;
}

export interface SessionEndOptions {
  db: HunchDb;
  activeGroup: Pick<ActiveGroupStore, 'clear'>;
  /** Where the owner of the local data is written down (local-data-owner.ts). */
  storage: Storage | null;
  /** Tells the service worker to empty its queue of writes. */
  postToWorker: (message: { type: string }) => void;
}

const isWaiting = (entry: OutboxEntry) => entry.status === 'pending' || entry.status === 'sending';

/**
 * Forgets the session's local data. The Dexie transaction is opened at once, before this
 * returns: IndexedDB runs transactions in the order they are made, so anything that reads the
 * database after this call (a screen of the next sign-in) finds it empty. Resolves once done.
 */
export function endLocalSession(
  { db, activeGroup, storage, postToWorker }: SessionEndOptions,
  { reason, userId }: SessionEnd,
): Promise<void> {
  activeGroup.clear();
  forgetAllDrafts(storage);
  postToWorker({ type: 'outbox-clear' });
  const tables = sessionTables(db);
  const isDeleted = (owner: number) => reason === 'deleted' && owner === userId;
  const forgetting = db.transaction('rw', [...tables, db.held], async () => {
    // Held as they are: a waiting write already names the server's id of a row created
    // offline once that id is known (outbox.ts rewrites the queue when the answer comes).
    const waiting = (await db.outbox.toArray()).filter(
      (entry) => isWaiting(entry) && !isDeleted(entry.userId),
    );
    await db.held.bulkPut(
      waiting.map((entry): HeldWrite => ({
        id: entry.id,
        userId: entry.userId,
        mutator: entry.mutator,
        args: entry.args,
        createdAt: entry.createdAt,
        // Kept so that, if the write reached the server, sending it later applies nothing.
        ...(entry.mutationID === undefined
          ? {}
          : { clientID: entry.clientID, mutationID: entry.mutationID }),
      })),
    );
    if (reason === 'deleted' && userId !== null)
      await db.held.where('userId').equals(userId).delete();
    await Promise.all(tables.map((table) => table.clear()));
  });
  // Only once it is done: a start that finds the owner still written down tries again.
  return forgetting.then(async () => {
    const playersWithHeldWrites = (await db.held.orderBy('userId').uniqueKeys()) as number[];
    forgetClientGroups(storage, playersWithHeldWrites);
    unmarkLocalDataOwner(storage);
  });
}

/**
 * At start, before the first render, when local-data-owner.ts says the stored data belongs to
 * a session that ended unseen. The app's database, active group, storage and worker by default.
 */
export function forgetLeftoverLocalData(options: Partial<SessionEndOptions> = {}): Promise<void> {
  return endLocalSession(
    {
      db: options.db ?? appDb,
      activeGroup: options.activeGroup ?? activeGroupStore,
      storage: options.storage ?? (typeof localStorage === 'undefined' ? null : localStorage),
      postToWorker:
        options.postToWorker ??
        ((message) => globalThis.navigator?.serviceWorker?.controller?.postMessage(message)),
    },
    { reason: 'tokens-gone', userId: null },
  );
}
