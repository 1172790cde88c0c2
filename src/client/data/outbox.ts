import type { Bet, Wager } from '../../domain/bets';
import { API_BASE } from '../../domain/constants';
import type { Group, Membership } from '../../domain/groups';
import { activeGroupStore, type ActiveGroupStore } from './active-group-store';
import { ApiError, errorMessage, isNetworkError, type ApiClient } from './api-client';
import { db as defaultDb, type HunchDb, type OutboxEntry, type OutboxKind, type OutboxTable, type OutboxUndo } from './db';
import { toast } from '../shell/toast-store';
import { api as defaultApi, sessionStore } from './session';
import type { SessionStore } from './session-store';

// The outbox (ARCHITECTURE.md §8, issue 7). Every signed-in write goes through runWrite():
// 1. ONE Dexie transaction applies the optimistic change (each row it touches carries
//    `pendingWriteId`, the views show it as pending) and adds the outbox entry, whose id is
//    the request's Idempotency-Key;
// 2. the request goes out at once through `api` (which refreshes an expired token);
//    - answered: the server's rows replace the optimistic ones, the marks go, the entry goes;
//    - no network: the entry stays pending (the service worker's background-sync queue holds
//      a copy of the request, src-sw/outbox-queue.ts) and the caller hears "queued";
//    - refused (4xx): the change is rolled back in one transaction, the entry goes, the
//      server's message (or the action's default text) is shown, the caller's promise rejects.
// 3. flush() sends what is left, oldest first, one at a time, with the SAME key: on start, on
//    `online`, on login/restore and when the service worker says it replayed something. The
//    server answers a key it has seen with its first answer, so a request the worker already
//    delivered is reconciled, never applied twice.
// The Dexie entry is the one source of truth: the worker's copy is only a way to deliver while
// no page is open. Signing out (or another user signing in) clears both.

export const OUTBOX_TEXT = {
  queued: {
    createGroup: "You're offline. Your group will be created when you're back.",
    joinGroup: "You're offline. You'll join the group when you're back.",
    createBet: "You're offline. Your bet will be created when you're back.",
    placeWager: "You're offline. Your wager will be sent when you're back.",
    updateWager: "You're offline. Your wager will be sent when you're back.",
    resolveBet: "You're offline. The result will be sent when you're back.",
    cancelBet: "You're offline. The cancellation will be sent when you're back.",
  },
  failed: {
    createGroup: 'Failed to create group. Please try again.',
    joinGroup: 'Failed to join group. Please try again.',
    createBet: 'Failed to create bet. Please try again.',
    placeWager: 'Failed to submit wager',
    updateWager: 'Failed to submit wager',
    resolveBet: 'Failed to resolve bet. Please try again.',
    cancelBet: 'Failed to cancel bet. Please try again.',
  },
} satisfies Record<string, Record<OutboxKind, string>>;

/** One row the write changes optimistically: `value` is the new row, null deletes it. */
export interface RowChange {
  table: OutboxTable;
  key: number | [number, number];
  value: object | null;
}

export interface WriteSpec {
  kind: OutboxKind;
  method: OutboxEntry['method'];
  path: string;
  body?: unknown;
  /** The optimistic change; may read the tables first (it runs inside the write's transaction). */
  changes: RowChange[] | ((db: HunchDb) => Promise<RowChange[]>);
  meta?: OutboxEntry['meta'];
}

export type WriteResult<T> = { status: 'sent'; response: T } | { status: 'queued'; id: string };

type SendOutcome = 'sent' | 'offline' | 'retry' | 'refused';

export interface OutboxOptions {
  db?: HunchDb;
  api?: ApiClient;
  /** The user whose writes these are; `events` (login, logout…) only for start(). */
  session?: Pick<SessionStore, 'user'> & Partial<Pick<SessionStore, 'events'>>;
  activeGroup?: ActiveGroupStore;
  /** Shows a refusal to the player (the toast in the app). */
  notifyError?: (message: string) => void;
  /** Tells the service worker something (clear its queue); nothing in tests. */
  postToWorker?: (message: { type: string }) => void;
  /** The sync engine's applyLocal, so a sync in flight does not undo a write. */
  applyLocal?: <T>(write: () => Promise<T>) => Promise<T>;
  /** A temporary id for a created group or bet: always negative, never a server id. */
  tempId?: () => number;
  newKey?: () => string;
  /** Where `online` and the worker's messages come from; null in tests. */
  events?: { window: Pick<Window, 'addEventListener' | 'removeEventListener'>; worker: Pick<ServiceWorkerContainer, 'addEventListener' | 'removeEventListener'> | null } | null;
  /** Wait before sending again after a 409 (another sender holds the key) or a 5xx. */
  retryDelayMs?: number;
}

const TABLES: OutboxTable[] = ['groups', 'memberships', 'bets', 'wagers'];
const RETRY_STATUSES = new Set([408, 425, 429]);

function isRetryable(error: ApiError) {
  return error.status >= 500 || RETRY_STATUSES.has(error.status) || (error.status === 409 && error.code === 'idempotency_in_progress');
}

export type Outbox = ReturnType<typeof createOutbox>;

export function createOutbox({
  db = defaultDb,
  api = defaultApi,
  session = sessionStore,
  activeGroup = activeGroupStore,
  notifyError = () => undefined,
  postToWorker = () => undefined,
  applyLocal = (write) => write(),
  tempId = () => -(Math.floor(Math.random() * 2 ** 31) + 1),
  newKey = () => crypto.randomUUID(),
  events = null,
  retryDelayMs = 2000,
}: OutboxOptions = {}) {
  const tablesOf = () => [db.outbox, ...TABLES.map((name) => db.table(name))];
  let flushing: Promise<void> | null = null;
  let flushAgain = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribers: Array<() => void> = [];
  /** How each write sent by a flush ended, for the runWrite() waiting on it. */
  /** Writes whose runWrite() caller is still waiting: the caller shows their refusal, not the outbox. */
  const awaited = new Set<string>();
  const settled = new Map<string, { outcome: SendOutcome; response?: unknown; error?: unknown }>();

  /** Restores every row the entry still marks (a row the server or a later write changed since is left alone). */
  const undoRows = async (entry: OutboxEntry) => {
    for (const undo of [...entry.undo].reverse()) {
      const table = db.table(undo.table);
      const current = (await table.get(undo.key)) as { pendingWriteId?: string } | undefined;
      if (current && current.pendingWriteId !== entry.id) continue;
      if (undo.previous === undefined) await table.delete(undo.key);
      else await table.put(undo.previous);
    }
  };

  /** Clears the entry's pending marks from the rows that still carry them. */
  const clearMarks = async (entry: OutboxEntry) => {
    for (const undo of entry.undo) {
      const table = db.table(undo.table);
      const current = (await table.get(undo.key)) as ({ pendingWriteId?: string } & object) | undefined;
      if (current?.pendingWriteId !== entry.id) continue;
      const { pendingWriteId: _mark, ...row } = current;
      await table.put(row);
    }
  };

  /** The server's answer replaces the optimistic rows, by kind. Runs inside one transaction. */
  const applyAnswer = async (entry: OutboxEntry, response: unknown) => {
    const tempId = entry.meta?.tempId;
    switch (entry.kind) {
      case 'createGroup':
      case 'joinGroup': {
        const group = response as Group;
        const mine = tempId === undefined ? undefined : await db.memberships.get([tempId, entry.userId]);
        if (tempId !== undefined) {
          await db.groups.delete(tempId);
          await db.memberships.delete([tempId, entry.userId]);
        }
        await db.groups.put(group);
        const known = await db.memberships.get([group.id, entry.userId]);
        const { pendingWriteId: _mark, ...base } = { ...(mine ?? known) } as Membership & { pendingWriteId?: string };
        if (mine || known) await db.memberships.put({ ...base, groupId: group.id });
        else if (entry.kind === 'createGroup') {
          // A sync that ran meanwhile dropped the temporary membership: the creator holds the starting points.
          const userName = session.user?.id === entry.userId ? session.user.displayName : '';
          await db.memberships.put({ groupId: group.id, userId: entry.userId, userName, totalPoints: group.defaultPoints, availablePoints: group.defaultPoints, role: 'creator' });
        }
        break;
      }
      case 'createBet':
      case 'resolveBet':
      case 'cancelBet': {
        const bet = response as Bet;
        const local = await db.bets.get(tempId ?? bet.id);
        if (tempId !== undefined) await db.bets.delete(tempId);
        const { pendingWriteId: _mark, ...flags } = { ...local } as Record<string, unknown>;
        await db.bets.put({ ...flags, ...bet });
        break;
      }
      case 'placeWager':
      case 'updateWager': {
        const wager = response as Wager;
        if (tempId !== undefined) await db.wagers.delete(tempId);
        await db.wagers.put(wager);
        break;
      }
    }
    await clearMarks(entry);
  };

  /** After the answer is written: what lives outside Dexie (the active group). */
  const afterAnswer = async (entry: OutboxEntry, response: unknown) => {
    if (entry.kind !== 'createGroup' && entry.kind !== 'joinGroup') return;
    const group = response as Group;
    let membership = await db.memberships.get([group.id, entry.userId]);
    if (entry.kind === 'joinGroup' && (!membership || membership.availablePoints === undefined)) {
      // A rejoin restores the old points: the server's word, not a guess.
      try {
        membership = await api.get<Membership>(`${API_BASE}/groups/${group.id}/membership`);
        await applyLocal(() => db.memberships.put(membership!));
      } catch (error) {
        console.warn('Loading the new membership failed; the next sync brings it', error);
      }
    }
    const active = activeGroup.getSnapshot();
    if (!active || active.id === entry.meta?.tempId || active.id === group.id || entry.kind === 'joinGroup' || entry.kind === 'createGroup') {
      activeGroup.set({ id: group.id, name: group.name, availablePoints: membership?.availablePoints ?? group.defaultPoints });
    }
  };

  const finish = async (entry: OutboxEntry, response: unknown) => {
    await applyLocal(() =>
      db.transaction('rw', tablesOf(), async () => {
        // The entry may be gone: signed out meanwhile, or another tab finished it.
        if (!(await db.outbox.get(entry.id))) return;
        await applyAnswer(entry, response);
        await db.outbox.delete(entry.id);
      }),
    );
    await afterAnswer(entry, response);
  };

  const rollBack = async (entry: OutboxEntry, message: string) => {
    await applyLocal(() =>
      db.transaction('rw', tablesOf(), async () => {
        if (!(await db.outbox.get(entry.id))) return;
        await undoRows(entry);
        await db.outbox.delete(entry.id);
      }),
    );
    if (entry.kind === 'createGroup' && entry.meta?.tempId !== undefined && activeGroup.getSnapshot()?.id === entry.meta.tempId) {
      const memberships = await db.memberships.where('userId').equals(entry.userId).sortBy('groupId');
      const groups = await db.groups.bulkGet(memberships.map((m) => m.groupId));
      activeGroup.reconcile(memberships.map((m, i) => ({ id: m.groupId, name: groups[i]?.name ?? '', availablePoints: m.availablePoints })));
    }
    if (!awaited.has(entry.id)) notifyError(message);
  };

  /** One attempt with the entry's key. */
  const send = async (entry: OutboxEntry): Promise<{ outcome: SendOutcome; response?: unknown; error?: unknown }> => {
    await db.outbox.update(entry.id, { status: 'sending', attempts: entry.attempts + 1 });
    try {
      const response = await api.request<unknown>(entry.path, {
        method: entry.method,
        body: entry.body,
        headers: { 'Idempotency-Key': entry.id },
      });
      await finish(entry, response);
      return { outcome: 'sent', response };
    } catch (error) {
      if (error instanceof ApiError && !isNetworkError(error) && !isRetryable(error)) {
        await rollBack(entry, errorMessage(error, OUTBOX_TEXT.failed[entry.kind]));
        return { outcome: 'refused', error };
      }
      // No network, a server hiccup, or the service worker sending the same key right now:
      // the write stays for the next flush.
      await db.outbox.update(entry.id, { status: 'pending', error: error instanceof Error ? error.message : String(error) });
      return { outcome: isNetworkError(error) ? 'offline' : 'retry', error };
    }
  };

  const scheduleRetry = () => {
    if (retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void flush();
    }, retryDelayMs);
  };

  const flushOnce = async () => {
    const userId = session.user?.id;
    if (userId === undefined) return;
    const entries = await db.outbox.where('userId').equals(userId).sortBy('createdAt');
    for (const entry of entries) {
      if (session.user?.id !== userId) return;
      const result = await send(entry);
      const { outcome } = result;
      if (outcome === 'sent' || outcome === 'refused') {
        settled.set(entry.id, result);
        if (settled.size > 50) settled.delete(settled.keys().next().value!);
      }
      if (outcome === 'offline') return; // the rest would fail the same way; `online` brings us back
      if (outcome === 'retry') {
        scheduleRetry();
        return; // keep the order: a later write may depend on this one
      }
    }
  };

  /** Sends what the outbox holds, oldest first, one at a time. Concurrent calls share one run. */
  const flush = (): Promise<void> => {
    if (flushing) {
      flushAgain = true;
      return flushing;
    }
    flushing = (async () => {
      do {
        flushAgain = false;
        await flushOnce();
      } while (flushAgain);
    })()
      .catch((error: unknown) => console.warn('Sending the outbox failed', error))
      .finally(() => {
        flushing = null;
      });
    return flushing;
  };

  /**
   * The optimistic change and the entry in one transaction, then one attempt to send. Resolves
   * 'sent' with the server's answer or 'queued' (offline: it goes out later); rejects with the
   * ApiError when the server refused it (already rolled back and shown).
   */
  const runWrite = async <T>(spec: WriteSpec): Promise<WriteResult<T>> => {
    const userId = session.user?.id;
    if (userId === undefined) throw new ApiError(401, { message: 'Please sign in again.', code: 'unauthorized' });
    const entry: OutboxEntry = {
      id: newKey(),
      userId,
      kind: spec.kind,
      method: spec.method,
      path: spec.path,
      body: spec.body,
      createdAt: Date.now(),
      status: 'pending',
      attempts: 0,
      undo: [],
      meta: spec.meta,
    };
    await applyLocal(() =>
      db.transaction('rw', tablesOf(), async () => {
        const changes = typeof spec.changes === 'function' ? await spec.changes(db) : spec.changes;
        const undo: OutboxUndo[] = [];
        for (const change of changes) {
          const table = db.table(change.table);
          const previous: unknown = await table.get(change.key);
          // A row changed twice by one write keeps its first previous state.
          if (!undo.some((u) => u.table === change.table && JSON.stringify(u.key) === JSON.stringify(change.key))) {
            undo.push({ table: change.table, key: change.key, previous });
          }
          if (change.value === null) await table.delete(change.key);
          else await table.put({ ...change.value, pendingWriteId: entry.id });
        }
        entry.undo = undo;
        await db.outbox.add(entry);
      }),
    );
    awaited.add(entry.id);
    try {
      return await deliver<T>(entry, userId);
    } finally {
      awaited.delete(entry.id);
    }
  };

  const deliver = async <T>(entry: OutboxEntry, userId: number): Promise<WriteResult<T>> => {
    // Older writes first: this one may depend on them (a wager on a bet created offline).
    const older = await db.outbox.where('userId').equals(userId).filter((e) => e.id !== entry.id && e.createdAt <= entry.createdAt).count();
    if (older > 0 || flushing) {
      await flush();
      const result = settled.get(entry.id);
      settled.delete(entry.id);
      if (result?.outcome === 'refused') throw result.error;
      if (result?.outcome === 'sent') return { status: 'sent', response: result.response as T };
      return { status: 'queued', id: entry.id };
    }
    const { outcome, response, error } = await send(entry);
    if (outcome === 'sent') return { status: 'sent', response: response as T };
    if (outcome === 'refused') throw error;
    if (outcome === 'retry') scheduleRetry();
    return { status: 'queued', id: entry.id };
  };

  /** Forget every queued write (sign-out, another user): the tables are cleared by the sync engine. */
  const forgetQueued = async () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    postToWorker({ type: 'outbox-clear' });
    await db.outbox.clear().catch((error: unknown) => console.warn('Clearing the outbox failed', error));
  };

  return {
    runWrite,
    flush,
    forgetQueued,
    /** A negative id for a row the server has not numbered yet. */
    tempId,
    /** Starts flushing on `online`, login, restore and the worker's replay messages; flushes once now. Idempotent. */
    start() {
      if (unsubscribers.length > 0) return;
      const onWorkerMessage = (event: Event) => {
        const data = (event as MessageEvent<{ type?: string }>).data;
        if (data?.type === 'outbox-replayed' || data?.type === 'outbox-flush') void flush();
      };
      const onOnline = () => void flush();
      let lastUserId = session.user?.id ?? null;
      const onSignIn = () => {
        const userId = session.user?.id ?? null;
        // Another user's queue must never be sent with this user's token.
        if (lastUserId !== null && userId !== lastUserId) void forgetQueued();
        lastUserId = userId;
        void flush();
      };
      const sessionEvents = session.events;
      unsubscribers = sessionEvents
        ? [
            sessionEvents.on('login', onSignIn),
            sessionEvents.on('register', onSignIn),
            sessionEvents.on('restored', onSignIn),
            sessionEvents.on('logout', () => void forgetQueued()),
          ]
        : [() => undefined];
      if (events) {
        events.window.addEventListener('online', onOnline);
        unsubscribers.push(() => events.window.removeEventListener('online', onOnline));
        if (events.worker) {
          const worker = events.worker;
          worker.addEventListener('message', onWorkerMessage);
          unsubscribers.push(() => worker.removeEventListener('message', onWorkerMessage));
        }
      }
      void flush();
    },
    stop() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers = [];
      clearTimeout(retryTimer);
      retryTimer = undefined;
    },
  };
}

/** The app's outbox; data/outbox-start.ts wires it to the sync engine and the service worker. */
export const outbox = createOutbox({
  notifyError: (message) => toast.error(message),
  postToWorker: (message) => navigator.serviceWorker?.controller?.postMessage(message),
  events:
    typeof window === 'undefined' ? null : { window, worker: 'serviceWorker' in navigator ? navigator.serviceWorker : null },
});
