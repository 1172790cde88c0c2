/// <reference lib="webworker" />

// Spec 01 §4: "When a new app version is ready it is activated and the page reloads." A new
// worker waits (the default) so a page is never switched to new assets mid-visit without
// knowing; the page (src/client/pwa/register-service-worker.ts) posts SKIP_WAITING to it,
// then reloads once on controllerchange.

export const SKIP_WAITING = 'SKIP_WAITING';

export function listenForUpdateRequests(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('message', (event: ExtendableMessageEvent) => {
    const data: unknown = event.data;
    if (data && typeof data === 'object' && (data as { type?: unknown }).type === SKIP_WAITING) {
      void scope.skipWaiting();
    }
  });
}
