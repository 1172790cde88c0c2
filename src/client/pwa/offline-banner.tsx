import { WifiOff } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useSession } from '../data/use-session';
import { QuietBoundary } from '../shell/screen-boundary';
import styles from './offline-banner.module.css';

// "You're offline." and, for a signed-in player, when the data on screen was last brought up
// to date. That part reads Dexie, so it is its own lazy chunk: a visitor who is not
// signed in never loads Dexie; if it cannot arrive (offline early in a first visit), the
// banner shows without it.

const LastSynced = lazy(() => import('./last-synced').then((m) => ({ default: m.LastSynced })));

const OFFLINE_TEXT = "You're offline.";

export function OfflineBanner() {
  const { user } = useSession();
  return (
    <div className={styles.indicator}>
      <WifiOff size={16} aria-hidden="true" className={styles.icon} />
      <span className={styles.text}>
        <strong>{OFFLINE_TEXT}</strong>
        {user && (
          <QuietBoundary>
            <Suspense fallback={null}>
              {' '}
              <LastSynced />
            </Suspense>
          </QuietBoundary>
        )}
      </span>
    </div>
  );
}
