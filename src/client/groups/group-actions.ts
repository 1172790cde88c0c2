import { API_BASE } from '../../domain/constants';
import type { CreateGroupInput, Group, Membership, PublicGroupSummary } from '../../domain/groups';
import { activeGroupStore } from '../data/active-group-store';
import { ApiError } from '../data/api-client';
import { db, type GroupRow } from '../data/db';
import { outbox, OUTBOX_TEXT, type RowChange } from '../data/outbox';
import { toast } from '../shell/toast-store';
import { api, sessionStore } from '../data/session';
import { syncEngine } from '../data/sync-engine';

// The group writes of spec 02 §4 in one place. Creating and joining go through the outbox
// (data/outbox.ts): an optimistic change in Dexie marked pending, a request with an
// Idempotency-Key, sent now or when the network returns; the views see it through their live
// queries. A refusal is rolled back and rejects, so the screens show the message as before.

function currentUser() {
  const user = sessionStore.user;
  if (!user) throw new ApiError(401, { message: 'Please sign in again.', code: 'unauthorized' });
  return user;
}

/** The outbox's answer to the screens: offline, say when it goes out (DESIGN.md voice). */
function announceQueued(kind: 'createGroup' | 'joinGroup') {
  toast.info(OUTBOX_TEXT.queued[kind]);
}

/**
 * POST /groups through the outbox: the group shows at once under a temporary (negative) id,
 * marked pending, with the creator holding the starting points (spec 02 §4) and as the active
 * group; the server's answer replaces it. Offline, it resolves with the pending group.
 */
export async function createGroup(input: CreateGroupInput): Promise<Group> {
  const user = currentUser();
  const tempId = outbox.tempId();
  const now = new Date().toISOString();
  const pending: Group = {
    id: tempId,
    name: input.name,
    description: input.description ?? null,
    privacy: input.privacy,
    ...(input.inviteCode !== undefined ? { inviteCode: input.inviteCode } : {}),
    defaultPoints: input.defaultPoints,
    createdByUserId: user.id,
    admins: [user.id],
    memberUserIds: [user.id],
    createdAt: now,
    updatedAt: now,
  };
  const membership: Membership = {
    groupId: tempId,
    userId: user.id,
    userName: user.displayName,
    totalPoints: input.defaultPoints,
    availablePoints: input.defaultPoints,
    role: 'creator',
  };
  const write = outbox.runWrite<Group>({
    kind: 'createGroup',
    method: 'POST',
    path: `${API_BASE}/groups`,
    body: input,
    meta: { tempId },
    changes: [
      { table: 'groups', key: tempId, value: pending },
      { table: 'memberships', key: [tempId, user.id], value: membership },
    ],
  });
  // Spec 02 §4: the created group becomes the active group (the real id replaces it on the answer).
  activeGroupStore.set({ id: tempId, name: input.name, availablePoints: input.defaultPoints });
  try {
    const result = await write;
    if (result.status === 'sent') return result.response;
  } catch (error) {
    if (activeGroupStore.getSnapshot()?.id === tempId) await reconcileActiveGroup(user.id);
    throw error;
  }
  announceQueued('createGroup');
  return pending;
}

/**
 * A join through the outbox. When this device knows the group (a public group viewed, an
 * invite link), the membership shows at once with the starting points, marked pending; the
 * server's answer (and its word on the points: a rejoin restores old ones) replaces it.
 */
async function joinThroughOutbox(path: string, body: unknown, known: GroupRow | undefined): Promise<Group> {
  const user = currentUser();
  const changes: RowChange[] = [];
  if (known && known.defaultPoints !== undefined && !(await db.memberships.get([known.id, user.id]))) {
    changes.push({
      table: 'memberships',
      key: [known.id, user.id],
      value: { groupId: known.id, userId: user.id, userName: user.displayName, totalPoints: known.defaultPoints, availablePoints: known.defaultPoints } satisfies Membership,
    });
  }
  const result = await outbox.runWrite<Group>({ kind: 'joinGroup', method: 'POST', path, body, changes, meta: known ? { groupId: known.id } : undefined });
  if (result.status === 'sent') return result.response;
  announceQueued('joinGroup');
  return { description: null, privacy: 'public', defaultPoints: 0, createdByUserId: 0, admins: [], memberUserIds: [], createdAt: '', updatedAt: '', ...known } as Group;
}

/** POST /groups/join-public: a public group is joined by its name (spec 02 §4). */
export async function joinPublicGroup(groupName: string): Promise<Group> {
  const known = await db.groups.where('name').equals(groupName).first();
  return joinThroughOutbox(`${API_BASE}/groups/join-public`, { groupName }, known ?? { id: outbox.tempId(), name: groupName });
}

/** POST /groups/join-private with the group id and its invite code. */
export async function joinPrivateGroup(groupId: number, inviteCode: string): Promise<Group> {
  const known = await db.groups.get(groupId);
  return joinThroughOutbox(`${API_BASE}/groups/join-private`, { groupId, inviteCode }, known ?? { id: groupId, name: '' });
}

/** After a refused create: the active group moves to another of the player's groups, or none. */
async function reconcileActiveGroup(userId: number) {
  const memberships = await db.memberships.where('userId').equals(userId).sortBy('groupId');
  const groups = await db.groups.bulkGet(memberships.map((m) => m.groupId));
  activeGroupStore.reconcile(memberships.map((m, i) => ({ id: m.groupId, name: groups[i]?.name ?? '', availablePoints: m.availablePoints })));
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
    await reconcileActiveGroup(user.id);
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
