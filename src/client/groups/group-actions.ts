import { API_BASE } from '../../domain/constants';
import type {
  CreateGroupInput,
  Group,
  PublicGroupSummary,
  UpdateGroupRequest,
} from '../../domain/groups';
import { activeGroupStore } from '../data/active-group-store';
import { ApiError, signedOutError } from '../data/api-client';
import { db } from '../data/db';
import { localData } from '../data/local-data';
import { api, sessionStore } from '../data/session';
import {
  addBackMemberMutator,
  createGroupMutator,
  joinPrivateGroupMutator,
  joinPublicGroupMutator,
  leaveGroupMutator,
  removeMemberMutator,
  rotateInviteCodeMutator,
  setFloorTopUpMutator,
  updateGroupMutator,
  type JoinGroupArgs,
} from '../data/group-mutators';

// The group writes of docs/groups-and-bets.md §4 in one place. Creating, joining and leaving run named mutators
// through the outbox (data/group-mutators.ts, data/outbox.ts): the change shows at once in the
// mirror, marked pending, and goes out now or when the network returns; the pull that follows
// brings the server's rows. A refusal rejects, so the screens show the message as before.

function currentUser() {
  const user = sessionStore.user;
  if (!user) throw signedOutError();
  return user;
}

/**
 * POST /groups: the group shows at once under a temporary (negative) id, marked pending, with
 * the creator holding the starting points (docs/groups-and-bets.md §4), and becomes the active group; the
 * server's id replaces the temporary one on the answer. Offline, it resolves with the pending group.
 */
export async function createGroup(input: CreateGroupInput): Promise<Group> {
  currentUser();
  const tempId = localData.outbox.tempId();
  const write = localData.run(createGroupMutator, { tempId, input });
  // docs/groups-and-bets.md §4: the created group becomes the active group (the real id replaces it on the answer).
  activeGroupStore.set({ id: tempId, name: input.name, availablePoints: input.defaultPoints });
  try {
    const result = await write;
    if (result.status === 'sent') return result.response;
  } catch (error) {
    await localData.syncEngine.reconcileActiveGroup();
    throw error;
  }
  return ((await db.groups.get(tempId)) ?? { id: tempId, ...input }) as Group;
}

/** A join: the membership shows at once when this device knows the group; the server's answer makes it the active group. */
async function join(args: JoinGroupArgs, knownId: number | undefined): Promise<Group> {
  currentUser();
  const result =
    args.privacy === 'public'
      ? await localData.run(joinPublicGroupMutator, args)
      : await localData.run(joinPrivateGroupMutator, args);
  if (result.status === 'sent') return result.response;
  const known = knownId === undefined ? undefined : await db.groups.get(knownId);
  return {
    description: null,
    privacy: args.privacy,
    defaultPoints: 0,
    createdByUserId: 0,
    admins: [],
    memberUserIds: [],
    createdAt: '',
    updatedAt: '',
    id: knownId ?? 0,
    name: args.privacy === 'public' ? args.groupName : '',
    ...known,
  } as Group;
}

/** POST /groups/join-public: a public group is joined by its name (docs/groups-and-bets.md §4). */
export async function joinPublicGroup(groupName: string): Promise<Group> {
  const known = await db.groups.where('name').equals(groupName).first();
  return join({ privacy: 'public', groupName, ...(known ? { groupId: known.id } : {}) }, known?.id);
}

/** POST /groups/join-private with the group id and its invite code. */
export async function joinPrivateGroup(groupId: number, inviteCode: string): Promise<Group> {
  return join({ privacy: 'private', groupId, inviteCode }, groupId);
}

/** POST /groups/{id}/leave: the group leaves the mirror at once; the active group moves to another of the player's groups, or none. */
export async function leaveGroup(groupId: number): Promise<void> {
  currentUser();
  await localData.run(leaveGroupMutator, { groupId });
  await localData.syncEngine.reconcileActiveGroup();
}

/**
 * PATCH /groups/{id}/settings: an admin turns the weekly top-up on or off (shown at once, sent
 * now or when back online). The toggle waits for nothing: a refusal is the outbox's toast.
 */
export async function setFloorTopUp(groupId: number, floorTopUp: boolean): Promise<void> {
  currentUser();
  await localData.send(setFloorTopUpMutator, { groupId, floorTopUp });
}

/**
 * PATCH /groups/{id}: an admin renames the group or changes its description, shown at once
 * (the header's group name too) and sent now or when back online. A refusal (a public name
 * taken) rejects with the server's message, and the old details come back.
 */
export async function updateGroup(groupId: number, changes: UpdateGroupRequest): Promise<void> {
  currentUser();
  try {
    await localData.run(updateGroupMutator, { groupId, changes });
  } finally {
    await localData.syncEngine.reconcileActiveGroup();
  }
}

/**
 * DELETE /groups/{id}/members/{userId}: an admin removes a member (the group policy says whom).
 * The member leaves the list at once; the server ends their access and their devices drop
 * the group. Sent now or when back online.
 */
export async function removeMember(
  groupId: number,
  member: { userId: number; userName: string },
): Promise<void> {
  currentUser();
  await localData.run(removeMemberMutator, { groupId, ...member });
}

/**
 * POST /groups/{id}/members/{userId}/add-back: an admin adds back a player an admin removed.
 * They move from "Removed" to the members at once; sent now or when back online. A refusal
 * rejects with the server's message.
 */
export async function addBackMember(
  groupId: number,
  member: { userId: number; userName: string },
): Promise<void> {
  currentUser();
  await localData.run(addBackMemberMutator, { groupId, ...member });
}

/**
 * POST /groups/{id}/invite-code: an admin gives a private group a new invite code; the old one
 * (and every link carrying it) stops working. Nothing is drawn before the answer: the code is
 * the server's; the mirror's group row takes it then (data/group-mutators.ts). Resolves with
 * the new code, or undefined when it goes out later (offline: the outbox has said so).
 */
export async function rotateInviteCode(groupId: number): Promise<string | undefined> {
  currentUser();
  const result = await localData.run(rotateInviteCodeMutator, { groupId });
  return result.status === 'sent' ? result.response.inviteCode : undefined;
}

/** What GET /groups/{id} said, for the group page to choose what to show. */
export type GroupLoadStatus = 'loaded' | 'forbidden' | 'missing' | 'unreachable';
export interface GroupLoadResult {
  status: GroupLoadStatus;
  group?: Group;
}

/**
 * GET /groups/{id}, for the group page. A group of the player's comes with the mirror (the
 * answer does not replace it); a group seen from outside is stored without a version until the
 * next reset. A 403 (a private group the player is not in) and a 404 remove such a copy, and
 * ask for a sync when the mirror held it (the player was removed); a network failure keeps it.
 */
export async function loadGroup(groupId: number): Promise<GroupLoadResult> {
  try {
    const group = await api.get<Group>(`${API_BASE}/groups/${groupId}`);
    const stored = await db.groups.get(groupId);
    if (!stored || stored.version === undefined) await db.groups.put(group);
    return { status: 'loaded', group };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
      const stored = await db.groups.get(groupId);
      if (stored?.version === undefined) await db.groups.delete(groupId);
      else void localData.sync();
      return { status: error.status === 403 ? 'forbidden' : 'missing' };
    }
    console.warn(`Loading group ${groupId} failed`, error);
    return { status: 'unreachable' };
  }
}

/** The join form's typeahead: public groups whose name contains the query (GET /groups/public?search=). */
export function searchPublicGroups(
  query: string,
  signal?: AbortSignal,
): Promise<PublicGroupSummary[]> {
  return api.get<PublicGroupSummary[]>(
    `${API_BASE}/groups/public?search=${encodeURIComponent(query)}`,
    { signal },
  );
}

/** The group selector: make one of the player's groups the active group. */
export function chooseActiveGroup(group: { id: number; name: string; availablePoints: number }) {
  activeGroupStore.set(group);
}

/** Ask the server again which groups the player is in (after a group turned out to be gone). */
export function refreshMyGroups(): Promise<void> {
  return localData.sync();
}
