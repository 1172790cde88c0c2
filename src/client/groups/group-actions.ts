import { API_BASE } from '../../domain/constants';
import type { CreateGroupInput, Group, Membership, PublicGroupSummary } from '../../domain/groups';
import { activeGroupStore } from '../data/active-group-store';
import { ApiError } from '../data/api-client';
import { db } from '../data/db';
import { api, sessionStore } from '../data/session';
import { syncEngine } from '../data/sync-engine';

// The group writes of spec 02 §4 in one place: each calls the API, then records the answer in
// Dexie, where the views see it through their live queries. The outbox issue moves them
// behind an optimistic write plus a queued request with an Idempotency-Key; the screens call
// these same functions and need not change.

function currentUser() {
  const user = sessionStore.user;
  if (!user) throw new ApiError(401, { message: 'Please sign in again.', code: 'unauthorized' });
  return user;
}

/** The group and the player's membership in it, in one transaction; then it becomes the active group. */
async function saveJoinedGroup(group: Group, membership: Membership): Promise<void> {
  await syncEngine.applyLocal(() =>
    db.transaction('rw', [db.groups, db.memberships], async () => {
      await db.groups.put(group);
      await db.memberships.put(membership);
    }),
  );
  // Spec 02 §4: the joined or created group becomes the active group.
  activeGroupStore.set({ id: group.id, name: group.name, availablePoints: membership.availablePoints });
}

/** The server's word on the player's points; a rejoin restores old points, so a guess would be wrong. */
async function fetchMyMembership(group: Group): Promise<Membership> {
  const user = currentUser();
  try {
    return await api.get<Membership>(`${API_BASE}/groups/${group.id}/membership`);
  } catch (error) {
    console.warn('Loading the new membership failed; showing the starting points until the next sync', error);
    return { groupId: group.id, userId: user.id, userName: user.displayName, totalPoints: group.defaultPoints, availablePoints: group.defaultPoints };
  }
}

/** POST /groups: the creator is its first member, holding the starting points (spec 02 §4). */
export async function createGroup(input: CreateGroupInput): Promise<Group> {
  const user = currentUser();
  const group = await api.post<Group>(`${API_BASE}/groups`, input);
  await saveJoinedGroup(group, {
    groupId: group.id,
    userId: user.id,
    userName: user.displayName,
    totalPoints: group.defaultPoints,
    availablePoints: group.defaultPoints,
    role: 'creator',
  });
  return group;
}

/** POST /groups/join-public: a public group is joined by its name (spec 02 §4). */
export async function joinPublicGroup(groupName: string): Promise<Group> {
  const group = await api.post<Group>(`${API_BASE}/groups/join-public`, { groupName });
  await saveJoinedGroup(group, await fetchMyMembership(group));
  return group;
}

/** POST /groups/join-private with the group id and its invite code. */
export async function joinPrivateGroup(groupId: number, inviteCode: string): Promise<Group> {
  const group = await api.post<Group>(`${API_BASE}/groups/join-private`, { groupId, inviteCode });
  await saveJoinedGroup(group, await fetchMyMembership(group));
  return group;
}

/** POST /groups/{id}/leave; the active group moves to another of the player's groups, or none. */
export async function leaveGroup(groupId: number): Promise<void> {
  const user = currentUser();
  await api.post(`${API_BASE}/groups/${groupId}/leave`);
  await syncEngine.applyLocal(() =>
    db.transaction('rw', [db.groups, db.memberships, db.leaderboard], async () => {
      await db.memberships.delete([groupId, user.id]);
      await db.leaderboard.where('groupId').equals(groupId).delete();
      await db.groups.delete(groupId);
    }),
  );
  if (activeGroupStore.getSnapshot()?.id === groupId) {
    const memberships = await db.memberships.where('userId').equals(user.id).sortBy('groupId');
    const groups = await db.groups.bulkGet(memberships.map((m) => m.groupId));
    activeGroupStore.reconcile(memberships.map((m, i) => ({ id: m.groupId, name: groups[i]?.name ?? '', availablePoints: m.availablePoints })));
  }
}

/** What GET /groups/{id} said, for the group page to choose what to show. */
export type GroupLoadStatus = 'loaded' | 'forbidden' | 'missing' | 'unreachable';
export interface GroupLoadResult {
  status: GroupLoadStatus;
  group?: Group;
}

/**
 * GET /groups/{id} into Dexie, with its members' bubbles. A 403 (a private group the player is
 * not in) and a 404 remove any stale copy; a network failure keeps it, readable offline.
 */
export async function loadGroup(groupId: number): Promise<GroupLoadResult> {
  try {
    const group = await api.get<Group>(`${API_BASE}/groups/${groupId}`);
    await syncEngine.applyLocal(() => db.groups.put(group));
    syncEngine.loadUserBubbles(group.memberUserIds).catch((error: unknown) => console.warn('Loading the members failed', error));
    return { status: 'loaded', group };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
      await syncEngine.applyLocal(() => db.groups.delete(groupId));
      return { status: error.status === 403 ? 'forbidden' : 'missing' };
    }
    console.warn(`Loading group ${groupId} failed`, error);
    return { status: 'unreachable' };
  }
}

/** The join form's typeahead: public groups whose name contains the query (GET /groups/public?search=). */
export function searchPublicGroups(query: string, signal?: AbortSignal): Promise<PublicGroupSummary[]> {
  return api.get<PublicGroupSummary[]>(`${API_BASE}/groups/public?search=${encodeURIComponent(query)}`, { signal });
}

/** The group selector: make one of the player's groups the active group. */
export function chooseActiveGroup(group: { id: number; name: string; availablePoints: number }) {
  activeGroupStore.set(group);
}

/** Fresh standings when a screen shows them (the socket keeps them live once it lands). */
export function refreshLeaderboard(groupId: number): Promise<void> {
  return syncEngine.refreshLeaderboard(groupId);
}

/** Ask the server again which groups the player is in (after a group turned out to be gone). */
export function refreshMyGroups(): Promise<void> {
  return syncEngine.syncMemberState();
}
