import { z } from './zod';
import { BET_TYPES } from '../bet-types';
import { idSchema } from './ids';

// A member's track record on the wire (types and rules: member-stats.ts).

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

/** One step of the points-over-time line: the member's total points after a change. */
export const pointsStepSchema = z.object({ at: z.string(), total: z.number().int() });

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
