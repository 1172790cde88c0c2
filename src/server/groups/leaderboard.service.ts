import { and, asc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { LeaderboardResponse } from '../../domain/groups';
import {
  RESULT_LEDGER_KINDS,
  type PeriodLeaderboard,
  type PeriodLeaderboardQuery,
} from '../../domain/leaderboard-periods';
import { isoTime } from '../iso-time';
import type { AuthUser } from '../auth/tokens';
import type { Database } from '../db/connect';
import { ledger, memberships, users } from '../db/schema';
import { requireGroupAccess } from './group-access';
import { presentLeaderboard } from './group.presenter';

// GET /groups/{id}/leaderboard: who leads a group, by the group's read rule.

export type LeaderboardService = ReturnType<typeof createLeaderboardService>;

export function createLeaderboardService({ db }: { db: Database }) {
  return {
    /** Current members by total points descending, ties by user id; names are display names. */
    async getLeaderboard(caller: AuthUser, groupId: number): Promise<LeaderboardResponse> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'read' });
      const rows = await db
        .select({
          userId: memberships.userId,
          userName: users.displayName,
          totalPoints: memberships.totalPoints,
        })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.groupId, groupId), isNull(memberships.leftAt)));
      return presentLeaderboard(rows);
    },

    /**
     * What each current member won or lost since `from`, and in the period before
     * (`previousFrom` until `from`), summed from the ledger's result entries, the one source of
     * the points. One statement, so both sums read the same snapshot.
     */
    async getPeriodLeaderboard(
      caller: AuthUser,
      groupId: number,
      query: PeriodLeaderboardQuery,
    ): Promise<PeriodLeaderboard> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'read' });
      const from = new Date(query.from);
      const previousFrom = new Date(query.previousFrom);
      const sumWhere = (condition: ReturnType<typeof sql>) =>
        sql<number>`coalesce(sum(${ledger.totalDelta}) filter (where ${condition}), 0)::int`;
      const rows = await db
        .select({
          userId: memberships.userId,
          name: users.displayName,
          points: sumWhere(sql`${ledger.createdAt} >= ${from}`),
          previousPoints: sumWhere(sql`${ledger.createdAt} < ${from}`),
        })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .leftJoin(
          ledger,
          and(
            eq(ledger.groupId, memberships.groupId),
            eq(ledger.userId, memberships.userId),
            inArray(ledger.kind, [...RESULT_LEDGER_KINDS]),
            gte(ledger.createdAt, previousFrom),
          ),
        )
        .where(and(eq(memberships.groupId, groupId), isNull(memberships.leftAt)))
        .groupBy(memberships.userId, users.displayName)
        // In user order: the table's own order moves with every write to a membership, a wager's too.
        .orderBy(asc(memberships.userId));
      return {
        groupId,
        from: isoTime(from),
        previousFrom: isoTime(previousFrom),
        members: rows.map((row) => ({
          ...row,
          points: Number(row.points),
          previousPoints: Number(row.previousPoints),
        })),
      };
    },
  };
}
