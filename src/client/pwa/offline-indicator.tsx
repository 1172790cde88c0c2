import { lazy, Suspense } from 'react';
import { useSession } from '../data/use-session';
import { useIsOnline } from './use-online-status';

// With the network gone, the interface says so. The shell keeps this polite live
// region mounted (so the change is announced) and loads the banner itself only when the
// device goes offline: it is in the precache by then, and the landing page's first load
// stays small.

const OfflineBanner = lazy(() =>
  import('./offline-banner').then((m) => ({ default: m.OfflineBanner })),
);
// Online, a signed-in player hears of writes the server refused; Dexie stays lazy.
const RefusedWritesStrip = lazy(() =>
  import('./sync-status-button').then((m) => ({ default: m.RefusedWritesStrip })),
);
// Online or not, a signed-in player hears of writes their last session left unsent.
const HeldWritesStrip = lazy(() =>
  import('./sync-status-button').then((m) => ({ default: m.HeldWritesStrip })),
);

// Sticky here, not on the banner: a sticky box only sticks within its parent. Inline so the
// first load carries no CSS for it; an empty region takes no space.
const stickyUnder = (isBelowHeader: boolean) =>
  ({
    position: 'sticky',
    zIndex: 50,
    top: isBelowHeader ? 'calc(var(--header-height) + var(--safe-top))' : 0,
  }) as const;

export function OfflineIndicator({ isBelowHeader }: { isBelowHeader: boolean }) {
  const isOnline = useIsOnline();
  const { user } = useSession();
  return (
    <div role="status" style={stickyUnder(isBelowHeader)}>
      {!isOnline ? (
        <Suspense fallback={null}>
          <OfflineBanner />
        </Suspense>
      ) : (
        user && (
          <Suspense fallback={null}>
            <RefusedWritesStrip />
          </Suspense>
        )
      )}
      {user && (
        <Suspense fallback={null}>
          <HeldWritesStrip />
        </Suspense>
      )}
    </div>
  );
}
