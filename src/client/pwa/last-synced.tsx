import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { db } from '../data/db';
import { formatLastUpdated } from './format-last-updated';

// "Last updated 5 minutes ago": the time the sync engine last wrote the server's answer
// (Dexie meta `lastSyncedAt`, a millisecond timestamp). Re-rendered every 30 s so the
// wording keeps up while the player stays offline.

export const LAST_SYNCED_KEY = 'lastSyncedAt';
const TICK_MS = 30_000;

export function LastSynced() {
  const syncedAt = useLiveQuery(async () => (await db.meta.get(LAST_SYNCED_KEY))?.value, []);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  if (typeof syncedAt !== 'number') return null;
  return <span>{formatLastUpdated(syncedAt, Math.max(now, syncedAt))}.</span>;
}
