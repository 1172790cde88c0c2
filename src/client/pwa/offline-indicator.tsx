import { WifiOff } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useSession } from '../data/use-session';
import { useIsOnline } from './use-online-status';
import styles from './offline-indicator.module.css';

// Issue 7: with the network gone, the interface says so and says when the data on screen was
// last brought up to date. The "last updated" part reads Dexie, so it is a lazy chunk loaded
// only for a signed-in player who is offline: the landing page never pulls Dexie in.

const LastSynced = lazy(() => import('./last-synced').then((m) => ({ default: m.LastSynced })));

export const OFFLINE_TEXT = "You're offline.";

export function OfflineIndicator({ isBelowHeader }: { isBelowHeader: boolean }) {
  const isOnline = useIsOnline();
  const { user } = useSession();
  if (isOnline) return null;
  return (
    <div className={styles.indicator} role="status" data-below-header={isBelowHeader}>
      <WifiOff size={16} aria-hidden="true" className={styles.icon} />
      <span className={styles.text}>
        <strong>{OFFLINE_TEXT}</strong>
        {user && (
          <Suspense fallback={null}>
            {' '}
            <LastSynced />
          </Suspense>
        )}
      </span>
    </div>
  );
}
