import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { db } from '../data/db';
import { useLastSyncedAt } from '../data/use-last-synced';
import { formatLastUpdated } from './format-last-updated';
import { SyncStatusButton } from './sync-status-button';

// "Last updated 5 minutes ago": the time the sync engine last wrote a pull's last page
// (Dexie meta `lastSyncedAt`, a millisecond timestamp), the writes still waiting, and the
// button to the sync status sheet. Re-rendered every 30 s so the wording keeps up offline.

const TICK_MS = 30_000;

/** "1 change waiting to be sent" / "N changes …": the outbox, when it holds any. */
function pendingChangesText(count: number): string | null {
  if (count <= 0) return null;
  return count === 1 ? '1 change waiting to be sent.' : `${count} changes waiting to be sent.`;
}

export function LastSynced() {
  const syncedAt = useLastSyncedAt();
  // Answered writes are done; refused ones are counted too (the sheet says which).
  const pending = pendingChangesText(
    useLiveQuery(
      async () => (await db.outbox.toArray()).filter((entry) => entry.status !== 'answered').length,
      [],
    ) ?? 0,
  );
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const updated =
    typeof syncedAt === 'number'
      ? `${formatLastUpdated(syncedAt, Math.max(now, syncedAt))}.`
      : null;
  return (
    <span>
      {[updated, pending].filter(Boolean).join(' ')} <SyncStatusButton />
    </span>
  );
}
