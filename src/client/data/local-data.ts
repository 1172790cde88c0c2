import { BET_MUTATORS } from './bet-mutators';
import { COMMENT_MUTATORS } from './comment-mutators';
import { FAIR_RESOLUTION_MUTATORS } from './fair-resolution-mutators';
import { NOTIFICATION_MUTATORS } from './notification-mutators';
import { GROUP_MUTATORS } from './group-mutators';
import { activeGroupStore, type ActiveGroupStore } from './active-group-store';
import { isNetworkError, type ApiClient } from './api-client';
import { db as defaultDb, type HunchDb } from './db';
import { createHeldWrites } from './held-writes';
import { markLocalDataOwner } from './local-data-owner';
import { ROUND_MUTATORS } from './round-mutators';
import { SEASON_MUTATORS } from './season-mutators';
import { createRebaser, type AnyMutator, type MutatorRegistry } from './mutators';
import { connectNotices, notices, type Notices } from './notices';
import { createOutbox, type WriteResult } from './outbox';
import { createRealtimeSync } from './realtime-sync';
import { endLocalSession } from './session-end';
import { api as defaultApi, sessionStore } from './session';
import type { SessionStore } from './session-store';
import { socketService, type SocketService } from './socket-service';
import { createClientGroups } from './sync-client';
import { createSyncEngine } from './sync-engine';
import type { Mutator } from './mutators';

// The local data, started once someone is signed in (docs/architecture.md §8): the sync engine (pull),
// the outbox (push) and realtime, over one Dexie mirror and one rebaser. It orders "send pending
// writes, then pull" — at start, login / registration / restore, `online`, the page becoming
// visible, a socket (re)connection, a write answered and the service worker's messages — one run
// at a time. Workbox's background sync does not exist in Safari: these triggers are what
// delivers a write there. Every end of the session (sign-out, a refused refresh or socket,
// deletion) goes through session-end.ts: the mirror, outbox and inbox are forgotten, waiting
// writes held for their player's last decision (held-writes.ts).

export interface LocalDataOptions {
  db?: HunchDb;
  api?: ApiClient;
  session?: Pick<SessionStore, 'user' | 'events' | 'isPersistent'>;
  activeGroup?: ActiveGroupStore;
  /** Where the owner of the local data is written down (localStorage in the app); null in tests that do not look. */
  storage?: Storage | null;
  socket?: Pick<
    SocketService,
    'on' | 'onConnected' | 'start' | 'stop' | 'reconnectIfGivenUp'
  > | null;
  toasts?: Pick<Notices, 'info' | 'error'>;
  mutators?: readonly AnyMutator[];
  /** Tells the service worker something (clear its queue); nothing in tests. */
  postToWorker?: (message: { type: string }) => void;
  /** Where `online`, `visibilitychange` and the worker's messages come from; null in tests. */
  events?: {
    window: Pick<Window, 'addEventListener' | 'removeEventListener'>;
    document: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>;
    worker: Pick<ServiceWorkerContainer, 'addEventListener' | 'removeEventListener'> | null;
  } | null;
  /** Asks the browser to keep the mirror (installed app only); null in tests. */
  persistStorage?: (() => Promise<unknown>) | null;
  tempId?: () => number;
  newKey?: () => string;
  retryDelayMs?: number;
  debounceMs?: number;
}

export const APP_MUTATORS: readonly AnyMutator[] = [
  ...GROUP_MUTATORS,
  ...BET_MUTATORS,
  ...COMMENT_MUTATORS,
  ...FAIR_RESOLUTION_MUTATORS,
  ...NOTIFICATION_MUTATORS,
  ...SEASON_MUTATORS,
  ...ROUND_MUTATORS,
];

export type LocalData = ReturnType<typeof createLocalData>;

export function createLocalData({
  db = defaultDb,
  api = defaultApi,
  session = sessionStore,
  activeGroup = activeGroupStore,
  storage = null,
  socket = null,
  toasts = notices,
  mutators = APP_MUTATORS,
  postToWorker = () => undefined,
  events = null,
  persistStorage = null,
  tempId,
  newKey,
  retryDelayMs,
  debounceMs,
}: LocalDataOptions = {}) {
  const registry: MutatorRegistry = Object.fromEntries(
    mutators.map((mutator) => [mutator.name, mutator]),
  );
  const rebaser = createRebaser({
    db,
    mutators: registry,
    userName: () => session.user?.displayName ?? '',
    isSignedIn: (userId) => session.user?.id === userId,
  });
  // The player's client group on this browser outlives their sessions (sync-client.ts).
  const clientGroupOf = createClientGroups(storage);
  const syncEngine = createSyncEngine({
    db,
    api,
    session,
    activeGroup,
    rebaser,
    clientGroupOf,
    mutators: registry,
    onRefused: (messages) => messages.forEach((message) => toasts.error(message)),
  });
  let running: Promise<void> | null = null;
  let again = false;
  const work = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    work.add(promise);
    void promise.finally(() => work.delete(promise)).catch(() => undefined);
    return promise;
  };

  const syncOnce = async () => {
    const userId = session.user?.id;
    if (userId === undefined) return;
    await syncEngine.claimFor(userId);
    await outbox.flush();
    await syncEngine.pull();
    socket?.reconnectIfGivenUp();
  };

  /** Send pending writes, then pull. Concurrent calls share one run (and one more after it if asked meanwhile). */
  const sync = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = track(
      (async () => {
        do {
          again = false;
          // Offline is the normal case here, not worth a line; anything else is logged (docs/groups-and-bets.md §8).
          await syncOnce().catch((error: unknown) => {
            if (!isNetworkError(error)) console.warn('Syncing failed', error);
          });
        } while (again);
      })().finally(() => {
        running = null;
      }),
    );
    return running;
  };

  const outbox = createOutbox({
    db,
    api,
    session,
    mutators: registry,
    rebaser,
    activeGroup,
    clientGroupOf,
    // The worker's copies of earlier pushes carry the old numbers: they must never be replayed.
    onRenumbered: () => postToWorker({ type: 'outbox-clear' }),
    notifyError: (message) => toasts.error(message),
    notifyQueued: (message) => toasts.info(message),
    onAnswered: () => void sync(),
    afterRebase: () => syncEngine.reconcileActiveGroup(),
    tempId,
    newKey,
    retryDelayMs,
  });

  const held = createHeldWrites({
    db,
    session,
    rebaser,
    onQueued: () => sync(),
    pull: () => syncEngine.pull(),
    clientGroupOf,
  });

  const realtime = socket
    ? createRealtimeSync({ db, session, rebaser, socket, sync, debounceMs })
    : null;

  let unsubscribers: Array<() => void> = [];
  let hasAskedPersistence = false;

  /** Spec: once signed in on an installed app, ask the browser not to evict the mirror. */
  const askPersistence = () => {
    if (hasAskedPersistence || !persistStorage || session.user === null) return;
    hasAskedPersistence = true;
    persistStorage().catch((error: unknown) =>
      console.warn('Asking for persistent storage failed', error),
    );
  };

  let lastUserId = session.user?.id ?? null;
  const onSignIn = () => {
    const userId = session.user?.id ?? null;
    // Another user's queue must never be sent with this user's token (the sync engine clears Dexie).
    if (lastUserId !== null && userId !== lastUserId) postToWorker({ type: 'outbox-clear' });
    lastUserId = userId;
    // Written down before anything of theirs is stored: a start without their tokens then knows.
    if (userId !== null) markLocalDataOwner(storage, userId);
    askPersistence();
    void sync();
  };

  return {
    syncEngine,
    outbox,
    realtime,
    rebaser,
    sync,
    /** The writes held when a session ended: listed, sent or discarded by their player. */
    held,
    /** Applies a mutator, queues it and sends it (outbox.run). */
    run<A, R>(mutator: Mutator<A, R>, args: A): Promise<WriteResult<R>> {
      return outbox.run(mutator, args);
    },
    /** The same for a screen that waits for nothing: a refusal is a toast, never thrown (outbox.send). */
    send<A, R>(mutator: Mutator<A, R>, args: A): Promise<WriteResult<R> | undefined> {
      return outbox.send(mutator, args);
    },
    /** Starts listening and syncs once now. Idempotent. */
    start() {
      if (unsubscribers.length > 0) return;
      const onOnline = () => void sync();
      const onVisible = () => {
        if (events?.document.visibilityState === 'visible') void sync();
      };
      const onWorkerMessage = (event: Event) => {
        const data = (event as MessageEvent<{ type?: string }>).data;
        if (data?.type === 'outbox-replayed' || data?.type === 'outbox-flush') void sync();
      };
      unsubscribers = [
        session.events.on('login', onSignIn),
        session.events.on('register', onSignIn),
        session.events.on('restored', onSignIn),
        session.events.on('logout', ({ user, reason, waitFor }) => {
          outbox.stop();
          // Whatever ended it, started in this same call, and the logout resolves once it is done.
          const forgetting = endLocalSession(
            { db, activeGroup, storage, postToWorker },
            { reason, userId: user?.id ?? null },
          );
          waitFor(track(syncEngine.signOut(forgetting)));
        }),
      ];
      if (events) {
        events.window.addEventListener('online', onOnline);
        events.document.addEventListener('visibilitychange', onVisible);
        unsubscribers.push(
          () => events.window.removeEventListener('online', onOnline),
          () => events.document.removeEventListener('visibilitychange', onVisible),
        );
        if (events.worker) {
          const worker = events.worker;
          worker.addEventListener('message', onWorkerMessage);
          unsubscribers.push(() => worker.removeEventListener('message', onWorkerMessage));
        }
      }
      // Events are listened to before the socket opens, so none is missed.
      realtime?.start();
      socket?.start();
      if (session.user) onSignIn();
    },
    stop() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers = [];
      realtime?.stop();
      socket?.stop();
      outbox.stop();
    },
    /** Resolves once no sync, write or event handling is under way. */
    async whenIdle(): Promise<void> {
      // Event handling is waited for even when nothing else runs (a pull it has scheduled).
      do {
        await Promise.allSettled([...work]);
        await realtime?.whenIdle();
      } while (work.size > 0 || running);
    },
  };
}

const isStandalone = () =>
  typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches;

/** The app's local data. */
export const localData = createLocalData({
  storage: typeof localStorage === 'undefined' ? null : localStorage,
  socket: socketService,
  postToWorker: (message) => navigator.serviceWorker?.controller?.postMessage(message),
  events:
    typeof window === 'undefined'
      ? null
      : { window, document, worker: 'serviceWorker' in navigator ? navigator.serviceWorker : null },
  persistStorage:
    typeof navigator !== 'undefined' && navigator.storage?.persist
      ? () => (isStandalone() ? navigator.storage.persist() : Promise.resolve(false))
      : null,
});

/** What the shell calls once someone is signed in, handing in its toasts (a dynamic import: Dexie and socket.io stay off the landing page). */
export function startLocalData(toasts: Notices): void {
  connectNotices(toasts);
  localData.start();
}
