import { matchdayWinners, roundTable, type RoundStanding, type ScoringTable } from './score-tips';

// A tipping round as a device holds it (docs/rules.md "Tipping rounds"): the round and its
// matches travel in the mirror; each match's state, result and revealed tips are its score-tip
// bet's. The table a screen shows is worked out here from those bets, by the same rule the
// server's table is (score-tips.ts `roundTable`), so a round page and its table read offline.

/** A match of a mirrored round: its bet, teams, kick-off and when its tips close. */
export type RoundMatchInfo = {
  betId: number;
  home: string;
  away: string;
  kickoff: string;
  closesAt: string;
};

/** A round as the pull sends it (`rounds` of GET /api/member/state). */
export type MirrorRound = {
  id: number;
  groupId: number;
  name: string;
  createdBy: number | null;
  createdAt: string;
  closeMinutesBefore: number;
  scoring: ScoringTable;
  matches: RoundMatchInfo[];
  version: number;
};

/** What a round's table reads of a match's bet. */
export type RoundMatchBet = {
  state: string;
  correctAnswer: string | null;
  /** Everyone's tips, once betting on it closed (null or absent before). */
  picks?: ReadonlyArray<{ userId: number; prediction: string }> | null | undefined;
};

export type ScoredRound = { table: RoundStanding[]; winners: number[]; isComplete: boolean };

/**
 * A round's table over `players` and its matchday winners, from its matches' bets (a match whose
 * bet the device lacks counts as not settled). Complete once no match waits for its result.
 */
export function scoreRound(
  round: { scoring: ScoringTable; matches: ReadonlyArray<{ betId: number }> },
  betOf: (betId: number) => RoundMatchBet | undefined,
  players: readonly number[],
): ScoredRound {
  const bets = round.matches.map((match) => betOf(match.betId));
  const table = roundTable(
    round.scoring,
    bets.map((bet) => ({
      result: bet?.state === 'resolved' ? bet.correctAnswer : null,
      tips: bet?.picks ?? [],
    })),
    players,
  );
  const isComplete = bets.length > 0 && bets.every((bet) => bet && bet.state !== 'active');
  return { table, winners: matchdayWinners(table, isComplete), isComplete };
}

/**
 * Whether a round has started: one of its matches kicked off at or before `nowMs`. Its scoring
 * may change only before (the server decides it inside the change's transaction).
 */
export function hasRoundStarted(
  matches: ReadonlyArray<{ kickoff: string | Date }>,
  nowMs: number,
): boolean {
  return matches.some((match) => new Date(match.kickoff).getTime() <= nowMs);
}

/** A round's first kick-off (the earliest of its matches'), or null for a round without matches. */
export function firstKickoffOf(matches: ReadonlyArray<{ kickoff: string | Date }>): Date | null {
  const times = matches.map((match) => new Date(match.kickoff).getTime());
  return times.length > 0 ? new Date(Math.min(...times)) : null;
}

/** The span of the group's running season, if one runs (seasons.ts). */
export type SeasonSpan = { startsAt: string | Date; endsAt: string | Date };

/**
 * Whether a round counts towards the season's running total: its first kick-off within the
 * running season; with no season running, every round of the group counts.
 */
export function isRoundInSeason(
  firstKickoff: string | Date | null,
  season: SeasonSpan | undefined,
) {
  if (!season) return true;
  if (firstKickoff === null) return false;
  const at = new Date(firstKickoff).getTime();
  return at >= new Date(season.startsAt).getTime() && at < new Date(season.endsAt).getTime();
}

/**
 * The season's running total: each player's round points (and exact results, differences,
 * tendencies) summed over the given rounds' tables, best first (points, then exact results,
 * then differences).
 */
export function runningTotal(tables: ReadonlyArray<readonly RoundStanding[]>): RoundStanding[] {
  const totals = new Map<number, RoundStanding>();
  for (const table of tables)
    for (const standing of table) {
      const total = totals.get(standing.userId) ?? {
        userId: standing.userId,
        points: 0,
        exact: 0,
        difference: 0,
        tendency: 0,
      };
      total.points += standing.points;
      total.exact += standing.exact;
      total.difference += standing.difference;
      total.tendency += standing.tendency;
      totals.set(standing.userId, total);
    }
  return [...totals.values()].sort(
    (a, b) =>
      b.points - a.points ||
      b.exact - a.exact ||
      b.difference - a.difference ||
      a.userId - b.userId,
  );
}
