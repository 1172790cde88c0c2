/// <reference lib="webworker" />
import type { RouteHandlerCallback } from 'workbox-core';
import {
  addRoute,
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precache,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { PUBLIC_PAGES_DIR, publicPageFile } from '../src/domain/public-pages';

// The app shell offline: every built file is precached with its revision, and any
// navigation (/dashboard, /group/3, /bets/12…) is answered with the cached index.html so the
// React router takes over and the views read Dexie. Server paths are never answered with the
// shell: the API, the auth calls and socket.io must reach the network (or fail) as they are.
// A public page the build drew to HTML (/ and /landing → /pages/landing.html, in the precache
// like every built file) is answered with that page, as the server answers it.

/** Paths the server owns; a navigation there is not an app screen. */
const SERVER_PATHS = [/^\/api(\/|$)/, /^\/auth(\/|$)/, /^\/socket\.io(\/|$)/, /^\/healthz$/];

export function routeAppShell(manifest: Array<PrecacheEntry | string>): void {
  precache(manifest);
  // Before the precache's own route, which would answer "/" with /index.html.
  const pages = new Map<string, RouteHandlerCallback>();
  for (const entry of manifest) {
    const url = typeof entry === 'string' ? entry : entry.url;
    if (url.startsWith(`/${PUBLIC_PAGES_DIR}/`)) pages.set(url, createHandlerBoundToURL(url));
  }
  const pageOf = (pathname: string) => pages.get(`/${publicPageFile(pathname) ?? ''}`);
  registerRoute(
    ({ request, url }) => request.mode === 'navigate' && pageOf(url.pathname) !== undefined,
    (options) => pageOf(options.url.pathname)!(options),
  );
  addRoute();
  // Caches of an older Workbox precache format are dropped once this worker activates.
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: SERVER_PATHS }),
  );
}
