import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useSession } from '../data/use-session';
import { OfflineIndicator } from '../pwa/offline-indicator';
import { Spinner } from '../ui/spinner';
import { AppHeader } from './app-header';
import { FooterNav } from './footer-nav';
import { modalStore } from './modal-store';
import { isAuthPath } from './nav-items';
import { showRealtimeAnnouncements } from './realtime-announcements';
import { ScreenBoundary } from './screen-boundary';
import { ScrollToTop } from './scroll-to-top';
import { ToastHost } from './toast-host';
import { toast } from './toast-store';
import styles from './app-shell.module.css';

// The application shell (docs/accounts-and-shell.md §2): fixed header (hidden on the auth pages), the main
// content (under the offline indicator), the phone footer navigation for signed-in players,
// the modal host and toasts.
export function AppShell() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const hasHeader = !isAuthPath(pathname);
  const hasFooter = Boolean(user) && hasHeader;

  // The local data (Dexie, the outbox, socket.io) is loaded once someone is signed in, never for
  // a visitor on the landing page; from then on it follows the session's events itself. What
  // its realtime events tell the signed-in player shows as toasts.
  const isSignedIn = Boolean(user);
  useEffect(() => {
    if (!isSignedIn) return;
    let isSignedOut = false;
    let stopAnnouncing = () => {};
    import('../data/local-data').then(
      ({ localData, startLocalData }) => {
        startLocalData(toast);
        if (!isSignedOut && localData.realtime)
          stopAnnouncing = showRealtimeAnnouncements(localData.realtime, toast);
      },
      (error: unknown) => console.warn('The local data failed to load', error),
    );
    return () => {
      isSignedOut = true;
      stopAnnouncing();
    };
  }, [isSignedIn]);
  return (
    <>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      {hasHeader && <AppHeader />}
      <main
        id="main"
        tabIndex={-1}
        className={styles.main}
        data-header={hasHeader}
        data-footer={hasFooter}
      >
        <OfflineIndicator isBelowHeader={hasHeader} />
        <ScreenBoundary resetKey={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ScreenBoundary>
      </main>
      {hasFooter && <FooterNav />}
      <ModalSlot />
      <ToastHost />
      <ScrollToTop />
    </>
  );
}

const ModalHost = lazy(() =>
  import('./modal-host').then((module) => ({ default: module.ModalHost })),
);

/**
 * The modal host's code loads with the first modal (most visits of the landing page open
 * none) and then stays mounted, so focus return and the closing animation work as before.
 */
function ModalSlot() {
  const entry = useSyncExternalStore(
    modalStore.subscribe,
    modalStore.getSnapshot,
    modalStore.getSnapshot,
  );
  const [isNeeded, setIsNeeded] = useState(false);
  if (entry && !isNeeded) setIsNeeded(true);
  return isNeeded ? (
    <Suspense fallback={null}>
      <ModalHost />
    </Suspense>
  ) : null;
}

/** While a screen's code loads: the space stays, so nothing jumps when it arrives. */
function PageLoading() {
  return (
    <div className={styles.loading}>
      <Spinner size="large" label="Loading" />
    </div>
  );
}
