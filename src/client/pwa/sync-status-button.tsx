import { useLiveQuery } from 'dexie-react-hooks';
import { AlertTriangle } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { db } from '../data/db';
import { useSession } from '../data/use-session';
import { openModal } from '../shell/modal-store';
import { Spinner } from '../ui/spinner';
import banner from './offline-banner.module.css';
import styles from './sync-status-sheet.module.css';
import { SYNC_TEXT } from './sync-text';

// The ways into the sync status sheet: the "Details" button of the offline strip and the
// "Last updated" line, and the "couldn't be sent" strip. The sheet itself loads on the first
// tap, so the dashboard's first load does not carry it.

const SyncStatusSheet = lazy(() =>
  import('./sync-status-sheet').then((m) => ({ default: m.SyncStatusSheet })),
);

function openSyncStatusSheet() {
  openModal({
    title: SYNC_TEXT.title,
    render: () => (
      <Suspense fallback={<Spinner label={SYNC_TEXT.title} />}>
        <SyncStatusSheet />
      </Suspense>
    ),
  });
}

/** The strip's button that opens the sheet. */
export function SyncStatusButton({ children = SYNC_TEXT.open }: { children?: string }) {
  return (
    <button type="button" className={styles.open} onClick={openSyncStatusSheet}>
      {children}
    </button>
  );
}

/** Online: a strip only while the server has refused a write nobody was waiting on. */
export function RefusedWritesStrip() {
  const { user } = useSession();
  const userId = user?.id;
  const count = useLiveQuery(
    async () =>
      userId === undefined
        ? 0
        : (await db.outbox.where('userId').equals(userId).toArray()).filter(
            (entry) => entry.status === 'failed',
          ).length,
    [userId],
  );
  if (!count) return null;
  return (
    <div className={banner.indicator}>
      <AlertTriangle size={16} aria-hidden="true" className={banner.icon} />
      <span className={banner.text}>
        {SYNC_TEXT.refused(count)} <SyncStatusButton>{SYNC_TEXT.review}</SyncStatusButton>
      </span>
    </div>
  );
}
