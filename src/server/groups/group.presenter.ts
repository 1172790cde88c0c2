import type {
  Group,
  LeaderboardResponse,
  Membership,
  PublicGroupSummary,
  RemovedMember,
} from '../../domain/groups';
import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { membershipAsSeenBy, rankLeaderboard } from '../../domain/groups';
import { isAdminRole } from '../../domain/policies/group-policy';
import { stakeTiersOf } from '../../domain/stakes';
import type { Executor } from '../db/connect';
import { memberships, users, type GroupRow, type MembershipRow } from '../db/schema';
import { isoTime } from '../iso-time';

// Never send a database row (docs/conventions.md): these shape groups and memberships into the
// response schemas of src/domain/groups.ts.

/** A current member of a group as the presenters need them. */
export interface GroupMember {
  userId: number;
  role: 'member' | 'admin';
}

/**
 * A group as `viewerId` may see it. The invite code goes only to current members of a
 * private group (they share it); `admins` and `memberUserIds` list current members only,
 * ascending, admins included in both (docs/groups-and-bets.md §3, §6); the players an admin
 * removed (`removed`, readRemovedMembers) only to its admins.
 */
export function presentGroup(
  row: GroupRow,
  members: readonly GroupMember[],
  viewerId: number,
  removed: readonly RemovedMember[] = [],
): Group {
  const memberUserIds = members.map((member) => member.userId).sort((a, b) => a - b);
  const admins = members
    .filter((member) => isAdminRole(member.role))
    .map((member) => member.userId)
    .sort((a, b) => a - b);
  const isViewerMember = memberUserIds.includes(viewerId);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    privacy: row.privacy,
    ...(row.privacy === 'private' && row.inviteCode && isViewerMember
      ? { inviteCode: row.inviteCode }
      : {}),
    defaultPoints: row.defaultPoints,
    ...(isViewerMember ? { floorTopUp: row.floorTopUp } : {}),
    stakeTiers: [...stakeTiersOf(row)],
    createdByUserId: row.createdByUserId,
    admins,
    memberUserIds,
    ...(removed.length > 0 && admins.includes(viewerId) ? { removedMembers: [...removed] } : {}),
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

/** Groups as `viewerId` may see them, with their current member lists (one query for all). */
export async function presentGroups(
  tx: Executor,
  rows: readonly GroupRow[],
  viewerId: number,
): Promise<Group[]> {
  const byGroup = new Map<number, GroupMember[]>(rows.map((row) => [row.id, []]));
  if (rows.length > 0) {
    const members = await tx
      .select({ groupId: memberships.groupId, userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .where(and(inArray(memberships.groupId, [...byGroup.keys()]), isNull(memberships.leftAt)));
    for (const member of members)
      byGroup.get(member.groupId)?.push({ userId: member.userId, role: member.role });
  }
  const removed = await readRemovedMembers(tx, adminGroupIds(byGroup, viewerId));
  return rows.map((row) =>
    presentGroup(row, byGroup.get(row.id) ?? [], viewerId, removed.get(row.id)),
  );
}

/** The groups of `members` (by group) that `viewerId` administers now. */
export function adminGroupIds(
  members: ReadonlyMap<number, readonly GroupMember[]>,
  viewerId: number,
): number[] {
  return [...members]
    .filter(([, list]) => list.some((m) => m.userId === viewerId && isAdminRole(m.role)))
    .map(([groupId]) => groupId);
}

/**
 * The players an admin removed from each of `groupIds` (or barred after they left), by name
 * as the admins' "Add back" lists them; a deleted account never comes back, so it is not listed.
 */
export async function readRemovedMembers(
  tx: Executor,
  groupIds: readonly number[],
): Promise<Map<number, RemovedMember[]>> {
  const byGroup = new Map<number, RemovedMember[]>();
  if (groupIds.length === 0) return byGroup;
  const rows = await tx
    .select({
      groupId: memberships.groupId,
      userId: memberships.userId,
      userName: users.displayName,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        inArray(memberships.groupId, [...groupIds]),
        isNotNull(memberships.leftAt),
        isNotNull(memberships.removedAt),
        isNull(users.deletedAt),
      ),
    )
    .orderBy(asc(memberships.groupId), asc(users.displayName), asc(memberships.userId));
  for (const { groupId, ...member } of rows) {
    const list = byGroup.get(groupId) ?? [];
    list.push(member);
    byGroup.set(groupId, list);
  }
  return byGroup;
}

/** One group as `viewerId` may see it; see presentGroups. */
export async function presentOneGroup(
  tx: Executor,
  row: GroupRow,
  viewerId: number,
): Promise<Group> {
  return (await presentGroups(tx, [row], viewerId))[0]!;
}

/**
 * A membership with the member's display name, as `viewerId` may see it (the domain's
 * membershipAsSeenBy: another member's available points read as their total; null for an
 * announcement to the whole group); `role` is the stored one (the creator is an admin;
 * Group.createdByUserId tells who created it).
 */
export function presentMembership(
  row: MembershipRow,
  userName: string,
  viewerId: number | null,
): Membership {
  return membershipAsSeenBy(
    {
      groupId: row.groupId,
      userId: row.userId,
      userName,
      totalPoints: row.totalPoints,
      availablePoints: row.availablePoints,
      role: row.role,
    },
    viewerId,
  );
}

export function presentPublicGroupSummary(
  row: Pick<GroupRow, 'id' | 'name' | 'description'>,
  memberCount: number,
): PublicGroupSummary {
  return { id: row.id, name: row.name, description: row.description, memberCount };
}

/** Current members by total points descending, ties by user id (docs/groups-and-bets.md §2). */
export function presentLeaderboard(
  rows: ReadonlyArray<{ userId: number; userName: string; totalPoints: number }>,
): LeaderboardResponse {
  const ranked = rankLeaderboard(
    rows.map((row) => ({ id: row.userId, name: row.userName, points: row.totalPoints })),
  );
  return { users: ranked.map(({ id, name, points }) => ({ id, name, points })) };
}
