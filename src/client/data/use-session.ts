import { createContext, useContext, useSyncExternalStore } from 'react';
import type { SessionSnapshot, SessionStore } from './session-store';

// Components read the session through this hook. The store comes from context so a test can
// render a screen with a store of its own; the app provides the singleton of session.ts.

export const SessionContext = createContext<SessionStore | null>(null);

function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error('useSession must be used inside <SessionContext value={store}>');
  return store;
}

export function useSession(): SessionSnapshot {
  const store = useSessionStore();
  // The same snapshot on the server: the public pages are drawn at build time, signed out.
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
