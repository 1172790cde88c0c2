import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/connect';
import { prepared } from '../db/prepared';
import { groups, memberships, users, type MembershipRow } from '../db/schema';

// Reads of memberships: who is a member, admin or known to whom. Other features (bets, push,
// sockets) call these inside their own transaction instead of reading the table themselves.

// The statements every wager sends (prepared once, see db/prepared.ts).
const membershipByKey = prepared<MembershipRow[], { groupId: number; userId: number }>(
  'findMembership',
  (tx) =>
    tx
      .select()
      .from(memberships)
      .where(
        and(
          eq(memberships.groupId, sql.placeholder('groupId')),
          eq(memberships.userId, sql.placeholder('userId')),
        ),
      )
      .limit(1),
);

/** The membership row, whether active or left; undefined when the user never joined. */
export async function findMembership(
  tx: Executor,
  groupId: number,
  userId: number,
): Promise<MembershipRow | undefined> {
  const [row] = await membershipByKey(tx, { groupId, userId });
  return row;
}

/** The membership of a user who is in the group now (not left). */
export async function findActiveMembership(
  tx: Executor,
  groupId: number,
  userId: number,
): Promise<MembershipRow | undefined> {
  const row = await findMembership(tx, groupId, userId);
  return row && row.leftAt === null ? row : undefined;
}

/** A group's name, for texts other features write about it (push notifications); undefined when it does not exist. */
export async function findGroupName(tx: Executor, groupId: number): Promise<string | undefined> {
  const [row] = await tx
    .select({ name: groups.name })
    .from(groups)
    .where(eq(groups.id, groupId))
    .limit(1);
  return row?.name;
}

/** A current membership with the member's display name (the bet user context shows it). */
export async function findActiveMembershipWithName(
  tx: Executor,
  groupId: number,
  userId: number,
): Promise<{ membership: MembershipRow; userName: string } | undefined> {
  const [row] = await tx
    .select({ membership: memberships, userName: users.displayName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.groupId, groupId),
        eq(memberships.userId, userId),
        isNull(memberships.leftAt),
      ),
    )
    .limit(1);
  return row;
}

/** The user ids of a group's current members, ascending (push audiences, statistics' totalMembers). */
export async function listActiveMemberIds(tx: Executor, groupId: number): Promise<number[]> {
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.groupId, groupId), isNull(memberships.leftAt)))
    .orderBy(memberships.userId);
  return rows.map((row) => row.userId);
}

/** The user ids of a group's current admins, ascending (who reviews a dispute). */
export async function listActiveAdminIds(tx: Executor, groupId: number): Promise<number[]> {
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.groupId, groupId),
        eq(memberships.role, 'admin'),
        isNull(memberships.leftAt),
      ),
    )
    .orderBy(memberships.userId);
  return rows.map((row) => row.userId);
}

/** The ids of the groups a user is in now, ascending (socket rooms, the member state). */
export async function listActiveGroupIds(tx: Executor, userId: number): Promise<number[]> {
  const rows = await tx
    .select({ groupId: memberships.groupId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), isNull(memberships.leftAt)))
    .orderBy(memberships.groupId);
  return rows.map((row) => row.groupId);
}

/**
 * Of `userIds`, those who share at least one group with `callerId`, both being current
 * members: the people an admin may add to a group by id (a friend, not any account).
 */
export async function usersSharingAGroupWith(
  tx: Executor,
  callerId: number,
  userIds: readonly number[],
): Promise<Set<number>> {
  const others = userIds.filter((id) => id !== callerId);
  if (others.length === 0) return new Set();
  const mine = alias(memberships, 'mine');
  const rows = await tx
    .selectDistinct({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(
      mine,
      and(eq(mine.groupId, memberships.groupId), eq(mine.userId, callerId), isNull(mine.leftAt)),
    )
    .where(and(inArray(memberships.userId, others), isNull(memberships.leftAt)));
  return new Set(rows.map((row) => row.userId));
}

/**
 * Of `userIds`, the caller and those who are or were members of a group the caller is in
 * now: whose bubbles the caller may read (a former member's bets and wagers still show).
 */
export async function usersKnownTo(
  tx: Executor,
  callerId: number,
  userIds: readonly number[],
): Promise<Set<number>> {
  const known = new Set<number>(userIds.includes(callerId) ? [callerId] : []);
  const others = userIds.filter((id) => id !== callerId);
  if (others.length === 0) return known;
  const mine = alias(memberships, 'mine');
  const rows = await tx
    .selectDistinct({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(
      mine,
      and(eq(mine.groupId, memberships.groupId), eq(mine.userId, callerId), isNull(mine.leftAt)),
    )
    .where(inArray(memberships.userId, others));
  for (const row of rows) known.add(row.userId);
  return known;
}
