import { and, eq, isNull } from 'drizzle-orm';
import type { LeaderboardResponse } from '../../domain/groups';
import type { AuthUser } from '../auth/tokens';
import type { Database } from '../db/connect';
import { memberships, users } from '../db/schema';
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
  };
}
