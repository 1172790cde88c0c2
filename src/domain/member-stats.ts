import { BET_TYPES } from './bet-types';
import { idSchema } from './ids';
import { z } from './zod';

// A member's track record in a group, computed by the server from resolved bets
// only: a bet whose resolution was undone is active again and does not count until it is
// resolved anew. A wager is right when the bet's rule made it a winner, wrong when it lost;
// a refund (nobody won, an over/under push) is played but neither.

/** GET /groups/{id}/members/{userId}/stats?vs={otherUserId} */
export const memberStatsQuerySchema = z.object({
  vs: idSchema('Pick a member to compare with').optional(),
});

const betRefSchema = z.object({ betId: z.number().int(), title: z.string() });

export const typeAccuracySchema = z.object({
  betType: z.enum(BET_TYPES),
  /** The type's name as the bet form shows it ("Yes / No"). */
  name: z.string(),
  /** Resolved bets of this type played (refunds included). */
  played: z.number().int(),
  /** Bets of this type won or lost. */
  decided: z.number().int(),
  won: z.number().int(),
  /**
   * Numeric bets only: how far the guesses were from the answer, on average, as a share of the
   * answer (0 is spot on; |guess − answer| / max(|answer|, 1), capped at 1). Null otherwise.
   */
  averageMiss: z.number().nullable(),
});
export type TypeAccuracy = z.infer<typeof typeAccuracySchema>;

/** One step of the points-over-time line: the member's total points after a change. */
export const pointsStepSchema = z.object({ at: z.string(), total: z.number().int() });
export type PointsStep = z.infer<typeof pointsStepSchema>;

export const headToHeadSchema = z.object({
  otherUserId: z.number().int(),
  otherName: z.string(),
  /** Resolved bets both played. */
  betsTogether: z.number().int(),
  /** Of those, how often each was right. */
  youRight: z.number().int(),
  themRight: z.number().int(),
  /** Net points each won or lost on those bets. */
  youNet: z.number().int(),
  themNet: z.number().int(),
});
export type HeadToHead = z.infer<typeof headToHeadSchema>;

export const memberStatsSchema = z.object({
  groupId: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  totalPoints: z.number().int(),
  betsPlayed: z.number().int(),
  won: z.number().int(),
  lost: z.number().int(),
  /** won / (won + lost), or null before the first decided bet. */
  winRate: z.number().nullable(),
  /** Points won minus points lost on resolved bets. */
  netPoints: z.number().int(),
  /** The largest net gain on one bet. */
  bestWin: betRefSchema.extend({ points: z.number().int() }).nullable(),
  /** Consecutive wins (or losses) up to the latest decided bet; refunds neither break nor extend it. */
  streak: z.object({ kind: z.enum(['won', 'lost']), count: z.number().int() }).nullable(),
  accuracy: z.array(typeAccuracySchema),
  /** At most MAX_POINTS_STEPS steps, oldest first. */
  pointsOverTime: z.array(pointsStepSchema),
  headToHead: headToHeadSchema.nullable(),
});
export type MemberStats = z.infer<typeof memberStatsSchema>;

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
