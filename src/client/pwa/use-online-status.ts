import { useSyncExternalStore } from 'react';

// navigator.onLine with the online/offline events (the interface says when it is offline).
// A browser that says "online" may still reach nothing; the sync engine's failures cover that.

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useIsOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}
