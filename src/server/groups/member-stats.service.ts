import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { parseDecimal } from '../../domain/decimal';
import {
  MAX_POINTS_STEPS,
  missShare,
  thinSteps,
  type HeadToHead,
  type MemberStats,
  type TypeAccuracy,
} from '../../domain/member-stats';
import { BET_TYPES, betTypeRulesOf, type BetType } from '../../domain/bet-types';
import { computeResolution } from '../../domain/payout';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { bets, ledger, memberships, users, wagers, type BetRow } from '../db/schema';
import { notFound } from '../errors';
import { isoTime } from '../iso-time';
import { requireGroupAccess } from './group-access';

// GET /groups/{id}/members/{userId}/stats: one member's track record in a group,
// and head-to-head against another member, by the group's read rule. Computed on each call
// from the resolved bets the members played (all their wagers, because the rule that picks
// the winners reads them all) and the member's ledger; nothing is stored twice. Three indexed
// reads: wagers by user, wagers by bet, the ledger by (group, user).

/** How one member fared on one resolved bet. */
interface Outcome {
  bet: BetRow;
  result: 'won' | 'lost' | 'refunded';
  /** winnings − stake: what the bet did to their total. */
  net: number;
  /** Numeric bets: how far the guess was, as a share of the answer. */
  miss: number | null;
}

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
        ...summarise([...mine.values()]),
        pointsOverTime: await pointsOverTime(db, groupId, userId),
        headToHead: other ? headToHead(mine, outcomes.get(other.userId), other) : null,
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
  const result = new Map<number, Map<number, Outcome>>(userIds.map((id) => [id, new Map()]));
  if (played.length === 0) return result;
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
  // Linear in the wagers read: a large group's bets have hundreds of wagers each, and the
  // payout rule runs once per bet; only the asked members' wagers are looked up in it.
  for (const bet of played) {
    const betWagers = wagersByBet.get(bet.id) ?? [];
    const answer = bet.correctAnswer ?? '';
    const resolution = computeResolution(
      bet,
      betWagers.map((wager) => ({ ...wager, createdAt: isoTime(wager.createdAt) })),
      answer,
    );
    const winningIds = new Set(resolution.winningWagerIds);
    const refunded = resolution.outcome === 'refunded';
    for (const wager of betWagers) {
      const outcomes = result.get(wager.userId);
      if (!outcomes) continue;
      const distribution = resolution.distributions.find((entry) => entry.userId === wager.userId);
      const net = distribution ? distribution.winnings - distribution.wagerAmount : 0;
      outcomes.set(bet.id, {
        bet,
        result: refunded ? 'refunded' : winningIds.has(wager.id) ? 'won' : 'lost',
        net,
        miss: bet.betType === 'numeric' ? numericMiss(wager.prediction, answer) : null,
      });
    }
  }
  return result;
}

function numericMiss(guess: string, answer: string): number | null {
  if (!parseDecimal(guess) || !parseDecimal(answer)) return null;
  return missShare(Number(guess), Number(answer));
}

function byResolution(a: Outcome, b: Outcome): number {
  const timeA = a.bet.resolvedAt?.getTime() ?? 0;
  const timeB = b.bet.resolvedAt?.getTime() ?? 0;
  return timeA - timeB || a.bet.id - b.bet.id;
}

function summarise(outcomes: Outcome[]) {
  const ordered = [...outcomes].sort(byResolution);
  const won = ordered.filter((entry) => entry.result === 'won').length;
  const lost = ordered.filter((entry) => entry.result === 'lost').length;
  let bestWin: MemberStats['bestWin'] = null;
  for (const entry of ordered)
    if (entry.result === 'won' && entry.net > (bestWin?.points ?? -Infinity))
      bestWin = { betId: entry.bet.id, title: entry.bet.title, points: entry.net };
  let streak: MemberStats['streak'] = null;
  for (const entry of [...ordered].reverse()) {
    if (entry.result === 'refunded') continue;
    if (!streak) streak = { kind: entry.result, count: 1 };
    else if (streak.kind === entry.result) streak.count += 1;
    else break;
  }
  return {
    betsPlayed: ordered.length,
    won,
    lost,
    winRate: won + lost > 0 ? won / (won + lost) : null,
    netPoints: ordered.reduce((sum, entry) => sum + entry.net, 0),
    bestWin,
    streak,
    accuracy: accuracyByType(ordered),
  };
}

function accuracyByType(outcomes: Outcome[]): TypeAccuracy[] {
  return BET_TYPES.flatMap((betType: BetType) => {
    const ofType = outcomes.filter((entry) => entry.bet.betType === betType);
    if (ofType.length === 0) return [];
    const misses = ofType.flatMap((entry) => (entry.miss === null ? [] : [entry.miss]));
    const won = ofType.filter((entry) => entry.result === 'won').length;
    const lost = ofType.filter((entry) => entry.result === 'lost').length;
    return [
      {
        betType,
        name: betTypeRulesOf(betType)?.name ?? betType,
        played: ofType.length,
        decided: won + lost,
        won,
        averageMiss:
          betType === 'numeric' && misses.length > 0
            ? misses.reduce((sum, miss) => sum + miss, 0) / misses.length
            : null,
      },
    ];
  });
}

function headToHead(
  mine: Map<number, Outcome>,
  theirs: Map<number, Outcome> | undefined,
  other: { userId: number; name: string },
): HeadToHead {
  const together = [...mine.values()].flatMap((entry) => {
    const their = theirs?.get(entry.bet.id);
    return their ? [[entry, their] as const] : [];
  });
  return {
    otherUserId: other.userId,
    otherName: other.name,
    betsTogether: together.length,
    youRight: together.filter(([you]) => you.result === 'won').length,
    themRight: together.filter(([, them]) => them.result === 'won').length,
    youNet: together.reduce((sum, [you]) => sum + you.net, 0),
    themNet: together.reduce((sum, [, them]) => sum + them.net, 0),
  };
}

/** The member's total after each ledger row that changed it (wagers set points aside, they do not change the total). */
async function pointsOverTime(tx: Executor, groupId: number, userId: number) {
  const rows = await tx
    .select({ createdAt: ledger.createdAt, totalDelta: ledger.totalDelta })
    .from(ledger)
    .where(and(eq(ledger.groupId, groupId), eq(ledger.userId, userId), ne(ledger.totalDelta, 0)))
    .orderBy(asc(ledger.id));
  let total = 0;
  const steps = rows.map((row) => {
    total += row.totalDelta;
    return { at: isoTime(row.createdAt), total };
  });
  return thinSteps(steps, MAX_POINTS_STEPS);
}
