import { STORAGE_KEYS } from '../../domain/constants';

// Whose local data this browser keeps, written down in localStorage next to the session, so
// the app can tell at start, before it loads Dexie, that the data belongs to a session that
// ended unseen: a session kept in its tab only ("Remember me" off) whose tab closed, taking its
// tokens along. No Dexie here: main.tsx reads it on the landing page's path.

/** Written when the local data starts for a player, before anything of theirs is stored. */
export function markLocalDataOwner(storage: Storage | null, userId: number): void {
  storage?.setItem(STORAGE_KEYS.localDataOwner, String(userId));
}

/** Removed once their session's data has been forgotten. */
export function unmarkLocalDataOwner(storage: Storage | null): void {
  storage?.removeItem(STORAGE_KEYS.localDataOwner);
}

/**
 * True when the device keeps local data that is not the signed-in player's (`null`: nobody
 * signed in): it must be forgotten before anything renders. A device from before the owner was
 * written down gives itself away by its stored active group.
 */
export function isLocalDataLeftOver(
  storage: Storage | null,
  signedInUserId: number | null,
): boolean {
  if (!storage) return false;
  const owner = storage.getItem(STORAGE_KEYS.localDataOwner);
  if (owner !== null) return owner !== String(signedInUserId);
  return signedInUserId === null && storage.getItem(STORAGE_KEYS.activeGroup) !== null;
}
