import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { VersionedComment } from '../../domain/comments';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { betComments, users } from '../db/schema';
import type { MirrorScope } from '../groups/group-mirror';
import { presentComment } from './comment.presenter';

// The comments feature's part of a mirror pull (src/server/mirror): a group the device does not
// hold comes with its live comments; a group it holds, with the comments changed since the
// cursor's snapshot, deleted ones included as tombstones (the device drops them). Never a pick.

/** Whether a comment of the groups `ids` (an integer[] value) changed since the snapshot. */
export function commentChangesExistSql(ids: SQL, snapshot: SQL): SQL {
  return sql`exists (select 1 from ${betComments} where ${betComments.groupId} = any(${ids}) and ${changedSince(betComments.changeTxid, snapshot)})`;
}

/** How many live comments each group has (a page of a first sync is sized by rows). */
export async function countComments(
  tx: Executor,
  groupIds: readonly number[],
): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await tx
    .select({ groupId: betComments.groupId, count: sql<number>`count(*)::integer` })
    .from(betComments)
    .where(and(inArray(betComments.groupId, [...groupIds]), isNull(betComments.deletedAt)))
    .groupBy(betComments.groupId);
  return new Map(rows.map((row) => [row.groupId, row.count]));
}

export async function readCommentMirror(
  tx: Executor,
  { fullIds, deltaIds, snapshot }: MirrorScope,
): Promise<{ comments: VersionedComment[] }> {
  const whole =
    fullIds.length > 0
      ? and(inArray(betComments.groupId, [...fullIds]), isNull(betComments.deletedAt))
      : undefined;
  const changed =
    deltaIds.length > 0
      ? and(
          inArray(betComments.groupId, [...deltaIds]),
          changedSince(betComments.changeTxid, snapshot),
        )
      : undefined;
  if (!whole && !changed) return { comments: [] };
  const rows = await tx
    .select({ comment: betComments, userName: users.displayName })
    .from(betComments)
    .innerJoin(users, eq(users.id, betComments.userId))
    .where(or(whole, changed))
    .orderBy(asc(betComments.id));
  return {
    comments: rows.map((row) => ({ ...presentComment(row), version: row.comment.version })),
  };
}
