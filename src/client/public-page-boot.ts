import { LANDING_PATH } from '../domain/public-pages';
import { isLocalDataLeftOver } from './data/local-data-owner';
import { createSessionStore } from './data/session-store';
import { registerServiceWorker, whenPageIsStable } from './pwa/register-service-worker';

// The one script of a pre-rendered public page (src/client/static-pages.tsx, built by
// scripts/vite-plugin-public-pages.ts), run in its head before the page is drawn. A visitor
// keeps the static page (at "/", under the address /landing) and gets the service worker once
// the page is stable, as the SPA registers it. Someone signed in sees what the SPA shows on
// this route (their own header): the SPA's entry loads and renders over the static copy, which
// stays hidden until React has replaced it, so the signed-out header never flashes. So does a
// browser still holding the local data of a session that ended unseen (a tab-only session whose
// tab closed): the SPA forgets it before it draws anything, as it does on every route.

/** The SPA's entry module (/assets/index-….js), put in by the build. */
declare const __HUNCH_APP_ENTRY__: string;

/** Long enough for the SPA to draw; should it fail, the static page shows rather than nothing. */
const REVEAL_AT_THE_LATEST_MS = 5000;

/** Someone is signed in, or a session that ended unseen left its local data behind. */
function needsTheApp(): boolean {
  try {
    const session = createSessionStore({
      storages: { persistent: localStorage, temporary: sessionStorage },
    });
    const user = session.restore();
    return user !== null || isLocalDataLeftOver(localStorage, null);
  } catch {
    // Storage refused (privacy settings): nobody can be signed in here, nothing was kept.
    return false;
  }
}

function startApp() {
  const root = document.documentElement;
  root.style.visibility = 'hidden';
  const reveal = () => {
    observer.disconnect();
    root.style.visibility = '';
  };
  // React empties #root before it draws the app into it; the observer runs once it has.
  const observer = new MutationObserver((records) => {
    if (records.some((record) => isRoot(record.target) && record.removedNodes.length > 0)) reveal();
  });
  observer.observe(root, { childList: true, subtree: true });
  setTimeout(reveal, REVEAL_AT_THE_LATEST_MS);
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = __HUNCH_APP_ENTRY__;
  document.head.append(script);
}

const isRoot = (node: Node) => node instanceof HTMLElement && node.id === 'root';

if (needsTheApp()) {
  startApp();
} else {
  // A visitor at "/" is on the landing page, as the SPA would have sent them there.
  if (window.location.pathname === '/')
    history.replaceState(null, '', LANDING_PATH + window.location.search + window.location.hash);
  if ('serviceWorker' in navigator) startServiceWorker();
}

function startServiceWorker() {
  void registerServiceWorker({
    container: navigator.serviceWorker,
    whenStable: () => whenPageIsStable(),
    reload: () => window.location.reload(),
  });
}
