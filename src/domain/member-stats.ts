import type { BetType } from './bet-types';
import type { LEDGER_KINDS } from './ledger';

// A member's track record in a group, computed by the server from resolved bets
// only: a bet whose resolution was undone is active again and does not count until it is
// resolved anew. A wager is right when the bet's rule made it a winner, wrong when it lost;
// a refund (nobody won, an over/under push) is played but neither. The wire schemas:
// schemas/member-stats.ts.

export type TypeAccuracy = {
  betType: BetType;
  /** The type's name as the bet form shows it ("Yes / No"). */
  name: string;
  /** Resolved bets of this type played (refunds included). */
  played: number;
  /** Bets of this type won or lost. */
  decided: number;
  won: number;
  /**
   * Numeric bets only: how far the guesses were from the answer, on average, as a share of the
   * answer (0 is spot on; |guess − answer| / max(|answer|, 1), capped at 1). Null otherwise.
   */
  averageMiss: number | null;
};

/** One step of the points-over-time line: the member's total points after a change. */
export type PointsStep = { at: string; total: number };

export type HeadToHead = {
  otherUserId: number;
  otherName: string;
  /** Resolved bets both played. */
  betsTogether: number;
  /** Of those, how often each was right. */
  youRight: number;
  themRight: number;
  /** Net points each won or lost on those bets. */
  youNet: number;
  themNet: number;
};

export type MemberStats = {
  groupId: number;
  userId: number;
  name: string;
  totalPoints: number;
  betsPlayed: number;
  won: number;
  lost: number;
  /** won / (won + lost), or null before the first decided bet. */
  winRate: number | null;
  /** Points won minus points lost on resolved bets. */
  netPoints: number;
  /** The largest net gain on one bet. */
  bestWin: { betId: number; title: string; points: number } | null;
  /** Consecutive wins (or losses) up to the latest decided bet; refunds neither break nor extend it. */
  streak: { kind: 'won' | 'lost'; count: number } | null;
  accuracy: TypeAccuracy[];
  /** At most MAX_POINTS_STEPS steps, oldest first. */
  pointsOverTime: PointsStep[];
  headToHead: HeadToHead | null;
};

export const MAX_POINTS_STEPS = 120;

/** The share of the answer a numeric guess missed by: 0 spot on, capped at 1. */
export function missShare(guess: number, answer: number): number {
  if (!Number.isFinite(guess) || !Number.isFinite(answer)) return 1;
  return Math.min(1, Math.abs(guess - answer) / Math.max(Math.abs(answer), 1));
}

/** Keeps at most `max` steps, evenly spread, always the first and the last. */
export function thinSteps<T>(steps: readonly T[], max: number): T[] {
  if (steps.length <= max) return [...steps];
  const kept: T[] = [];
  for (let index = 0; index < max; index++)
    kept.push(steps[Math.round((index * (steps.length - 1)) / (max - 1))]!);
  return kept;
}

/** A ledger row of the member as the points line reads it, in ledger order. */
export interface PointsLedgerRow {
  kind: (typeof LEDGER_KINDS)[number];
  betId: number | null;
  totalDelta: number;
  at: string;
}

/**
 * The member's total after each change of it, oldest first, leaving out the results that were
 * undone: a payout later reversed (an undo, or the old answer of a re-resolution) and its
 * reversal never happened as far as the line shows, so an undone win draws no spike. The
 * total is the same either way (a reversal is its payout's exact opposite). Rows that leave
 * the total as it was (a wager, a refund) draw nothing either.
 */
export function pointsOverTimeOf(rows: readonly PointsLedgerRow[]): PointsStep[] {
  const undone = new Set<number>();
  /** Per bet, the indexes of its payouts not yet taken back, latest last. */
  const payouts = new Map<number, number[]>();
  rows.forEach((row, index) => {
    if (row.betId === null) return;
    if (row.kind === 'payout') {
      const open = payouts.get(row.betId);
      if (open) open.push(index);
      else payouts.set(row.betId, [index]);
    } else if (row.kind === 'payout_reversed') {
      const paid = payouts.get(row.betId)?.pop();
      if (paid === undefined) return;
      undone.add(paid);
      undone.add(index);
    }
  });
  let total = 0;
  const steps: PointsStep[] = [];
  rows.forEach((row, index) => {
    total += row.totalDelta;
    if (row.totalDelta !== 0 && !undone.has(index)) steps.push({ at: row.at, total });
  });
  return steps;
}
