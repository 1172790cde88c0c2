/// <reference lib="webworker" />
import { Queue } from 'workbox-background-sync';
import { registerRoute } from 'workbox-routing';
import { SYNC_PUSH_PATH, TAB_ONLY_WRITE_HEADER } from '../src/domain/constants';

// The outbox's background-sync queue (docs/architecture.md §8). The page's Dexie outbox
// (src/client/data/outbox.ts) is the one source of truth and the primary sender: it has the
// token refresh. This queue only delivers while no page is open:
// - every push of the outbox (POST /api/sync/push) goes to the network; one that fails for lack
//   of network is kept here (the page's copy stays pending too);
// - on `sync` (or when the worker starts, where Background Sync is missing) an open page is
//   asked to send its outbox itself and this queue is emptied; with no page open the pushes are
//   replayed as they were (the same client and mutation ids: the server skips a write it has
//   applied), and each answer is posted to any page that opens meanwhile;
// - a 401 (the access token expired while offline) is not a lost write: the page's outbox
//   still holds it and sends it with a fresh token when the app next opens;
// - kept at most 12 hours, inside the 24 h the server keeps a refusal or a created id to answer
//   a replay with (an applied id is skipped whenever it comes); a `outbox-clear` message (any
//   end of a session, another user, the page numbering its waiting writes again) empties it;
// - a write of a session kept in its tab only (marked with TAB_ONLY_WRITE_HEADER) is never
//   kept: its words and its token must not outlive the tab in a shared browser. It goes to the
//   network as any request; the page's outbox alone keeps it.

declare const self: ServiceWorkerGlobalScope;

const OUTBOX_QUEUE = 'hunch-outbox';
const MAX_RETENTION_MINUTES = 12 * 60;

async function postToPages(message: Record<string, unknown>) {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of pages) page.postMessage(message);
  return pages.length;
}

async function emptyQueue(queue: Queue) {
  while (await queue.shiftRequest()) {
    // dropped: the page's outbox holds every write
  }
}

async function replay(queue: Queue) {
  // A page is open: it sends (with a fresh token) and reconciles; duplicates here would only race it.
  if ((await self.clients.matchAll({ type: 'window' })).length > 0) {
    await emptyQueue(queue);
    await postToPages({ type: 'outbox-flush' });
    return;
  }
  let entry;
  while ((entry = await queue.shiftRequest())) {
    let response: Response;
    try {
      response = await fetch(entry.request.clone());
    } catch (error) {
      await queue.unshiftRequest(entry);
      throw error; // still offline: the browser tries the sync again later
    }
    // 2xx, a refusal or a 401 alike: the page's outbox reconciles it (the pull reports the ids).
    await postToPages({ type: 'outbox-replayed', status: response.status });
  }
}

export function registerOutboxQueue(scope: ServiceWorkerGlobalScope = self): Queue {
  const queue = new Queue(OUTBOX_QUEUE, {
    maxRetentionTime: MAX_RETENTION_MINUTES,
    onSync: ({ queue: q }) => replay(q),
  });
  // Network only; a request that finds no network is kept (and the page still hears the failure).
  const network = async ({ request }: { request: Request }) => {
    const copy = request.clone();
    try {
      return await fetch(request);
    } catch (error) {
      await queue.pushRequest({ request: copy });
      throw error;
    }
  };
  const isOutboxPush = ({ url, request }: { url: URL; request: Request }) =>
    url.origin === scope.location.origin &&
    url.pathname === SYNC_PUSH_PATH &&
    !request.headers.has(TAB_ONLY_WRITE_HEADER);
  registerRoute(isOutboxPush, network, 'POST');

  scope.addEventListener('message', (event) => {
    const data = event.data as { type?: string } | null;
    if (data?.type === 'outbox-clear') event.waitUntil(emptyQueue(queue));
  });
  return queue;
}
