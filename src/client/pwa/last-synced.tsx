import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { db } from '../data/db';
import { useLastSyncedAt } from '../data/use-last-synced';
import { formatLastUpdated } from './format-last-updated';

// "Last updated 5 minutes ago": the time the sync engine last wrote the server's answer
// (Dexie meta `lastSyncedAt`, a millisecond timestamp). Re-rendered every 30 s so the
// wording keeps up while the player stays offline.

const TICK_MS = 30_000;

/** "1 change waiting to be sent" / "N changes …": the outbox (issue 7), when it holds any. */
export function pendingChangesText(count: number): string | null {
  if (count <= 0) return null;
  return count === 1 ? '1 change waiting to be sent.' : `${count} changes waiting to be sent.`;
}

export function LastSynced() {
  const syncedAt = useLastSyncedAt();
  const pending = pendingChangesText(useLiveQuery(() => db.outbox.count(), []) ?? 0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const updated = typeof syncedAt === 'number' ? `${formatLastUpdated(syncedAt, Math.max(now, syncedAt))}.` : null;
  if (!updated && !pending) return null;
  return <span>{[updated, pending].filter(Boolean).join(' ')}</span>;
}
