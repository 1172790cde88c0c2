import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Membership } from '../../domain/groups';
import type { MirrorGroup, MirrorMembership } from '../../domain/mirror';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { prepared } from '../db/prepared';
import { groups, memberships, users, type MembershipRow } from '../db/schema';
import {
  adminGroupIds,
  presentGroup,
  presentMembership,
  readRemovedMembers,
} from './group.presenter';

// The groups feature's part of a mirror pull (src/server/mirror): groups and every member's
// membership, whole for groups the device does not hold yet (`fullIds`), and only what changed
// since the cursor's snapshot for the ones it holds (`deltaIds`). Other members' rows are read
// as the viewer may see them (membershipAsSeenBy) and follow their public change stamp.

export interface MirrorScope {
  viewerId: number;
  /** Groups sent whole. */
  fullIds: readonly number[];
  /** Groups the device holds: only what changed since `snapshot`. */
  deltaIds: readonly number[];
  /** The cursor's snapshot (db/changes.ts); unused when `deltaIds` is empty. */
  snapshot: string;
  /** The pull starts from nothing (no usable cursor): rows of no group (the inbox) are sent whole. */
  isReset: boolean;
  /** The pull's clock: which bets have closed (their picks are sent), the inbox's 30 days. */
  now: Date;
}

export interface GroupMirrorRows {
  groups: MirrorGroup[];
  memberships: MirrorMembership[];
  removedMemberships: Array<{ groupId: number; userId: number }>;
}

/** The ids of the groups a user is in now, as a subquery (the mirror's one-statement check). */
export function activeGroupIdsSql(userId: SQL): SQL {
  return sql`(select ${memberships.groupId} from ${memberships} where ${memberships.userId} = ${userId} and ${memberships.leftAt} is null)`;
}

// The viewer's groups and own memberships: every member state without a cursor (prepared once,
// see db/prepared.ts).
const ownMemberships = prepared<
  Array<{ group: { id: number; name: string }; membership: MembershipRow; userName: string }>,
  { userId: number }
>('ownMemberships', (tx) =>
  tx
    .select({
      group: { id: groups.id, name: groups.name },
      membership: memberships,
      userName: users.displayName,
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, sql.placeholder('userId')), isNull(memberships.leftAt)))
    .orderBy(asc(groups.id)),
);

/** The groups `viewerId` is in now, each with its name and their own membership, by group id. */
export async function readOwnMemberships(
  tx: Executor,
  viewerId: number,
): Promise<Array<{ group: { id: number; name: string }; membership: Membership }>> {
  const rows = await ownMemberships(tx, { userId: viewerId });
  return rows.map((row) => ({
    group: row.group,
    membership: presentMembership(row.membership, row.userName, viewerId),
  }));
}

/**
 * Whether a membership changed since the snapshot as `viewerId` sees it: their own row by any
 * change, another member's only by a public one (a wager moves available points alone, and that
 * row arriving next to a bet's new totals would tell who wagered).
 */
function membershipChangedSql(viewerId: number, snapshot: string): SQL {
  return sql`(${changedSince(memberships.publicChangeTxid, snapshot)} or (${memberships.userId} = ${viewerId} and ${changedSince(memberships.changeTxid, snapshot)}))`;
}

/** Whether a group of `ids` (an integer[] value), or a membership in one as `viewerId` sees it, changed since the snapshot. */
export function groupChangesExistSql(viewerId: SQL, ids: SQL, snapshot: SQL): SQL {
  return sql`(exists (select 1 from ${groups} where ${groups.id} = any(${ids}) and ${changedSince(groups.changeTxid, snapshot)})
    or exists (select 1 from ${memberships} where ${memberships.groupId} = any(${ids}) and ${changedSince(memberships.publicChangeTxid, snapshot)})
    or exists (select 1 from ${memberships} where ${memberships.groupId} = any(${ids}) and ${memberships.userId} = ${viewerId} and ${changedSince(memberships.changeTxid, snapshot)}))`;
}

/** How many members each group has now (a page of a first sync is sized by rows). */
export async function countActiveMembers(
  tx: Executor,
  groupIds: readonly number[],
): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await tx
    .select({ groupId: memberships.groupId, count: sql<number>`count(*)::integer` })
    .from(memberships)
    .where(and(inArray(memberships.groupId, [...groupIds]), isNull(memberships.leftAt)))
    .groupBy(memberships.groupId);
  return new Map(rows.map((row) => [row.groupId, row.count]));
}

export async function readGroupMirror(tx: Executor, scope: MirrorScope): Promise<GroupMirrorRows> {
  const { viewerId, fullIds, deltaIds, snapshot } = scope;
  const whole =
    fullIds.length > 0
      ? and(inArray(memberships.groupId, [...fullIds]), isNull(memberships.leftAt))
      : undefined;
  const changed =
    deltaIds.length > 0
      ? and(inArray(memberships.groupId, [...deltaIds]), membershipChangedSql(viewerId, snapshot))
      : undefined;
  const membershipRows =
    whole || changed
      ? await tx
          .select({ membership: memberships, userName: users.displayName })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(or(whole, changed))
          // In key order: the table's own order moves with every write, a wager's too.
          .orderBy(asc(memberships.groupId), asc(memberships.userId))
      : [];

  const changedGroupIds = new Set(fullIds);
  for (const row of membershipRows) changedGroupIds.add(row.membership.groupId);
  if (deltaIds.length > 0) {
    const rows = await tx
      .select({ id: groups.id })
      .from(groups)
      .where(and(inArray(groups.id, [...deltaIds]), changedSince(groups.changeTxid, snapshot)));
    for (const row of rows) changedGroupIds.add(row.id);
  }

  const groupRows =
    changedGroupIds.size > 0
      ? await tx
          .select()
          .from(groups)
          .where(inArray(groups.id, [...changedGroupIds]))
      : [];
  // A changed group is sent with its current member lists, which the membership rows above may not all be.
  const members =
    groupRows.length > 0
      ? await tx
          .select({
            groupId: memberships.groupId,
            userId: memberships.userId,
            role: memberships.role,
          })
          .from(memberships)
          .where(
            and(inArray(memberships.groupId, [...changedGroupIds]), isNull(memberships.leftAt)),
          )
      : [];
  const membersByGroup = new Map<number, Array<{ userId: number; role: 'member' | 'admin' }>>();
  for (const member of members) {
    const list = membersByGroup.get(member.groupId) ?? [];
    list.push({ userId: member.userId, role: member.role });
    membersByGroup.set(member.groupId, list);
  }
  const removed = await readRemovedMembers(tx, adminGroupIds(membersByGroup, viewerId));

  return {
    groups: groupRows
      .sort((a, b) => a.id - b.id)
      .map((row) => ({
        ...presentGroup(row, membersByGroup.get(row.id) ?? [], viewerId, removed.get(row.id)),
        version: row.version,
      })),
    memberships: membershipRows
      .filter((row) => row.membership.leftAt === null)
      .map((row) => ({
        ...presentMembership(row.membership, row.userName, viewerId),
        // Another member's row carries its public stamp: the one its delta pulls follow.
        version:
          row.membership.userId === viewerId
            ? row.membership.version
            : row.membership.publicVersion,
      })),
    removedMemberships: membershipRows
      .filter((row) => row.membership.leftAt !== null)
      .map((row) => ({ groupId: row.membership.groupId, userId: row.membership.userId })),
  };
}
