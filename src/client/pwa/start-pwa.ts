import { sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';
import { toast } from '../shell/toast-store';
import { captureInstallPrompt } from './install-prompt';

// What the installed app needs at start (docs/accounts-and-shell.md §4 "App lifecycle"): the service worker,
// registered once the page is stable (a production build only: the dev server has no
// /sw.js), and the push subscription following the session. Both are lazy chunks, so the
// landing page's first load does not carry them; push loads only once someone is signed in
// (a visitor never needs it), then follows the session itself.
/** Shown once a new version waits for the next start. */
const UPDATE_TEXT = {
  waiting: 'A new version of Hunch is ready. It opens the next time you start the app.',
  apply: 'Update now',
};

function announceUpdate(apply: () => void) {
  toast.info(UPDATE_TEXT.waiting, {
    duration: 0,
    action: { label: UPDATE_TEXT.apply, onClick: apply },
  });
}

/** Push's lazy chunk (a test counts the loads). */
const loadPushSession = () => import('../push/push-session');

export function startPwa(
  session: Pick<SessionStore, 'user' | 'events'> = sessionStore,
  loadPush: typeof loadPushSession = loadPushSession,
): void {
  // Chromium's install prompt fires once, early: kept for the profile's install card.
  if (typeof window !== 'undefined') captureInstallPrompt();
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    import('./register-service-worker').then(
      ({ registerServiceWorker, whenPageIsStable }) =>
        registerServiceWorker({
          container: navigator.serviceWorker,
          whenStable: () => whenPageIsStable(),
          reload: () => window.location.reload(),
          onUpdateWaiting: announceUpdate,
        }),
      (error: unknown) =>
        console.warn('The service worker registration could not be loaded', error),
    );
  }
  const startPush = () =>
    loadPush().then(
      ({ startPushSession }) => startPushSession(),
      (error: unknown) => console.warn('Push notifications could not be set up', error),
    );
  if (session.user) {
    void startPush();
    return;
  }
  const stopWaiting = [
    session.events.on('login', signedIn),
    session.events.on('register', signedIn),
    session.events.on('restored', signedIn),
  ];
  function signedIn() {
    stopWaiting.forEach((stop) => stop());
    void startPush();
  }
}
