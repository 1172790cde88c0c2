import { SYNC_PROTOCOL_VERSION } from '../../domain/sync-protocol';
import { SKIP_WAITING_MESSAGE } from './register-service-worker';

// The server no longer speaks this build's sync protocol (data/update-needed.ts): nothing would
// sync until the app updates, so it updates now rather than at its next start. A new worker
// waiting already takes over at once; otherwise the update check fetches it, and start-pwa.ts
// applies it as soon as it has installed (register-service-worker.ts reloads the page once on
// controllerchange). The outbox lives in Dexie, which the update leaves as it is: the new
// version sends every write still waiting, each once (its client and mutation id).

const RELOADED_KEY = 'hunch-protocol-reload';

export interface FetchNewVersionOptions {
  registration: Promise<ServiceWorkerRegistration | null>;
  reload: () => void;
  /** sessionStorage: where a reload without a worker is remembered, so it happens once. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/** Brings the new version: through the service worker, or else by loading the page again. */
export async function fetchNewVersion({
  registration,
  reload,
  storage,
}: FetchNewVersionOptions): Promise<void> {
  const current = await registration;
  if (!current) {
    // No worker (a development build, a browser without one): the server sends the new
    // version with the page. Once per version, so a server that refuses even that never loops.
    if (storage?.getItem(RELOADED_KEY) === String(SYNC_PROTOCOL_VERSION)) return;
    storage?.setItem(RELOADED_KEY, String(SYNC_PROTOCOL_VERSION));
    reload();
    return;
  }
  if (current.waiting) {
    current.waiting.postMessage(SKIP_WAITING_MESSAGE);
    return;
  }
  await current.update();
}
