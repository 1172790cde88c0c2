// Tipping rounds' scores (docs/rules.md "Tipping rounds"): what a score tip is, how a tip
// scores against a match's result by the round's scoring table, and a round's table with its
// matchday winners. Pure: the server's rounds and the bet-type entry `score_tip` ask here.

/** The most goals one side may be tipped or resolved with: "99-99" is a typo, not a score. */
export const MAX_GOALS = 30;

export const SCORE_TIP_MESSAGES = {
  invalid: `Enter a score as home goals - away goals, e.g. 2-1 (0 to ${MAX_GOALS} each)`,
  scoringOrder: 'Points for an exact result ≥ right difference ≥ right tendency',
  scoringRange: 'Points must be whole numbers from 0 to 100',
} as const;

export type Score = { home: number; away: number };

const SCORE_PATTERN = /^(\d{1,2})\s*[-:–]\s*(\d{1,2})$/;

/** "2-1", "2:1" or "2 – 1" as a score, or null ("two-one", "-1-0", "31-0", "2-1-0"). */
export function parseScore(text: string): Score | null {
  const match = SCORE_PATTERN.exec(text.trim());
  if (!match) return null;
  const home = Number(match[1]);
  const away = Number(match[2]);
  return home <= MAX_GOALS && away <= MAX_GOALS ? { home, away } : null;
}

/** A score's stored form: "2-1" (so "02:1" and "2-1" are one tip). */
export const formatScore = ({ home, away }: Score) => `${home}-${away}`;

/** The points of each kind of hit (docs/rules.md "Tipping rounds"); the defaults are Kicktipp's. */
export type ScoringTable = { exact: number; difference: number; tendency: number };

export const DEFAULT_SCORING: ScoringTable = { exact: 4, difference: 3, tendency: 2 };

/** Why a scoring table is refused, or null: whole points 0–100, exact ≥ difference ≥ tendency. */
export function scoringTableRefusal(table: ScoringTable): string | null {
  const values = [table.exact, table.difference, table.tendency];
  if (!values.every((value) => Number.isInteger(value) && value >= 0 && value <= 100))
    return SCORE_TIP_MESSAGES.scoringRange;
  return table.exact >= table.difference && table.difference >= table.tendency
    ? null
    : SCORE_TIP_MESSAGES.scoringOrder;
}

export type TipHit = 'exact' | 'difference' | 'tendency' | 'miss';

/**
 * How a tip hits a result: the exact score; else the right goal difference (a 1-1 tip on a 2-2
 * draw too, as on Kicktipp); else the right tendency (home win, draw, away win); else a miss.
 */
export function tipHit(tip: Score, result: Score): TipHit {
  if (tip.home === result.home && tip.away === result.away) return 'exact';
  if (tip.home - tip.away === result.home - result.away) return 'difference';
  return Math.sign(tip.home - tip.away) === Math.sign(result.home - result.away)
    ? 'tendency'
    : 'miss';
}

/** A tip's points by the table; a skipped match (no tip) scores 0. */
export function tipPoints(table: ScoringTable, tip: Score | null, result: Score): number {
  if (!tip) return 0;
  const hit = tipHit(tip, result);
  return hit === 'miss' ? 0 : table[hit];
}

/** One player's line of a round's table (`GET /api/groups/{id}/rounds/{roundId}`). */
export type RoundStanding = {
  userId: number;
  points: number;
  exact: number;
  difference: number;
  tendency: number;
};

export type RoundMatchScore = {
  /** The match's result once resolved ("2-1"); null while it has none (or was cancelled). */
  result: string | null;
  /** Each tipper's stored tip ("2-1") on this match. */
  tips: ReadonlyArray<{ userId: number; prediction: string }>;
};

/**
 * A round's table: every player in `players` (a skipped match scores 0) with their points and
 * hits over the matches that have a result, best first (points, then exact hits, then
 * differences, then the lower id, so the order is total).
 */
export function roundTable(
  table: ScoringTable,
  matches: readonly RoundMatchScore[],
  players: readonly number[],
): RoundStanding[] {
  const standings = new Map<number, RoundStanding>();
  const standingOf = (userId: number) => {
    let standing = standings.get(userId);
    if (!standing) {
      standing = { userId, points: 0, exact: 0, difference: 0, tendency: 0 };
      standings.set(userId, standing);
    }
    return standing;
  };
  for (const userId of players) standingOf(userId);
  for (const match of matches) {
    const result = match.result === null ? null : parseScore(match.result);
    if (!result) continue;
    for (const tip of match.tips) {
      const parsed = parseScore(tip.prediction);
      const standing = standingOf(tip.userId);
      if (!parsed) continue;
      const hit = tipHit(parsed, result);
      if (hit === 'miss') continue;
      standing[hit] += 1;
      standing.points += table[hit];
    }
  }
  return [...standings.values()].sort(
    (a, b) =>
      b.points - a.points ||
      b.exact - a.exact ||
      b.difference - a.difference ||
      a.userId - b.userId,
  );
}

/**
 * The round's "Matchday winner"s: once every match is settled (`isComplete`), all who share the
 * top points, if those are above 0; none before.
 */
export function matchdayWinners(
  standings: readonly RoundStanding[],
  isComplete: boolean,
): number[] {
  if (!isComplete) return [];
  const top = standings.reduce((best, standing) => Math.max(best, standing.points), 0);
  return top > 0
    ? standings.filter((standing) => standing.points === top).map((standing) => standing.userId)
    : [];
}
