import { z } from './zod';
import { idSchema } from './ids';
import { competitionRanks } from './leaderboard-periods';

// Seasons: a group's admin starts one with a name and an end date; when it ends
// (on its date, by the seasons job, or "End season now") its final standings are archived and,
// if the admin chose it at the start, every member's available points go back to the group's
// starting points through the ledger (kind season_reset). A member's points in a season are
// what they won or lost in it: the ledger's result entries (RESULT_LEDGER_KINDS) created between
// its start and its end, as the period leaderboards count them. Ties share a rank (1, 2, 2, 4).

export const SEASON_STATES = ['active', 'ended'] as const;
export type SeasonState = (typeof SEASON_STATES)[number];

export const SEASON_LIMITS = {
  nameMax: 40,
  /** A season ends at most this long after it starts. */
  maxLengthMs: 365 * 86_400_000,
} as const;

export const SEASON_MESSAGES = {
  nameRequired: 'Give the season a name',
  nameMax: 'A season name is at most 40 characters',
  endsAtRequired: 'Pick when the season ends',
  endsAtPast: 'The end date must be in the future',
  endsAtTooFar: 'A season can last a year at most',
} as const;

export const startSeasonRequestSchema = z.strictObject({
  name: z
    .string({ error: SEASON_MESSAGES.nameRequired })
    .trim()
    .min(1, SEASON_MESSAGES.nameRequired)
    .max(SEASON_LIMITS.nameMax, SEASON_MESSAGES.nameMax),
  endsAt: z.iso.datetime({ offset: true, error: SEASON_MESSAGES.endsAtRequired }),
  /** At the end, set everyone's available points back to the group's starting points. */
  resetPoints: z.boolean().default(false),
});
export type StartSeasonRequest = z.input<typeof startSeasonRequestSchema>;

/** Why an end date is refused at `now`, or null when it is fine (the server and the sheet agree). */
export function endsAtProblem(endsAt: Date, now: Date): string | null {
  if (Number.isNaN(endsAt.getTime())) return SEASON_MESSAGES.endsAtRequired;
  if (endsAt.getTime() <= now.getTime()) return SEASON_MESSAGES.endsAtPast;
  if (endsAt.getTime() - now.getTime() > SEASON_LIMITS.maxLengthMs)
    return SEASON_MESSAGES.endsAtTooFar;
  return null;
}

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
export type SeasonStanding = z.infer<typeof seasonStandingSchema>;

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
export type Season = z.infer<typeof seasonSchema>;

export const versionedSeasonSchema = seasonSchema.extend({ version: z.number().int() });
export type VersionedSeason = z.infer<typeof versionedSeasonSchema>;

export const seasonListSchema = z.object({
  /** The running season first, then past seasons newest first. */
  seasons: z.array(seasonSchema),
});
export type SeasonList = z.infer<typeof seasonListSchema>;

/** Standings by points (ties share a rank), then name, then id. */
export function rankSeasonStandings<T extends Omit<SeasonStanding, 'rank'>>(
  rows: readonly T[],
): Array<T & { rank: number }> {
  const ranks = competitionRanks(rows, (row) => row.points);
  return rows
    .map((row) => ({ ...row, rank: ranks.get(row)! }))
    .sort((a, b) => a.rank - b.rank || a.userName.localeCompare(b.userName) || a.userId - b.userId);
}

/** "Maya", "Maya and Sam", "Maya, Sam and 2 others": who came first, for the season's inbox entry. */
export function namesPhrase(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  const others = names.length - 2;
  return `${names[0]}, ${names[1]} and ${others} other${others === 1 ? '' : 's'}`;
}

/** A season's podium as a plain value, for the archive and for a share card to draw. */
export interface SeasonPodium {
  seasonName: string;
  groupName: string;
  /** Up to three places, by rank (ties share one). */
  places: Array<{ rank: number; userId: number; name: string; points: number }>;
}

export function seasonPodium(
  season: Pick<Season, 'name' | 'standings'>,
  groupName: string,
): SeasonPodium {
  return {
    seasonName: season.name,
    groupName,
    places: season.standings
      .filter((standing) => standing.rank <= 3)
      .slice(0, 3)
      .map((standing) => ({
        rank: standing.rank,
        userId: standing.userId,
        name: standing.userName,
        points: standing.points,
      })),
  };
}
