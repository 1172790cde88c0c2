import {
  periodStart,
  previousPeriodStart,
  sumPeriodResults,
  type LeaderboardPeriod,
  type PeriodLeaderboard,
  type ResultEntry,
} from '../../domain/leaderboard-periods';
import { settlementEntries } from '../../domain/settlement-entries';
import type { BetHistoryRow } from './db';
import { db as appDb, type HunchDb } from './db';

// What each member of a group won or lost, when, worked out from the mirror alone: its bets
// with their picks and their history give the ledger's result entries (settlement-entries.ts),
// summed by the same rule the server sums its ledger with. So the week, the month and a
// running season read offline with the numbers the server would give.

export interface GroupResults {
  /** The group's current members, in user order, with their total points. */
  members: Array<{ userId: number; name: string; totalPoints: number }>;
  entries: ResultEntry[];
}

export async function readGroupResults(
  groupId: number,
  database: HunchDb = appDb,
): Promise<GroupResults> {
  const [memberships, bets, history] = await Promise.all([
    database.memberships.where('groupId').equals(groupId).toArray(),
    database.bets.where('groupId').equals(groupId).toArray(),
    database.betHistory.where('groupId').equals(groupId).toArray(),
  ]);
  const linesByBet = new Map<number, BetHistoryRow[]>();
  for (const line of history) {
    const lines = linesByBet.get(line.betId);
    if (lines) lines.push(line);
    else linesByBet.set(line.betId, [line]);
  }
  return {
    members: memberships
      .map((member) => ({
        userId: member.userId,
        name: member.userName,
        totalPoints: member.totalPoints,
      }))
      .sort((a, b) => a.userId - b.userId),
    entries: bets.flatMap((bet) =>
      bet.picks ? settlementEntries(bet, bet.picks, linesByBet.get(bet.id) ?? []) : [],
    ),
  };
}

/** The period's standings as the mirror has them, shaped as the server answers them. */
export function periodBoardOf(
  groupId: number,
  period: LeaderboardPeriod,
  now: Date,
  { members, entries }: GroupResults,
): PeriodLeaderboard {
  const from = periodStart(period, now).toISOString();
  const previousFrom = previousPeriodStart(period, now).toISOString();
  return {
    groupId,
    from,
    previousFrom,
    members: sumPeriodResults(members, entries, { from, previousFrom }),
  };
}
