import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import { roundMatches, rounds, type RoundMatchRow, type RoundRow } from '../db/rounds-schema';
import { bets, wagers } from '../db/schema';
import { isoTime } from '../iso-time';
import { scoreRound } from '../../domain/rounds';
import type { RoundStanding, ScoringTable } from '../../domain/score-tips';
import type { Round } from '../../domain/schemas/rounds';

// The reads of tipping rounds: a round's matches with their bets' state and result, and the
// tips on its resolved matches, each one query for any number of rounds; the tables are the
// domain's (score-tips.ts). Only resolved matches' tips are read, so a table never shows a tip
// whose betting is still open (picks stay hidden until the close, docs/architecture.md §5).

export type RoundMatchState = RoundMatchRow & {
  state: string;
  correctAnswer: string | null;
  closesAt: Date;
};

export const scoringOf = (round: RoundRow): ScoringTable => ({
  exact: round.scoringExact,
  difference: round.scoringDifference,
  tendency: round.scoringTendency,
});

/** The matches of `roundIds`, in list order, with their bets' state, result and close. */
export async function loadRoundMatches(
  tx: Executor,
  roundIds: readonly number[],
): Promise<Map<number, RoundMatchState[]>> {
  const byRound = new Map<number, RoundMatchState[]>();
  if (roundIds.length === 0) return byRound;
  const rows = await tx
    .select({
      match: roundMatches,
      state: bets.state,
      correctAnswer: bets.correctAnswer,
      closesAt: bets.expiresAt,
    })
    .from(roundMatches)
    .innerJoin(bets, eq(bets.id, roundMatches.betId))
    .where(inArray(roundMatches.roundId, [...roundIds]))
    .orderBy(asc(roundMatches.roundId), asc(roundMatches.position));
  for (const row of rows) {
    const list = byRound.get(row.match.roundId) ?? [];
    list.push({
      ...row.match,
      state: row.state,
      correctAnswer: row.correctAnswer,
      closesAt: row.closesAt,
    });
    byRound.set(row.match.roundId, list);
  }
  return byRound;
}

/** The tips on the resolved matches of `roundIds`, by bet id. */
async function loadResolvedTips(
  tx: Executor,
  roundIds: readonly number[],
): Promise<Map<number, Array<{ userId: number; prediction: string }>>> {
  const byBet = new Map<number, Array<{ userId: number; prediction: string }>>();
  if (roundIds.length === 0) return byBet;
  const rows = await tx
    .select({ betId: wagers.betId, userId: wagers.userId, prediction: wagers.prediction })
    .from(wagers)
    .innerJoin(roundMatches, eq(roundMatches.betId, wagers.betId))
    .innerJoin(bets, eq(bets.id, wagers.betId))
    .where(and(inArray(roundMatches.roundId, [...roundIds]), eq(bets.state, 'resolved')));
  for (const row of rows) {
    const list = byBet.get(row.betId) ?? [];
    list.push({ userId: row.userId, prediction: row.prediction });
    byBet.set(row.betId, list);
  }
  return byBet;
}

export type ScoredRound = {
  round: RoundRow;
  matches: RoundMatchState[];
  table: RoundStanding[];
  winners: number[];
};

/** Each round's table over `players` (the group's current members) and its matchday winners. */
export async function scoreRounds(
  tx: Executor,
  roundRows: readonly RoundRow[],
  players: readonly number[],
): Promise<ScoredRound[]> {
  const ids = roundRows.map((round) => round.id);
  const matchesByRound = await loadRoundMatches(tx, ids);
  const tips = await loadResolvedTips(tx, ids);
  return roundRows.map((round) => {
    const matches = matchesByRound.get(round.id) ?? [];
    const byBet = new Map(matches.map((match) => [match.betId, match]));
    const { table, winners } = scoreRound(
      { scoring: scoringOf(round), matches },
      (betId) => {
        const match = byBet.get(betId);
        return match && { ...match, picks: tips.get(betId) ?? [] };
      },
      players,
    );
    return { round, matches, table, winners };
  });
}

export async function findRound(
  tx: Executor,
  groupId: number,
  roundId: number,
  lock?: 'update',
): Promise<RoundRow | undefined> {
  const query = tx
    .select()
    .from(rounds)
    .where(and(eq(rounds.id, roundId), eq(rounds.groupId, groupId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export const listGroupRounds = (tx: Executor, groupId: number) =>
  tx.select().from(rounds).where(eq(rounds.groupId, groupId)).orderBy(desc(rounds.id));

export function presentRound({ round, matches, table, winners }: ScoredRound): Round {
  return {
    id: round.id,
    groupId: round.groupId,
    name: round.name,
    createdBy: round.createdBy,
    createdAt: isoTime(round.createdAt),
    closeMinutesBefore: round.closeMinutes,
    scoring: scoringOf(round),
    matches: matches.map((match) => ({
      betId: match.betId,
      home: match.home,
      away: match.away,
      kickoff: isoTime(match.kickoff),
      closesAt: isoTime(match.closesAt),
      providerMatchId: match.providerMatchId,
      state: match.state,
      result: match.state === 'resolved' ? match.correctAnswer : null,
    })),
    table,
    matchdayWinners: winners,
  };
}
