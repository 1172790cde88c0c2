import { sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';
import { onUpdateNeeded } from '../data/update-needed';
import { toast } from '../shell/toast-store';
import { captureInstallPrompt } from './install-prompt';

// What the installed app needs at start (docs/accounts-and-shell.md §4 "App lifecycle"): the service worker,
// registered once the page is stable (a production build only: the dev server has no
// /sw.js), and the push subscription following the session. Both are lazy chunks, so the
// landing page's first load does not carry them; push loads only once someone is signed in
// (a visitor never needs it), then follows the session itself.
// The server may stop speaking this build's sync protocol (data/update-needed.ts): the app
// then updates at once, saying so, and keeps every write for the new version to send.
/** Shown once a new version waits for the next start, or while the app must update. */
export const UPDATE_TEXT = {
  waiting: 'A new version of Hunch is ready. It opens the next time you start the app.',
  apply: 'Update now',
  updating: 'Updating Hunch… Your unsent changes are kept.',
};

/** The server no longer speaks this build's protocol: a new version is applied as it arrives. */
let isUpdateNeeded = false;
let isFetching = false;
let updatingToast: number | null = null;

function announceUpdate(apply: () => void) {
  if (isUpdateNeeded) {
    apply();
    return;
  }
  toast.info(UPDATE_TEXT.waiting, {
    duration: 0,
    action: { label: UPDATE_TEXT.apply, onClick: apply },
  });
}

function updateNow(registration: Promise<ServiceWorkerRegistration | null>) {
  isUpdateNeeded = true;
  updatingToast ??= toast.info(UPDATE_TEXT.updating, { duration: 0, dismissible: false });
  if (isFetching) return;
  isFetching = true;
  import('./protocol-update')
    .then(({ fetchNewVersion }) =>
      fetchNewVersion({
        registration,
        reload: () => window.location.reload(),
        storage: typeof sessionStorage === 'undefined' ? null : sessionStorage,
      }),
    )
    .catch((error: unknown) => console.warn('The new version could not be fetched', error))
    .finally(() => {
      isFetching = false;
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
  let registration: Promise<ServiceWorkerRegistration | null> = Promise.resolve(null);
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    registration = import('./register-service-worker').then(
      ({ registerServiceWorker, whenPageIsStable }) =>
        registerServiceWorker({
          container: navigator.serviceWorker,
          whenStable: () => whenPageIsStable(),
          reload: () => window.location.reload(),
          onUpdateWaiting: announceUpdate,
        }),
      (error: unknown) => {
        console.warn('The service worker registration could not be loaded', error);
        return null;
      },
    );
  }
  if (typeof window !== 'undefined') onUpdateNeeded(() => updateNow(registration));
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
