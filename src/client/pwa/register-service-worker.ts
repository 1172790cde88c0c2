import { TIMING } from '../../domain/constants';

// docs/accounts-and-shell.md §4 "App lifecycle": the service worker (src-sw, built to /sw.js) is registered once
// the app is stable (the page has loaded and the browser is idle) or after 30000 ms at the
// latest; an update check runs every 3,600,000 ms. A new version that finished installing
// waits: it takes over when the app next starts, so nothing reloads under the player's hands
// (the spec activates it at once; that departure is on purpose). The player is told, and may apply it now (SKIP_WAITING, see src-sw/update-lifecycle.ts), which reloads
// the page once.

export const SERVICE_WORKER_URL = '/sw.js';
/** The message src-sw/update-lifecycle.ts listens for. */
export const SKIP_WAITING_MESSAGE = { type: 'SKIP_WAITING' } as const;

export interface RegisterServiceWorkerOptions {
  container: ServiceWorkerContainer;
  /** Resolves when the app is stable; raced against the 30 s limit. */
  whenStable: () => Promise<void>;
  reload: () => void;
  /** A new version is waiting; `apply` activates it now (the page then reloads). */
  onUpdateWaiting?: (apply: () => void) => void;
  waitLimitMs?: number;
  updateEveryMs?: number;
}

/** Resolves once the page has loaded and the browser then has a moment to spare. */
export function whenPageIsStable(win: Window = window): Promise<void> {
  // Safari has no requestIdleCallback: the next task is the closest it offers.
  const idle = (resolve: () => void) =>
    typeof win.requestIdleCallback === 'function'
      ? win.requestIdleCallback(() => resolve(), { timeout: 5000 })
      : win.setTimeout(resolve, 1);
  return new Promise((resolve) => {
    if (win.document.readyState === 'complete') idle(resolve);
    else win.addEventListener('load', () => idle(resolve), { once: true });
  });
}

/**
 * Registers the worker and keeps it current. Returns the registration, or null when the
 * browser refused it (logged; the app works online without it).
 */
export async function registerServiceWorker({
  container,
  whenStable,
  reload,
  onUpdateWaiting = () => undefined,
  waitLimitMs = TIMING.serviceWorkerWaitMs,
  updateEveryMs = TIMING.updateCheckMs,
}: RegisterServiceWorkerOptions): Promise<ServiceWorkerRegistration | null> {
  let limit: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    whenStable(),
    new Promise<void>((resolve) => (limit = setTimeout(resolve, waitLimitMs))),
  ]);
  clearTimeout(limit);

  // The first install takes control (clients.claim) without a reload: nothing old is on
  // screen. Only a worker replacing another one reloads the page, and only once.
  let isControlled = Boolean(container.controller);
  let isReloading = false;
  container.addEventListener('controllerchange', () => {
    if (!isControlled) {
      isControlled = true;
      return;
    }
    if (isReloading) return;
    isReloading = true;
    reload();
  });

  let registration: ServiceWorkerRegistration;
  try {
    registration = await container.register(SERVICE_WORKER_URL, { scope: '/' });
  } catch (error) {
    console.warn('The service worker could not be registered', error);
    return null;
  }

  const announce = (worker: ServiceWorker | null) => {
    // With no controller this is the first install, which takes control by itself.
    if (worker && container.controller)
      onUpdateWaiting(() => worker.postMessage(SKIP_WAITING_MESSAGE));
  };
  // A version that finished installing while this page was closed is waiting already.
  announce(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') announce(installing);
    });
  });

  setInterval(() => {
    registration.update().catch((error: unknown) => console.warn('The update check failed', error));
  }, updateEveryMs);
  return registration;
}
