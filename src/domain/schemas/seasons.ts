import { z } from './zod';
import { SEASON_LIMITS, SEASON_MESSAGES, SEASON_STATES } from '../seasons';
import { normalizeName } from '../text-rules';
import { idSchema } from './ids';

// Seasons on the wire (types and rules: seasons.ts).

export const startSeasonRequestSchema = z.strictObject({
  name: z
    .string({ error: SEASON_MESSAGES.nameRequired })
    .overwrite(normalizeName)
    .min(1, SEASON_MESSAGES.nameRequired)
    .max(SEASON_LIMITS.nameMax, SEASON_MESSAGES.nameMax),
  endsAt: z.iso.datetime({ offset: true, error: SEASON_MESSAGES.endsAtRequired }),
  /** At the end, set everyone's available points back to the group's starting points. */
  resetPoints: z.boolean().default(false),
});

export const seasonParamsSchema = z.object({
  id: idSchema('Group ID is required'),
  seasonId: idSchema('Season is required'),
});

export const seasonStandingSchema = z.object({
  userId: z.number().int(),
  /** The display name as it was when the season ended. */
  userName: z.string(),
  rank: z.number().int(),
  /** Won or lost during the season. */
  points: z.number().int(),
  /** Total points when the season ended (before any reset). */
  totalPoints: z.number().int(),
});

export const seasonSchema = z.object({
  id: z.number().int(),
  groupId: z.number().int(),
  name: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  resetPoints: z.boolean(),
  /** Null once its starter deleted their account. */
  createdBy: z.number().int().nullable(),
  state: z.enum(SEASON_STATES),
  endedAt: z.string().nullable(),
  /** By rank then name; empty while the season runs. */
  standings: z.array(seasonStandingSchema),
});

export const versionedSeasonSchema = seasonSchema.extend({ version: z.number().int() });

export const seasonListSchema = z.object({
  /** The running season first, then past seasons newest first. */
  seasons: z.array(seasonSchema),
});
