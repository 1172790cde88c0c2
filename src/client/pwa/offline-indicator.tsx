import { lazy, Suspense } from 'react';
import { useSession } from '../data/use-session';
import { OfflineBanner } from './offline-banner';
import { useIsOnline } from './use-online-status';

// With the network gone, the interface says so. The shell keeps this polite live
// region mounted (so the change is announced). The banner comes with the shell, not as a chunk
// of its own: the network can drop before the service worker holds every chunk (a first
// visit), and a banner fetched only once offline would fail to arrive. (The public pages are
// drawn at build time and load none of this.)
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
        <OfflineBanner />
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
