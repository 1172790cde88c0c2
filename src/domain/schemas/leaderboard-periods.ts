import { z } from './zod';

// Period leaderboards on the wire (types and rules: leaderboard-periods.ts).

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

export const periodResultSchema = z.object({
  userId: z.number().int(),
  name: z.string(),
  /** Won or lost since `from`. */
  points: z.number().int(),
  /** Won or lost from `previousFrom` until `from`. */
  previousPoints: z.number().int(),
  /** Had a result before `from` (ever): without one there is no earlier place to move from. */
  hasEarlierResults: z.boolean().optional(),
  /** The bets they wagered on since `from`. */
  played: z.number().int().optional(),
});

export const periodLeaderboardSchema = z.object({
  groupId: z.number().int(),
  from: z.string(),
  previousFrom: z.string(),
  members: z.array(periodResultSchema),
});
