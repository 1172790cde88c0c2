/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { routeAppShell } from './app-shell-routes';
import { registerOutboxQueue } from './outbox-queue';
import { listenForUpdateRequests } from './update-lifecycle';
import { handlePushNotifications } from './push-notifications';

// Hunch's service worker (docs/architecture.md §8). Built by
// scripts/vite-plugin-service-worker.ts into dist/client/sw.js after the client build, with
// the list of built files injected as self.__WB_MANIFEST. Each concern is one module; the
// order below is the order their routes and listeners must be registered in.

declare const self: ServiceWorkerGlobalScope;

// 1. The app shell and its assets, precached; navigations fall back to the cached shell.
routeAppShell(self.__WB_MANIFEST);

// 2. The outbox (docs/architecture.md §8): its pushes (POST /api/sync/push) that fail for lack
//    of network wait in a workbox-background-sync Queue, replayed on `sync` or at worker start.
registerOutboxQueue(self);

// 3. Push: show each message, open or focus its URL when clicked.
handlePushNotifications(self);

// 4. Updates: the page asks a waiting worker to take over (docs/accounts-and-shell.md §4), and a new worker
//    controls the open pages at once so the page's reload lands on the new version.
listenForUpdateRequests(self);
clientsClaim();
