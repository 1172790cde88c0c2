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
