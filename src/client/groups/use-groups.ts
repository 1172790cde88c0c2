import { useLiveQuery } from 'dexie-react-hooks';
import type { Membership } from '../../domain/groups';
import { isAdminRole, type GroupRole, type GroupRoster } from '../../domain/policies/group-policy';
import { db, type GroupRow, type MembershipRow } from '../data/db';

// The groups views' reads: live queries on the Dexie mirror (docs/architecture.md §8), so a sync,
// an action or a socket event shows up on screen without any view asking for it.
// Each returns undefined while the first answer is pending.

export interface MyGroup {
  group: GroupRow;
  membership: Membership;
}

/** The signed-in player's groups with their points, by name. */
export function useMyGroups(userId: number | undefined): MyGroup[] | undefined {
  return useLiveQuery(async () => {
    if (userId === undefined) return [];
    const memberships = await db.memberships.where('userId').equals(userId).toArray();
    const groups = await db.groups.bulkGet(memberships.map((m) => m.groupId));
    return memberships
      .map((membership, index) => ({
        membership,
        group: groups[index] ?? { id: membership.groupId, name: '' },
      }))
      .sort((a, b) => a.group.name.localeCompare(b.group.name) || a.group.id - b.group.id);
  }, [userId]);
}

/** Who is in the group as the mirror knows it, for the group policy (src/domain/policies). */
export function rosterOf(group: GroupRow): GroupRoster {
  return {
    createdByUserId: group.createdByUserId ?? -1,
    admins: group.admins ?? [],
    memberUserIds: group.memberUserIds ?? [],
  };
}

/**
 * The viewer's role in the group now as this device knows it, for the policies (the bet page's
 * through `bets/mirror-policy.ts`, the group page's directly): null when not a member.
 */
export function mirrorRole(facts: {
  userId: number;
  membership: { role?: string | undefined } | null | undefined;
  group: { admins?: readonly number[] | undefined } | null | undefined;
}): GroupRole {
  const { userId, membership, group } = facts;
  if (!membership) return null;
  // The group's admin list is the newer word when the device has it.
  const isAdmin = group?.admins ? group.admins.includes(userId) : isAdminRole(membership.role);
  return isAdmin ? 'admin' : 'member';
}

/** One group as this device knows it; null when it knows nothing of it. */
export function useGroup(groupId: number | undefined): GroupRow | null | undefined {
  return useLiveQuery(
    async () => (groupId === undefined ? null : ((await db.groups.get(groupId)) ?? null)),
    [groupId],
  );
}

/** The player's membership in a group; null when they are not a member. */
export function useMyMembership(
  groupId: number | undefined,
  userId: number | undefined,
): Membership | null | undefined {
  return useLiveQuery(
    async () =>
      groupId === undefined || userId === undefined
        ? null
        : ((await db.memberships.get([groupId, userId])) ?? null),
    [groupId, userId],
  );
}

/** Every member of a group (the mirror holds them all), the player first, then by name. */
export function useGroupMembers(
  groupId: number | undefined,
  userId: number | undefined,
): MembershipRow[] | undefined {
  return useLiveQuery(async () => {
    if (groupId === undefined) return [];
    const members = await db.memberships.where('groupId').equals(groupId).toArray();
    return members.sort(
      (a, b) =>
        Number(b.userId === userId) - Number(a.userId === userId) ||
        a.userName.localeCompare(b.userName) ||
        a.userId - b.userId,
    );
  }, [groupId, userId]);
}
