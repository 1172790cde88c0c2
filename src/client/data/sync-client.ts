import { SYNC_CLIENT_KEY, type HunchDb, type OutboxEntry } from './db';

// Who writes, for the push (docs/architecture.md §8; Replicache's client group and client):
// - the client group is the player's on this browser: kept in localStorage under their id, it
//   outlives an end of a session that held some of their writes (session-end.ts empties
//   Dexie's `meta`, not this), so those writes are asked about under the same group later;
//   a session that ends holding nothing forgets it (forgetClientGroups);
// - the client is this local data's writer, kept in `meta` with the last number it gave: a
//   clear of the local data forgets it and the next write mints a new one, which numbers
//   from 1 again (always safe: the server keeps each client's last number apart).

const CLIENT_GROUP_KEY_PREFIX = 'hunch_sync_client_group_';

/** `meta[SYNC_CLIENT_KEY]`: the current client and the last mutation id it numbered. */
export interface SyncClient {
  clientID: string;
  lastMutationID: number;
}

export type ClientGroupOf = (userId: number) => string;

/** Each player's client group on this browser (in memory only without storage). */
export function createClientGroups(
  storage: Storage | null,
  newId: () => string = () => crypto.randomUUID(),
): ClientGroupOf {
  const known = new Map<number, string>();
  return (userId) => {
    const key = `${CLIENT_GROUP_KEY_PREFIX}${userId}`;
    const id = storage?.getItem(key) ?? known.get(userId) ?? newId();
    // Written again if the end of a session forgot it (forgetClientGroups) while this page
    // still knew it: a later held write of this session must find it after a reload.
    if (storage && storage.getItem(key) !== id) storage.setItem(key, id);
    known.set(userId, id);
    return id;
  };
}

/**
 * At the end of a session: forgets the client group of every player who has no write held on
 * this browser. Only a held write needs its group later (its player's next sign-in asks the
 * server whether it arrived); without one, nothing of the session may stay in a shared browser.
 */
export function forgetClientGroups(storage: Storage | null, playersWithHeldWrites: number[]) {
  if (!storage) return;
  const keep = new Set(
    playersWithHeldWrites.map((userId) => `${CLIENT_GROUP_KEY_PREFIX}${userId}`),
  );
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
  const stale = keys.filter(
    (key): key is string =>
      key !== null && key.startsWith(CLIENT_GROUP_KEY_PREFIX) && !keep.has(key),
  );
  for (const key of stale) storage.removeItem(key);
}

const isWaiting = (entry: OutboxEntry) => entry.status === 'pending' || entry.status === 'sending';

/**
 * Numbers the player's waiting writes that have no number yet (a new one, a retried one, a held
 * one sent back, one from before the push), oldest first, under the current client (minted if
 * none). Runs inside the caller's transaction, which holds `meta` and `outbox`.
 */
export async function numberWaitingWrites(
  db: HunchDb,
  userId: number,
  clientGroupID: string,
  newId: () => string = () => crypto.randomUUID(),
): Promise<void> {
  const unnumbered = (await db.outbox.where('userId').equals(userId).sortBy('createdAt')).filter(
    (entry) => isWaiting(entry) && entry.mutationID === undefined,
  );
  if (unnumbered.length === 0) return;
  const stored = (await db.meta.get(SYNC_CLIENT_KEY))?.value as SyncClient | undefined;
  const client: SyncClient = stored ?? { clientID: newId(), lastMutationID: 0 };
  for (const entry of unnumbered) {
    client.lastMutationID += 1;
    await db.outbox.update(entry.id, {
      clientGroupID,
      clientID: client.clientID,
      mutationID: client.lastMutationID,
    });
  }
  await db.meta.put({ key: SYNC_CLIENT_KEY, value: client });
}

/**
 * The server expects `next` from `clientID` (a write between was discarded before it went):
 * its waiting writes above `next` are numbered again from there, in their order. Runs inside
 * the caller's transaction, which holds `meta` and `outbox`. None of them was applied: the
 * server has nothing above `next - 1` from that client.
 */
export async function renumberFrom(
  db: HunchDb,
  userId: number,
  clientID: string,
  next: number,
): Promise<void> {
  const later = (await db.outbox.where('userId').equals(userId).toArray())
    .filter((entry) => isWaiting(entry) && entry.clientID === clientID)
    .filter((entry) => (entry.mutationID ?? 0) >= next)
    .sort((a, b) => a.mutationID! - b.mutationID!);
  let id = next - 1;
  for (const entry of later) {
    id += 1;
    await db.outbox.update(entry.id, { mutationID: id });
  }
  const stored = (await db.meta.get(SYNC_CLIENT_KEY))?.value as SyncClient | undefined;
  if (stored?.clientID === clientID)
    await db.meta.put({ key: SYNC_CLIENT_KEY, value: { clientID, lastMutationID: id } });
}
