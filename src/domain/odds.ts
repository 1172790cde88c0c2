import { answerChoices, normalizeAnswer, type BetRules } from './bet-types';
import { proportionalShare } from './payout';

// Live odds on the bet card (docs/architecture.md §5 "Odds", our addition): per answer, what the
// pool pays per point staked, and what a new wager would get if its answer won. It reuses
// payout.ts's share so the card never promises a number the payout would not pay.

/**
 * Points staked on each answer, keyed by the normalised answer (so "7.50" and "7.5" add up).
 * The keys are players' text: an option may be called "constructor" or "__proto__", so a
 * tally is a null-prototype object and is read with `totalOf`, never `totals[answer]`.
 */
export type AnswerTotals = Record<string, number>;

/** An empty tally with no prototype: "__proto__" is a key like any other, "toString" is not already there. */
export function emptyTotals(): AnswerTotals {
  return Object.create(null) as AnswerTotals;
}

/** The points on `answer`, 0 when none: only the tally's own keys count, not Object.prototype's. */
export function totalOf(totals: Readonly<AnswerTotals>, answer: string): number {
  return Object.hasOwn(totals, answer) ? (totals[answer] ?? 0) : 0;
}

/** Sum wagers into per-answer totals; this is what a bet's `answerTotals` holds. */
export function totalsByAnswer(
  bet: BetRules,
  wagers: readonly { prediction: string; points: number }[],
): AnswerTotals {
  const totals = emptyTotals();
  for (const wager of wagers) {
    const key = normalizeAnswer(bet, wager.prediction);
    totals[key] = totalOf(totals, key) + wager.points;
  }
  return totals;
}

function poolOfTotals(totals: AnswerTotals): number {
  return Object.values(totals).reduce((sum, points) => sum + points, 0);
}

/** The multiplier P / pointsOnAnswer: what the pool pays per point on that answer if it wins; null when nothing is staked on it. */
export function oddsMultiplier(pool: number, pointsOnAnswer: number): number | null {
  return pointsOnAnswer > 0 ? pool / pointsOnAnswer : null;
}

export type AnswerOdds = { answer: string; points: number; multiplier: number | null };

/**
 * The odds of every answer: the bet's choices in their order (yes/no, the options,
 * over/under), then any other answer that has points (numeric guesses, ascending).
 */
export function answerOdds(bet: BetRules, totals: AnswerTotals): AnswerOdds[] {
  const pool = poolOfTotals(totals);
  const choices = answerChoices(bet);
  const others = Object.keys(totals)
    .filter((answer) => !choices.includes(answer))
    .sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0));
  return [...choices, ...others].map((answer) => {
    const points = totalOf(totals, answer);
    return { answer, points, multiplier: oddsMultiplier(pool, points) };
  });
}

/**
 * What a new wager of `points` on `answer` would be paid if that answer wins, under the rule
 * of payout.ts with the wager counted in the pool and in its answer's total. `replacing` is
 * the viewer's current wager, taken out first when they are changing it. A numeric guess is
 * projected as an exact match sharing with those who guessed the same number. Leftover
 * points (at most one each) are not promised.
 */
export function projectedPayout(
  bet: BetRules,
  totals: AnswerTotals,
  answer: string,
  points: number,
  replacing?: { prediction: string; points: number } | null,
): number {
  if (!Number.isInteger(points) || points <= 0) return 0;
  const adjusted = Object.assign(emptyTotals(), totals);
  if (replacing) {
    const previous = normalizeAnswer(bet, replacing.prediction);
    adjusted[previous] = Math.max(0, totalOf(adjusted, previous) - replacing.points);
  }
  const key = normalizeAnswer(bet, answer);
  const pool = poolOfTotals(adjusted) + points;
  const onAnswer = totalOf(adjusted, key) + points;
  return proportionalShare(pool, points, onAnswer);
}

/** "×2.4": the multiplier rounded down to one decimal (never promising more than the pool pays), "×2" when whole, "—" when none. */
export function formatMultiplier(multiplier: number | null): string {
  if (multiplier === null || !Number.isFinite(multiplier)) return '—';
  // The small epsilon keeps 2.3 (stored as 2.2999…) from showing as ×2.2.
  const tenths = Math.floor(multiplier * 10 + 1e-9);
  return tenths % 10 === 0 ? `×${tenths / 10}` : `×${(tenths / 10).toFixed(1)}`;
}
