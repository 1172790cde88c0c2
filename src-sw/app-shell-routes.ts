/// <reference lib="webworker" />
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

// The app shell offline: every built file is precached with its revision, and any
// navigation (/dashboard, /group/3, /bets/12…) is answered with the cached index.html so the
// React router takes over and the views read Dexie. Server paths are never answered with the
// shell: the API, the auth calls and socket.io must reach the network (or fail) as they are.

/** Paths the server owns; a navigation there is not an app screen. */
const SERVER_PATHS = [/^\/api(\/|$)/, /^\/auth(\/|$)/, /^\/socket\.io(\/|$)/, /^\/healthz$/];

export function routeAppShell(manifest: Array<PrecacheEntry | string>): void {
  precacheAndRoute(manifest);
  // Caches of an older Workbox precache format are dropped once this worker activates.
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: SERVER_PATHS }),
  );
}
