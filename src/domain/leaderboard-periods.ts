import { z } from './zod';

// Period leaderboards: "This week", "This month" beside "All time". A member's
// points in a period are what they won or lost in it: the sum of the total deltas of their
// result entries in the ledger (payouts and their reversals; refunds are 0), created in the period. Join grants,
// and any other grant, are not results. Ranks share places on equal points (1, 2, 2, 4), and
// the movement is the rank in the previous period of the same length minus the rank now.

export const LEADERBOARD_PERIODS = ['week', 'month'] as const;
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];

/** The ledger kinds that are a game's result; an undone or corrected result takes its own back. */
export const RESULT_LEDGER_KINDS = [
  'payout',
  'refund',
  'payout_reversed',
  'refund_reversed',
] as const;

/** Where a period starts, in the player's own calendar: Monday 00:00, or the 1st at 00:00. */
export function periodStart(period: LeaderboardPeriod, now: Date): Date {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (period === 'month') start.setDate(1);
  else start.setDate(start.getDate() - ((start.getDay() + 6) % 7));
  return start;
}

/** Where the period before it started (a week, or a calendar month, earlier). */
export function previousPeriodStart(period: LeaderboardPeriod, now: Date): Date {
  const start = periodStart(period, now);
  if (period === 'month') return new Date(start.getFullYear(), start.getMonth() - 1, 1);
  return new Date(start.getFullYear(), start.getMonth(), start.getDate() - 7);
}

const instant = (message: string) => z.iso.datetime({ offset: true, error: message });

/** GET /api/groups/{id}/leaderboard/period?from=…&previousFrom=… (the client's calendar). */
export const periodLeaderboardQuerySchema = z
  .strictObject({
    from: instant('from must be a date and time'),
    previousFrom: instant('previousFrom must be a date and time'),
  })
  .refine((query) => Date.parse(query.previousFrom) < Date.parse(query.from), {
    message: 'previousFrom must be before from',
    path: ['previousFrom'],
  })
  .refine((query) => Date.parse(query.from) - Date.parse(query.previousFrom) <= 32 * 86_400_000, {
    message: 'A period is at most a month long',
    path: ['previousFrom'],
  });
export type PeriodLeaderboardQuery = z.infer<typeof periodLeaderboardQuerySchema>;

export const periodResultSchema = z.object({
  userId: z.number().int(),
  name: z.string(),
  /** Won or lost since `from`. */
  points: z.number().int(),
  /** Won or lost from `previousFrom` until `from`. */
  previousPoints: z.number().int(),
});
export type PeriodResult = z.infer<typeof periodResultSchema>;

export const periodLeaderboardSchema = z.object({
  groupId: z.number().int(),
  from: z.string(),
  previousFrom: z.string(),
  members: z.array(periodResultSchema),
});
export type PeriodLeaderboard = z.infer<typeof periodLeaderboardSchema>;

export interface RankedPeriodResult extends PeriodResult {
  rank: number;
  /** Places climbed since the previous period (negative: dropped). */
  movement: number;
}

/** Competition ranks (1, 2, 2, 4) by a score, highest first. */
export function competitionRanks<T>(rows: readonly T[], score: (row: T) => number): Map<T, number> {
  const sorted = [...rows].sort((a, b) => score(b) - score(a));
  const ranks = new Map<T, number>();
  sorted.forEach((row, index) => {
    const before = sorted[index - 1];
    ranks.set(row, before && score(before) === score(row) ? ranks.get(before)! : index + 1);
  });
  return ranks;
}

/** The period's standings: by points, then name; each with its rank and its movement. */
export function rankPeriodResults(members: readonly PeriodResult[]): RankedPeriodResult[] {
  const now = competitionRanks(members, (member) => member.points);
  const before = competitionRanks(members, (member) => member.previousPoints);
  return members
    .map((member) => ({
      ...member,
      rank: now.get(member)!,
      movement: before.get(member)! - now.get(member)!,
    }))
    .sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name) || a.userId - b.userId);
}
