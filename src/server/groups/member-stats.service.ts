import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import {
  headToHeadOf,
  memberOutcomes,
  summariseOutcomes,
  type Outcome,
} from '../../domain/member-outcomes';
import {
  MAX_POINTS_STEPS,
  pointsOverTimeOf,
  thinSteps,
  type MemberStats,
} from '../../domain/member-stats';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { bets, ledger, memberships, users, wagers } from '../db/schema';
import { notFound } from '../errors';
import { isoTime } from '../iso-time';
import { requireGroupAccess } from './group-access';

// GET /groups/{id}/members/{userId}/stats: one member's track record in a group,
// and head-to-head against another member, by the group's read rule. Computed on each call
// from the resolved bets the members played (all their wagers, because the rule that picks
// the winners reads them all) and the member's ledger; nothing is stored twice. Three indexed
// reads: wagers by user, wagers by bet, the ledger by (group, user). The record itself is
// member-outcomes.ts's, which a device offline runs on its mirror too.

export type MemberStatsService = ReturnType<typeof createMemberStatsService>;

export function createMemberStatsService({ db }: { db: Database }) {
  return {
    async getMemberStats(
      caller: AuthUser,
      groupId: number,
      userId: number,
      vs?: number,
    ): Promise<MemberStats> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'read' });
      const member = await findMember(db, groupId, userId);
      const other = vs !== undefined && vs !== userId ? await findMember(db, groupId, vs) : null;
      const outcomes = await outcomesOf(db, groupId, other ? [userId, other.userId] : [userId]);
      const mine = outcomes.get(userId) ?? new Map<number, Outcome>();
      return {
        groupId,
        userId,
        name: member.name,
        totalPoints: member.totalPoints,
        ...summariseOutcomes([...mine.values()]),
        pointsOverTime: await pointsOverTime(db, groupId, userId),
        headToHead: other ? headToHeadOf(mine, outcomes.get(other.userId), other) : null,
      };
    },
  };
}

async function findMember(tx: Executor, groupId: number, userId: number) {
  const [row] = await tx
    .select({
      userId: memberships.userId,
      name: users.displayName,
      totalPoints: memberships.totalPoints,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.groupId, groupId), eq(memberships.userId, userId)));
  if (!row) throw notFound('Member');
  return row;
}

/** Per user, per bet id: their outcome on each resolved bet of the group they wagered on. */
async function outcomesOf(
  tx: Executor,
  groupId: number,
  userIds: number[],
): Promise<Map<number, Map<number, Outcome>>> {
  // The bets the members played: a semi-join, so two members on one bet give it once without
  // a DISTINCT over whole bet rows.
  const played = await tx
    .select()
    .from(bets)
    .where(
      and(
        eq(bets.groupId, groupId),
        eq(bets.state, 'resolved'),
        inArray(
          bets.id,
          tx.select({ betId: wagers.betId }).from(wagers).where(inArray(wagers.userId, userIds)),
        ),
      ),
    );
  if (played.length === 0) return memberOutcomes([], userIds);
  // Only the fields the payout rule reads: a large group's bets bring tens of thousands of rows.
  const allWagers = await tx
    .select({
      id: wagers.id,
      betId: wagers.betId,
      userId: wagers.userId,
      prediction: wagers.prediction,
      points: wagers.points,
      createdAt: wagers.createdAt,
    })
    .from(wagers)
    .where(
      inArray(
        wagers.betId,
        played.map((bet) => bet.id),
      ),
    );
  const wagersByBet = new Map<number, typeof allWagers>();
  for (const wager of allWagers) {
    const list = wagersByBet.get(wager.betId);
    if (list) list.push(wager);
    else wagersByBet.set(wager.betId, [wager]);
  }
  // The payout rule runs once per bet; only the asked members' wagers are looked up in it.
  return memberOutcomes(
    played.map((bet) => ({
      bet,
      wagers: (wagersByBet.get(bet.id) ?? []).map((wager) => ({
        ...wager,
        createdAt: isoTime(wager.createdAt),
      })),
    })),
    userIds,
  );
}

/** The member's total after each ledger row that changed it, undone results left out (pointsOverTimeOf). */
async function pointsOverTime(tx: Executor, groupId: number, userId: number) {
  const rows = await tx
    .select({
      kind: ledger.kind,
      betId: ledger.betId,
      createdAt: ledger.createdAt,
      totalDelta: ledger.totalDelta,
    })
    .from(ledger)
    .where(and(eq(ledger.groupId, groupId), eq(ledger.userId, userId), ne(ledger.totalDelta, 0)))
    .orderBy(asc(ledger.id));
  const steps = pointsOverTimeOf(rows.map((row) => ({ ...row, at: isoTime(row.createdAt) })));
  return thinSteps(steps, MAX_POINTS_STEPS);
}
