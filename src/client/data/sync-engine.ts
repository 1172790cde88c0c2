import type { UserBubble } from '../../domain/auth';
import { API_BASE, AUTH_BASE } from '../../domain/constants';
import { isGroupMember, type Group, type LeaderboardResponse } from '../../domain/groups';
import type { MemberStateResponse } from '../../domain/member-state';
import { activeGroupStore, type ActiveGroupInfo, type ActiveGroupStore } from './active-group-store';
import type { ApiClient } from './api-client';
import { clearLocalData, db as defaultDb, LAST_SYNCED_KEY, type BetRow, type GroupRow, type HunchDb, type LeaderboardRow } from './db';
import { api as defaultApi, sessionStore } from './session';
import type { SessionStore } from './session-store';

// The sync engine (ARCHITECTURE.md §8): it fills the Dexie mirror from the server, the views
// read the mirror through useLiveQuery.
// - /api/member/state (with the full rows of GET /api/groups?membership=mine) at login,
//   registration, session restore and when the browser comes back online; each answer is
//   written in ONE transaction, and what the server no longer lists is removed;
// - the active group's leaderboard and its members' bubbles whenever the active group changes;
// - signing out, or another user signing in, clears every table and the stored active group.
// Failures are only logged (spec 02 §8: "User-state load failure: only logged").
// Bets: syncMemberState writes the unwageredBets / betsToResolve maps into `bets` with queue flags.

export interface SyncEngineOptions {
  db?: HunchDb;
  api?: ApiClient;
  session?: SessionStore;
  activeGroup?: ActiveGroupStore;
  /** Where the 'online' event comes from; null in tests that do not want it. */
  onlineEvents?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
}

const OWNER_KEY = 'ownerUserId';
/** A sync whose answer was overtaken by a local write fetches again, at most this often. */
const MAX_SYNC_ATTEMPTS = 3;

export type SyncEngine = ReturnType<typeof createSyncEngine>;

export function createSyncEngine({
  db = defaultDb,
  api = defaultApi,
  session = sessionStore,
  activeGroup = activeGroupStore,
  onlineEvents = typeof window === 'undefined' ? null : window,
}: SyncEngineOptions = {}) {
  let isStarted = false;
  let unsubscribers: Array<() => void> = [];
  /** Bumped by every local write: a sync that fetched before it must not overwrite it with older news. */
  let localWrites = 0;
  /** Bumped at sign-out: an answer for the previous session is dropped. */
  let epoch = 0;
  let leaderboardGroupId: number | null = null;
  let clearing: Promise<void> = Promise.resolve();
  /** The syncs running in the background, so a test (or a later shutdown) can wait for quiet. */
  const running = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  };

  const currentUserId = () => session.user?.id ?? null;

  /** Another user signing in on this device starts from an empty mirror. */
  const claimFor = async (userId: number) => {
    const owner = await db.meta.get(OWNER_KEY);
    if (owner && owner.value !== userId) {
      await clearLocalData(db);
      activeGroup.clear();
    }
    if (!owner || owner.value !== userId) await db.meta.put({ key: OWNER_KEY, value: userId });
  };

  const writeMemberState = async (userId: number, state: MemberStateResponse, fullGroups: Group[] | null) => {
    const full = new Map((fullGroups ?? []).map((group) => [group.id, group]));
    const memberships = Object.values(state.currentUserMemberships).filter((m) => m.userId === userId);
    const listedIds = new Set<number>([...Object.values(state.groups).map((g) => g.id), ...memberships.map((m) => m.groupId)]);

    await db.transaction('rw', [db.groups, db.memberships, db.leaderboard, db.bets], async () => {
      const existing = new Map((await db.groups.toArray()).map((group) => [group.id, group]));
      // A group the player viewed from outside (a public group they did not join) is not theirs
      // to lose; one they belonged to and the server no longer lists is gone (left or removed).
      const staleGroupIds = [...existing.values()]
        .filter((group) => !listedIds.has(group.id) && (!group.memberUserIds || isGroupMember({ admins: group.admins ?? [], memberUserIds: group.memberUserIds }, userId)))
        .map((group) => group.id);
      await db.groups.bulkDelete(staleGroupIds);
      await db.leaderboard.where('groupId').anyOf(staleGroupIds).delete();

      const rows: GroupRow[] = [...listedIds].map((id) => {
        const listed = state.groups[String(id)];
        const details = full.get(id);
        const known = existing.get(id);
        const name = listed?.name ?? details?.name ?? known?.name ?? memberships.find((m) => m.groupId === id)?.userName ?? '';
        return { ...known, ...details, id, name };
      });
      await db.groups.bulkPut(rows);

      const mine = await db.memberships.where('userId').equals(userId).primaryKeys();
      await db.memberships.bulkDelete(mine.filter(([groupId]) => !listedIds.has(groupId)));
      await db.memberships.bulkPut(memberships);

      await writeQueuedBets(state, staleGroupIds);
    });
  };

  /**
   * The unwageredBets / betsToResolve maps into `bets` with their queue flags. A bet the
   * answer no longer lists leaves the queues; its row goes too unless a group list or the bet
   * page loaded it (`isListed`), so resolved bets stay readable there. Runs inside
   * writeMemberState's transaction.
   */
  const writeQueuedBets = async (state: MemberStateResponse, staleGroupIds: number[]) => {
    const unwagered = new Set(Object.values(state.unwageredBets).map((bet) => bet.id));
    const toResolve = new Set(Object.values(state.betsToResolve).map((bet) => bet.id));
    const listed = new Map([...Object.values(state.unwageredBets), ...Object.values(state.betsToResolve)].map((bet) => [bet.id, bet]));
    const known = new Map((await db.bets.bulkGet([...listed.keys()])).filter((row): row is BetRow => row !== undefined).map((row) => [row.id, row]));
    await db.bets.bulkPut(
      [...listed.values()].map((bet) => ({
        // The queue maps may lack the live totals a group list or the bet page brought.
        ...known.get(bet.id),
        ...bet,
        isUnwagered: unwagered.has(bet.id),
        isToResolve: toResolve.has(bet.id),
      })),
    );
    const dropped = await db.bets.filter((row) => !listed.has(row.id) && (row.isUnwagered === true || row.isToResolve === true)).toArray();
    await db.bets.bulkDelete(dropped.filter((row) => !row.isListed).map((row) => row.id));
    await db.bets.bulkPut(dropped.filter((row) => row.isListed).map((row) => ({ ...row, isUnwagered: false, isToResolve: false })));
    // The bets of a group the player left go with it.
    await db.bets.where('groupId').anyOf(staleGroupIds).delete();
  };

  /** The player's groups as active-group candidates, first by id (spec 02 §4: "the first of the user's groups"). */
  const myGroupChoices = async (userId: number): Promise<ActiveGroupInfo[]> => {
    const memberships = await db.memberships.where('userId').equals(userId).toArray();
    const groups = await db.groups.bulkGet(memberships.map((m) => m.groupId));
    return memberships
      .map((membership, index) => ({ id: membership.groupId, name: groups[index]?.name ?? '', availablePoints: membership.availablePoints }))
      .sort((a, b) => a.id - b.id);
  };

  /** GET /api/member/state (and the full group rows) into Dexie; then keeps the active group valid. */
  const syncMemberState = async (): Promise<void> => {
    const userId = currentUserId();
    if (userId === null) return;
    const startEpoch = epoch;
    try {
      await clearing;
      await claimFor(userId);
      for (let attempt = 1; attempt <= MAX_SYNC_ATTEMPTS; attempt += 1) {
        const writesBefore = localWrites;
        const [state, groups] = await Promise.all([
          api.get<MemberStateResponse>(`${API_BASE}/member/state`),
          // The full rows (description, privacy, invite code, members) make the group pages
          // readable offline; member/state alone names each group only.
          api.get<Group[]>(`${API_BASE}/groups?membership=mine`).catch((error: unknown) => {
            console.warn('Loading my groups failed; keeping what this device knows', error);
            return null;
          }),
        ]);
        if (epoch !== startEpoch || currentUserId() !== userId) return;
        if (localWrites !== writesBefore && attempt < MAX_SYNC_ATTEMPTS) continue;
        await writeMemberState(userId, state, groups);
        // When data was last brought up to date: the offline indicator says so (issue 7).
        await db.meta.put({ key: LAST_SYNCED_KEY, value: Date.now() });
        break;
      }
      if (epoch !== startEpoch) return;
      activeGroup.reconcile(await myGroupChoices(userId));
    } catch (error) {
      console.warn('Loading the member state failed', error);
      // Offline with nothing stored: choose from what this device already knows.
      if (epoch === startEpoch && activeGroup.getSnapshot() === undefined && currentUserId() === userId) {
        activeGroup.reconcile(await myGroupChoices(userId).catch(() => []));
      }
    }
  };

  /** Member bubbles (spec 01 §3: id, displayName, username, email) for the given users. */
  const loadUserBubbles = async (userIds: readonly number[]): Promise<void> => {
    const ids = [...new Set(userIds)].sort((a, b) => a - b);
    if (ids.length === 0) return;
    const bubbles = await api.get<UserBubble[]>(`${AUTH_BASE}/users/ids?ids=${ids.join(',')}`);
    await db.userBubbles.bulkPut(bubbles);
  };

  /** GET /api/groups/{id}/leaderboard into Dexie (replacing that group's rows), then its members' bubbles. */
  const refreshLeaderboard = async (groupId: number): Promise<void> => {
    const startEpoch = epoch;
    try {
      await clearing;
      const { users } = await api.get<LeaderboardResponse>(`${API_BASE}/groups/${groupId}/leaderboard`);
      if (epoch !== startEpoch) return;
      const rows: LeaderboardRow[] = users.map((user) => ({ groupId, userId: user.id, name: user.name, points: user.points }));
      await db.transaction('rw', db.leaderboard, async () => {
        await db.leaderboard.where('groupId').equals(groupId).delete();
        await db.leaderboard.bulkPut(rows);
      });
      const group = await db.groups.get(groupId);
      await loadUserBubbles([...users.map((user) => user.id), ...(group?.memberUserIds ?? [])]);
    } catch (error) {
      // Spec 02 §8: "Leaderboard failure: only logged."
      console.warn(`Loading the leaderboard of group ${groupId} failed`, error);
    }
  };

  const onActiveGroupChange = () => {
    const id = activeGroup.getSnapshot()?.id ?? null;
    if (id === leaderboardGroupId) return;
    leaderboardGroupId = id;
    if (id !== null && currentUserId() !== null) void track(refreshLeaderboard(id));
  };

  const syncAll = async () => {
    const before = leaderboardGroupId;
    await syncMemberState();
    const id = activeGroup.getSnapshot()?.id ?? null;
    // A changed active group has already asked for its leaderboard (onActiveGroupChange);
    // an unchanged one is refreshed here.
    if (id !== null && id === before) await refreshLeaderboard(id);
  };

  const signOut = () => {
    epoch += 1;
    leaderboardGroupId = null;
    activeGroup.clear();
    clearing = clearLocalData(db).catch((error: unknown) => console.warn('Clearing local data failed', error));
    return clearing;
  };

  return {
    /** Starts listening; syncs at once when someone is already signed in (a restored session). Idempotent. */
    start() {
      if (isStarted) return;
      isStarted = true;
      const onOnline = () => {
        if (currentUserId() !== null) void track(syncAll());
      };
      unsubscribers = [
        session.events.on('login', () => void track(syncAll())),
        session.events.on('register', () => void track(syncAll())),
        session.events.on('restored', () => void track(syncAll())),
        session.events.on('logout', () => void track(signOut())),
        activeGroup.subscribe(onActiveGroupChange),
      ];
      if (onlineEvents) {
        onlineEvents.addEventListener('online', onOnline);
        unsubscribers.push(() => onlineEvents.removeEventListener('online', onOnline));
      }
      leaderboardGroupId = activeGroup.getSnapshot()?.id ?? null;
      if (currentUserId() !== null) void track(syncAll());
    },
    stop() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers = [];
      isStarted = false;
    },
    syncMemberState,
    refreshLeaderboard,
    loadUserBubbles,
    /** Actions wrap their Dexie writes in this, so a sync already in flight fetches again instead of undoing them. */
    async applyLocal<T>(write: () => Promise<T>): Promise<T> {
      localWrites += 1;
      await clearing;
      return write();
    },
    /** Resolves once no background sync is running. */
    async whenIdle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    /** What the logout event runs: forget the session's data (tests call it directly). */
    signOut,
    /** The whole sync: member state, then the active group's leaderboard. */
    syncAll,
  };
}

export const syncEngine = createSyncEngine();
