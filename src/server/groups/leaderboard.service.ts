import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { LeaderboardResponse } from '../../domain/groups';
import {
  PLAYED_LEDGER_KIND,
  RESULT_LEDGER_KINDS,
  sumPeriodResults,
  type PeriodLeaderboard,
  type PeriodLeaderboardQuery,
  type PeriodResult,
} from '../../domain/leaderboard-periods';
import { isoTime } from '../iso-time';
import type { AuthUser } from '../auth/tokens';
import type { Database } from '../db/connect';
import { bets, ledger, memberships, users } from '../db/schema';
import { requireGroupAccess } from './group-access';
import { presentLeaderboard } from './group.presenter';

// GET /groups/{id}/leaderboard: who leads a group, by the group's read rule.

export type LeaderboardService = ReturnType<typeof createLeaderboardService>;

export function createLeaderboardService({
  db,
  now = () => new Date(),
}: {
  db: Database;
  now?: (() => Date) | undefined;
}) {
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

    /** The period leaderboard, by the group's read rule (readPeriodResults). */
    async getPeriodLeaderboard(
      caller: AuthUser,
      groupId: number,
      query: PeriodLeaderboardQuery,
    ): Promise<PeriodLeaderboard> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'read' });
      const from = new Date(query.from);
      const previousFrom = new Date(query.previousFrom);
      const members = await readPeriodResults(db, groupId, { from, previousFrom }, now());
      return { groupId, from: isoTime(from), previousFrom: isoTime(previousFrom), members };
    },
  };
}

/**
 * What each current member won or lost since `from`, and in the period before
 * (`previousFrom` until `from`), and whether they had a result before: the ledger's result
 * entries of the window, and each member's latest one before it, summed by the rule the
 * mirror's copy follows too (sumPeriodResults); and how many bets each wagered on since
 * `from` (`played`). One statement each for the members, the entries and the counts, under
 * one snapshot (REPEATABLE READ), so all read the same ledger. No access check: the callers
 * make their own (the period leaderboard's read rule; a webhook's weekly table).
 */
export async function readPeriodResults(
  db: Database,
  groupId: number,
  { from, previousFrom }: { from: Date; previousFrom: Date },
  at: Date,
): Promise<PeriodResult[]> {
  const results = and(eq(ledger.groupId, groupId), inArray(ledger.kind, [...RESULT_LEDGER_KINDS]));
  const { members, entries, played } = await db.transaction(
    async (tx) => ({
      // In user order: the table's own order moves with every write to a membership.
      members: await tx
        .select({ userId: memberships.userId, name: users.displayName })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.groupId, groupId), isNull(memberships.leftAt)))
        .orderBy(asc(memberships.userId)),
      entries: await tx
        .select({ userId: ledger.userId, totalDelta: ledger.totalDelta, at: ledger.createdAt })
        .from(ledger)
        .where(
          and(
            results,
            or(
              gte(ledger.createdAt, previousFrom),
              inArray(
                ledger.id,
                tx
                  .select({ id: sql<number>`max(${ledger.id})` })
                  .from(ledger)
                  .where(and(results, lt(ledger.createdAt, previousFrom)))
                  .groupBy(ledger.userId),
              ),
            ),
          ),
        ),
      // Who plays: each member's wagers placed since `from`, one count per member in one
      // statement, read from the ledger through the same index as the results. Only bets
      // whose betting has closed count (domain/fair-resolution.ts isBettingClosed: settled,
      // cancelled, expired or its picks shown): while betting is open nobody may learn who
      // wagered (docs/rules.md, hidden picks), and a count that moved would tell it.
      played: await tx
        .select({ userId: ledger.userId, played: sql<number>`count(*)::int` })
        .from(ledger)
        .innerJoin(bets, eq(bets.id, ledger.betId))
        .where(
          and(
            eq(ledger.groupId, groupId),
            eq(ledger.kind, PLAYED_LEDGER_KIND),
            gte(ledger.createdAt, from),
            or(ne(bets.state, 'active'), lte(bets.expiresAt, at), isNotNull(bets.picksRevealedAt)),
          ),
        )
        .groupBy(ledger.userId),
    }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return sumPeriodResults(members, entries, { from, previousFrom }, played);
}
