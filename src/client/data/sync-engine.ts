import type { ApiErrorBody } from '../../domain/api-error';
import { API_BASE } from '../../domain/constants';
import { MIRROR_START_CURSOR, MIRROR_SYNCED_MARK } from '../../domain/mirror-marks';
import type { MutationOutcome } from '../../domain/mirror';
import type { Table } from 'dexie';
import {
  activeGroupStore,
  type ActiveGroupInfo,
  type ActiveGroupStore,
} from './active-group-store';
import { ApiError, type ApiClient } from './api-client';
import {
  clearLocalData,
  CURSOR_KEY,
  db as defaultDb,
  LAST_SYNCED_KEY,
  SYNC_LAST_IDS_KEY,
  type HunchDb,
  type MirrorKey,
} from './db';
import type { MutatorRegistry, Rebaser } from './mutators';
import { api as defaultApi, sessionStore } from './session';
import type { SessionStore } from './session-store';
import type { ClientGroupOf } from './sync-client';
import { describeRefusal } from './write-refusal';
import {
  keyOf,
  MIRROR_SHAPE,
  MIRROR_TABLES,
  pageRemovals,
  pageRows,
  SYNCED_TABLES,
  type MirrorPullResponse,
  type MirrorTable,
} from './synced-tables';

// The pull (docs/architecture.md §8): GET /api/member/state?cursor=… answers what changed in the
// player's view since the stored cursor (src/domain/mirror.ts). Each page is written in ONE
// transaction, through the rebaser (pending writes stay drawn on top), table by table as
// synced-tables.ts lists them (bulk: one read, one write per table): a row replaces the stored
// one only if its version is not older. `reset` (no or unusable cursor) clears the server rows
// first; `hasMore` pulls the next page at once, after yielding to the main thread. The cursor
// lives in meta with its owner: another user signing in clears everything (cursor, outbox and
// the writes held for someone else included); a session's end has cleared it already
// (session-end.ts).
// With the device's client group (sync-client.ts) the pull also says which of its pushed writes
// the server has (`lastMutationIDChanges`, read with the rows) and which it refused
// (`mutationOutcomes`): on the last page, in the same transaction, a write whose id its client's
// last id covers stops being drawn (the rows hold it), and a refused one is kept as refused with
// the server's message, as a refusal in the push's answer is (outbox.ts).

export interface SyncEngineOptions {
  db?: HunchDb;
  api?: ApiClient;
  session?: Pick<SessionStore, 'user'>;
  activeGroup?: ActiveGroupStore;
  rebaser: Rebaser;
  /** The player's client group on this device: the pull reports its writes. */
  clientGroupOf?: ClientGroupOf;
  /** Writes the pull found refused, each named with its bet (write-refusal.ts; the toasts in the app). */
  onRefused?: (messages: string[]) => void;
  /** The writes' mutators, whose words name a refusal. */
  mutators?: MutatorRegistry;
}

const OWNER_KEY = 'ownerUserId';

interface StoredCursor {
  userId: number;
  cursor: string;
  /**
   * The mirror's shape it was read under (synced-tables.ts MIRROR_SHAPE). Absent: stored before
   * the shape was kept, by a build with today's tables (an older one forgot its cursor on upgrade).
   */
  shape?: string;
}

/** Lets the page breathe between pages of a first sync. */
const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const isNewer = (incoming: { version: number }, stored: { version?: number } | undefined) =>
  !stored || incoming.version >= (stored.version ?? -1);

/** Rows of one table: each replaces the stored one only if it is not older. One read and one write for the whole page. */
async function mergeRows(
  table: Table<object, MirrorKey>,
  rows: readonly { version: number }[],
  keyOf: (row: object) => MirrorKey,
): Promise<void> {
  if (rows.length === 0) return;
  const stored = (await table.bulkGet(rows.map(keyOf))) as Array<{ version?: number } | undefined>;
  const newer = rows.filter((row, index) => isNewer(row, stored[index]));
  if (newer.length > 0) await table.bulkPut(newer);
}

/** The page's rows into the mirror, table by table (synced-tables.ts); each runs inside the page's transaction. */
function createMerges(db: HunchDb) {
  const tableOf = (name: MirrorTable) => db.table(name) as Table<object, MirrorKey>;
  return {
    async mergePage(page: MirrorPullResponse) {
      for (const name of MIRROR_TABLES) {
        const table = tableOf(name);
        const removed = pageRemovals(name, page);
        if (removed.length > 0) await table.bulkDelete(removed);
        await mergeRows(table, pageRows(name, page), (row) => keyOf(name, row));
        await SYNCED_TABLES[name].afterMerge?.(table as never);
      }
    },
    /** A group that left the player's view, with everything in it: every row found first, then deleted. */
    async removeGroup(groupId: number) {
      const found = new Map<string, Promise<MirrorKey[]>>();
      const keysIn = (name: MirrorTable): Promise<MirrorKey[]> => {
        const { index, of } = SYNCED_TABLES[name].ofGroup!;
        const keys =
          found.get(name) ??
          (async () =>
            tableOf(name)
              .where(index)
              .anyOf(of ? await keysIn(of as MirrorTable) : [groupId])
              .primaryKeys())();
        found.set(name, keys);
        return keys;
      };
      const inGroup = MIRROR_TABLES.filter((name) => SYNCED_TABLES[name].ofGroup);
      const keys = await Promise.all(inGroup.map(keysIn));
      for (const [index, name] of inGroup.entries()) await tableOf(name).bulkDelete(keys[index]!);
    },
    /** Every mirrored row (a reset) but those a table keeps (a group only seen from outside: group-actions.ts loadGroup). */
    async clearServerRows() {
      await Promise.all(
        MIRROR_TABLES.map((name) => {
          const keeps = SYNCED_TABLES[name].keepsOnReset;
          const table = db.table(name) as Table<Record<string, unknown>, MirrorKey>;
          return keeps ? table.filter((row) => !keeps(row)).delete() : table.clear();
        }),
      );
    },
  };
}

export function createSyncEngine({
  db = defaultDb,
  api = defaultApi,
  session = sessionStore,
  activeGroup = activeGroupStore,
  rebaser,
  clientGroupOf,
  onRefused = () => undefined,
  mutators = {},
}: SyncEngineOptions) {
  const merges = createMerges(db);
  /** Bumped at sign-out: an answer for the previous session is dropped. */
  let epoch = 0;
  let clearing: Promise<void> = Promise.resolve();
  let running: Promise<void> | null = null;
  let again = false;

  const currentUserId = () => session.user?.id ?? null;

  /**
   * Another user signing in on this device starts from an empty mirror (and an empty outbox).
   * Writes held for another player's last decision are dropped: never shown to, nor sent by,
   * anyone else.
   */
  const claimFor = async (userId: number) => {
    const owner = await db.meta.get(OWNER_KEY);
    if (owner?.value === userId) return;
    await db.transaction('rw', db.tables, async () => {
      if (owner) await clearLocalData(db);
      await db.held.where('userId').notEqual(userId).delete();
      await db.meta.put({ key: OWNER_KEY, value: userId });
    });
    if (owner) activeGroup.clear();
  };

  const storedCursor = async (userId: number): Promise<string> => {
    const stored = (await db.meta.get(CURSOR_KEY))?.value as StoredCursor | undefined;
    // A table added (or a revision raised) since: a pull from it would not bring the rows
    // already on the server, so the mirror starts over.
    const isSameShape = (stored?.shape ?? MIRROR_SHAPE) === MIRROR_SHAPE;
    return stored && stored.userId === userId && isSameShape ? stored.cursor : MIRROR_START_CURSOR;
  };

  /**
   * What the last page says of the device's writes (inside its transaction): refused ones are
   * kept as refused, those its client's last id covers go (a created row's id first names it in
   * the writes queued behind). Answers the refusals' messages.
   */
  const settleWrites = async (
    userId: number,
    lastIds: Record<string, number>,
    outcomes: readonly MutationOutcome[],
  ): Promise<string[]> => {
    await db.meta.put({ key: SYNC_LAST_IDS_KEY, value: lastIds });
    const outcomeOf = new Map(
      outcomes.map((outcome) => [`${outcome.clientID}:${outcome.id}`, outcome]),
    );
    const messages: string[] = [];
    const entries = (await db.outbox.where('userId').equals(userId).toArray()).sort(
      (a, b) => (a.mutationID ?? 0) - (b.mutationID ?? 0),
    );
    for (const entry of entries) {
      const { clientID, mutationID } = entry;
      if (clientID === undefined || mutationID === undefined || entry.status === 'failed') continue;
      const outcome = outcomeOf.get(`${clientID}:${mutationID}`);
      if (outcome?.error) {
        if (entry.status === 'answered') continue;
        const refusal = new ApiError(outcome.error.status, outcome.error as Partial<ApiErrorBody>);
        const told = await describeRefusal(db, mutators, entry, refusal);
        await db.outbox.update(entry.id, { status: 'failed', ...told });
        messages.push(told.error);
        continue;
      }
      if (mutationID > (lastIds[clientID] ?? 0)) continue;
      if (typeof outcome?.createdId === 'number')
        await rebaser.recordCreated(entry, { id: outcome.createdId });
      await db.outbox.delete(entry.id);
    }
    return messages;
  };

  /** One page into the mirror; on the last page the writes it holds stop being drawn. */
  const writePage = async (
    userId: number,
    page: MirrorPullResponse,
    outcomes: readonly MutationOutcome[],
  ): Promise<string[] | undefined> => {
    return rebaser.serverWrite(userId, async () => {
      if (page.reset) await merges.clearServerRows();
      for (const groupId of page.removedGroupIds) await merges.removeGroup(groupId);
      await merges.mergePage(page);
      await db.meta.put({
        key: CURSOR_KEY,
        value: { userId, cursor: page.cursor, shape: MIRROR_SHAPE } satisfies StoredCursor,
      });
      if (page.hasMore) return [];
      // When data was last brought up to date: the offline indicator says so.
      await db.meta.put({ key: LAST_SYNCED_KEY, value: Date.now() });
      return page.lastMutationIDChanges
        ? settleWrites(userId, page.lastMutationIDChanges, outcomes)
        : [];
    });
  };

  /** The player's groups as active-group candidates, first by id (docs/groups-and-bets.md §4: "the first of the user's groups"). */
  const myGroupChoices = async (userId: number): Promise<ActiveGroupInfo[]> => {
    const memberships = await db.memberships.where('userId').equals(userId).toArray();
    const groups = await db.groups.bulkGet(memberships.map((m) => m.groupId));
    return memberships
      .map((membership, index) => ({
        id: membership.groupId,
        name: groups[index]?.name ?? '',
        availablePoints: membership.availablePoints,
      }))
      .sort((a, b) => a.id - b.id);
  };

  /** Keeps the active group one of the player's groups, with fresh name and points (a temporary id follows the server's). */
  const reconcileActiveGroup = async () => {
    const userId = currentUserId();
    if (userId === null) return;
    const choices = await myGroupChoices(userId);
    const active = activeGroup.getSnapshot();
    if (active && active.id < 0) {
      const realId = (await rebaser.readTempIds())[String(active.id)];
      const real = choices.find((choice) => choice.id === realId);
      if (real) activeGroup.set(real);
    }
    if (currentUserId() === userId) activeGroup.reconcile(choices);
  };

  const pullOnce = async (): Promise<void> => {
    const userId = currentUserId();
    if (userId === null) return;
    const startEpoch = epoch;
    await clearing;
    await claimFor(userId);
    const clientGroup = clientGroupOf
      ? `&clientGroupID=${encodeURIComponent(clientGroupOf(userId))}`
      : '';
    /** Refusals and created ids of every page: each page reports those since its own cursor. */
    const outcomes: MutationOutcome[] = [];
    let cursor = await storedCursor(userId);
    let isStartedOver = false;
    for (;;) {
      let page: MirrorPullResponse;
      try {
        page = await api.get<MirrorPullResponse>(
          `${API_BASE}/member/state?cursor=${encodeURIComponent(cursor)}${clientGroup}`,
        );
      } catch (error) {
        // A cursor the server refuses outright (400) would be refused on every pull: start
        // over from nothing, once (the answer's `reset` then replaces the mirror).
        const isRefused = error instanceof ApiError && error.status === 400;
        if (!isRefused || isStartedOver || cursor === MIRROR_START_CURSOR) throw error;
        isStartedOver = true;
        cursor = MIRROR_START_CURSOR;
        continue;
      }
      if (epoch !== startEpoch || currentUserId() !== userId) return;
      outcomes.push(...(page.mutationOutcomes ?? []));
      const refusals = await writePage(userId, page, outcomes);
      if (refusals && refusals.length > 0) onRefused(refusals);
      cursor = page.cursor;
      if (!page.hasMore) break;
      await yieldToMain();
    }
    if (typeof performance !== 'undefined' && typeof performance.mark === 'function')
      performance.mark(MIRROR_SYNCED_MARK);
    if (epoch === startEpoch) await reconcileActiveGroup();
  };

  /** Pulls until the mirror is current. Concurrent calls share one run (and one more after it if asked meanwhile). */
  const pull = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pullOnce();
        } catch (error) {
          // docs/groups-and-bets.md §8: "User-state load failure: only logged" (by the caller). Offline with
          // nothing stored, the active group is chosen from what this device knows.
          if (activeGroup.getSnapshot() === undefined)
            await reconcileActiveGroup().catch(() => undefined);
          throw error;
        }
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    pull,
    reconcileActiveGroup,
    /**
     * The session ended: an answer still on its way is dropped, and the next pull waits for
     * `forgetting` (session-end.ts), which empties the mirror.
     */
    signOut(forgetting: Promise<void>) {
      epoch += 1;
      clearing = forgetting.catch((error: unknown) =>
        console.warn('Clearing local data failed', error),
      );
      return clearing;
    },
    claimFor,
  };
}
