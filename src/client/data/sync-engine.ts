import { API_BASE } from '../../domain/constants';
import type { VersionedComment } from '../../domain/comments';
import type { VersionedBetHistoryEntry } from '../../domain/fair-resolution';
import type { VersionedSeason } from '../../domain/seasons';
import { MIRROR_START_CURSOR, MIRROR_SYNCED_MARK } from '../../domain/mirror-marks';
import type {
  MirrorBet,
  MirrorGroup,
  MutationOutcome,
  MirrorMembership,
  MirrorPullResponse,
  MirrorStatistics,
  MirrorWager,
} from '../../domain/mirror';
import {
  NOTIFICATION_RETENTION_MS,
  type Notification,
  type NotificationSettings,
} from '../../domain/notifications';
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
  SETTINGS_ROW_ID,
  SYNC_LAST_IDS_KEY,
  type HunchDb,
} from './db';
import type { Rebaser } from './mutators';
import { api as defaultApi, sessionStore } from './session';
import type { SessionStore } from './session-store';
import type { ClientGroupOf } from './sync-client';

// The pull (docs/architecture.md §8): GET /api/member/state?cursor=… answers what changed in the
// player's view since the stored cursor (src/domain/mirror.ts). Each page is written in ONE
// transaction, through the rebaser (pending writes stay drawn on top), by one merge function
// per row type (bulk: one read, one write per table): a row replaces the stored one only if its version is not older. `reset` (no or
// unusable cursor) clears the server rows first; `hasMore` pulls the next page at once, after
// yielding to the main thread. The cursor lives in meta with its owner: another user signing
// in clears everything (cursor, outbox and the writes held for someone else included); a
// session's end has cleared it already (session-end.ts).
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
  /** Writes the pull found refused, with the server's messages (the toasts in the app). */
  onRefused?: (messages: string[]) => void;
}

const OWNER_KEY = 'ownerUserId';

interface StoredCursor {
  userId: number;
  cursor: string;
}

/** Lets the page breathe between pages of a first sync. */
const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const isNewer = (incoming: { version: number }, stored: { version?: number } | undefined) =>
  !stored || incoming.version >= (stored.version ?? -1);

/** Rows of one table: each replaces the stored one only if it is not older. One read and one write for the whole page. */
async function mergeRows<Row extends { version: number }, Key extends number | [number, number]>(
  table: Table<object, Key>,
  rows: readonly Row[],
  keyOf: (row: Row) => Key,
): Promise<void> {
  if (rows.length === 0) return;
  const stored = (await table.bulkGet(rows.map(keyOf))) as Array<{ version?: number } | undefined>;
  const newer = rows.filter((row, index) => isNewer(row, stored[index]));
  if (newer.length > 0) await table.bulkPut(newer);
}

/** One merge per row type; each runs inside the page's transaction. */
function createMerges(db: HunchDb) {
  return {
    mergeGroups: (groups: readonly MirrorGroup[]) =>
      mergeRows(db.groups as Table<object, number>, groups, (group) => group.id),
    mergeMemberships: (memberships: readonly MirrorMembership[]) =>
      mergeRows(db.memberships as Table<object, [number, number]>, memberships, (membership) => [
        membership.groupId,
        membership.userId,
      ]),
    mergeBets: (bets: readonly MirrorBet[]) =>
      mergeRows(db.bets as Table<object, number>, bets, (bet) => bet.id),
    mergeWagers: (wagers: readonly MirrorWager[]) =>
      mergeRows(db.wagers as Table<object, number>, wagers, (wager) => wager.id),
    mergeStatistics: (rows: readonly MirrorStatistics[]) =>
      mergeRows(db.betStatistics as Table<object, number>, rows, (row) => row.betId),
    /** A deleted comment arrives as a tombstone and is kept as one (db.ts CommentRow): a late older copy never revives it. */
    mergeComments: (comments: readonly VersionedComment[]) =>
      mergeRows(db.comments as Table<object, number>, comments, (comment) => comment.id),
    mergeHistory: (entries: readonly VersionedBetHistoryEntry[]) =>
      mergeRows(db.betHistory as Table<object, number>, entries, (entry) => entry.id),
    mergeSeasons: (seasons: readonly VersionedSeason[]) =>
      mergeRows(db.seasons as Table<object, number>, seasons, (season) => season.id),
    /** Inbox entries; those past 30 days go (the server prunes without tombstones). */
    async mergeNotifications(notifications: readonly Notification[]) {
      await mergeRows(db.notifications as Table<object, number>, notifications, (n) => n.id);
      const cutoff = new Date(Date.now() - NOTIFICATION_RETENTION_MS).toISOString();
      await db.notifications.where('updatedAt').below(cutoff).delete();
    },
    async mergeNotificationSettings(settings: NotificationSettings | null) {
      if (!settings) return;
      await mergeRows(
        db.notificationSettings as Table<object, number>,
        [{ ...settings, id: SETTINGS_ROW_ID }],
        (row) => row.id,
      );
    },
    /** A group that left the player's view, with everything in it. */
    async removeGroup(groupId: number) {
      const betIds = await db.bets.where('groupId').equals(groupId).primaryKeys();
      await db.wagers.where('betId').anyOf(betIds).delete();
      await db.betStatistics.bulkDelete(betIds);
      await db.comments.where('groupId').equals(groupId).delete();
      await db.betHistory.where('groupId').equals(groupId).delete();
      await db.seasons.where('groupId').equals(groupId).delete();
      await db.bets.bulkDelete(betIds);
      await db.memberships.where('groupId').equals(groupId).delete();
      await db.groups.delete(groupId);
    },
    /** Every mirrored row (a reset); a group only seen from outside (no version: group-actions.ts loadGroup) stays. */
    async clearServerRows() {
      await Promise.all([
        db.groups.filter((group) => group.version !== undefined).delete(),
        db.memberships.clear(),
        db.bets.clear(),
        db.wagers.clear(),
        db.betStatistics.clear(),
        db.comments.clear(),
        db.betHistory.clear(),
        db.seasons.clear(),
        db.notifications.clear(),
        db.notificationSettings.clear(),
      ]);
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
    return stored && stored.userId === userId ? stored.cursor : MIRROR_START_CURSOR;
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
        await db.outbox.update(entry.id, { status: 'failed', error: outcome.error.message });
        messages.push(outcome.error.message);
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
      await db.memberships.bulkDelete(
        page.removedMemberships.map(
          ({ groupId, userId: memberId }) => [groupId, memberId] as [number, number],
        ),
      );
      await merges.mergeGroups(page.groups);
      await merges.mergeMemberships(page.memberships);
      await merges.mergeBets(page.bets);
      await merges.mergeWagers(page.wagers);
      await merges.mergeStatistics(page.statistics);
      // An older server answers without comments.
      await merges.mergeComments(page.comments ?? []);
      await merges.mergeHistory(page.betHistory ?? []);
      await merges.mergeSeasons(page.seasons ?? []);
      // An older server answers without the inbox.
      await merges.mergeNotifications(page.notifications ?? []);
      await merges.mergeNotificationSettings(page.notificationSettings ?? null);
      await db.meta.put({
        key: CURSOR_KEY,
        value: { userId, cursor: page.cursor } satisfies StoredCursor,
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
