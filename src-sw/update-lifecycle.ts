/// <reference lib="webworker" />

// A new worker waits (the default) so a page is never switched to new assets mid-visit: it
// takes over at the app's next start, or when the player chooses "Update now" and the page
// (src/client/pwa/register-service-worker.ts) posts SKIP_WAITING, then reloads once on
// controllerchange.

const SKIP_WAITING = 'SKIP_WAITING';

export function listenForUpdateRequests(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('message', (event: ExtendableMessageEvent) => {
    const data: unknown = event.data;
    if (data && typeof data === 'object' && (data as { type?: unknown }).type === SKIP_WAITING) {
      void scope.skipWaiting();
    }
  });
}
