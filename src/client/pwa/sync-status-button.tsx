import { useLiveQuery } from 'dexie-react-hooks';
import { AlertTriangle, Clock } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { db } from '../data/db';
import { useSession } from '../data/use-session';
import { openModal } from '../shell/modal-store';
import { Spinner } from '../ui/spinner';
import banner from './offline-banner.module.css';
import styles from './sync-status-sheet.module.css';
import { HELD_TEXT, SYNC_TEXT } from './sync-text';

// The ways into the sync status sheet: the "Details" button of the offline strip and the
// "Last updated" line, and the "couldn't be sent" strip; and the way to the writes the last
// session left unsent. The sheets themselves load on the first tap, so the dashboard's first
// load does not carry them.

const SyncStatusSheet = lazy(() =>
  import('./sync-status-sheet').then((m) => ({ default: m.SyncStatusSheet })),
);
const HeldWritesSheet = lazy(() =>
  import('./held-writes-sheet').then((m) => ({ default: m.HeldWritesSheet })),
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

function openHeldWritesSheet() {
  openModal({
    title: HELD_TEXT.title,
    render: (close) => (
      <Suspense fallback={<Spinner label={HELD_TEXT.title} />}>
        <HeldWritesSheet onEmpty={close} />
      </Suspense>
    ),
  });
}

/**
 * On every screen while the signed-in player has writes their last session left unsent
 * (data/held-writes.ts). It never opens the sheet by itself over what the player is doing.
 */
export function HeldWritesStrip() {
  const { user } = useSession();
  const userId = user?.id;
  const count = useLiveQuery(
    () => (userId === undefined ? 0 : db.held.where('userId').equals(userId).count()),
    [userId],
  );
  if (!count) return null;
  return (
    <div className={banner.indicator}>
      <Clock size={16} aria-hidden="true" className={banner.icon} />
      <span className={banner.text}>
        {HELD_TEXT.waiting(count)}{' '}
        <button type="button" className={styles.open} onClick={openHeldWritesSheet}>
          {HELD_TEXT.review}
        </button>
      </span>
    </div>
  );
}
