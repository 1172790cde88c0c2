import { useLiveQuery } from 'dexie-react-hooks';
import { db, LAST_SYNCED_KEY } from './db';

/**
 * When the sync engine last brought this device up to date (ms since the epoch): null when it
 * never has, undefined while Dexie is still being read. The offline indicator shows it; lists
 * that the member state does not cover reload when it moves (a reconnect: events sent while
 * the socket was down are lost).
 */
export function useLastSyncedAt(): number | null | undefined {
  return useLiveQuery(async () => {
    const value = (await db.meta.get(LAST_SYNCED_KEY))?.value;
    return typeof value === 'number' ? value : null;
  }, []);
}
