import { useLiveQuery } from 'dexie-react-hooks';
import { db, LAST_SYNCED_KEY } from './db';

/**
 * When the sync engine last brought this device up to date (ms since the epoch): null when it
 * never has, undefined while Dexie is still being read. The offline strip and the sync status
 * sheet show it.
 */
export function useLastSyncedAt(): number | null | undefined {
  return useLiveQuery(async () => {
    const value = (await db.meta.get(LAST_SYNCED_KEY))?.value;
    return typeof value === 'number' ? value : null;
  }, []);
}
