import { competitionRanks, msOf, type ResultEntry } from './leaderboard-periods';

// Seasons: a group's admin starts one with a name and an end date; when it ends
// (on its date, by the seasons job, or "End season now") its final standings are archived and,
// if the admin chose it at the start, every member's available points go back to the group's
// starting points through the ledger (kind season_reset). A member's points in a season are
// what they won or lost in it: the ledger's result entries (RESULT_LEDGER_KINDS) created between
// its start and its end, as the period leaderboards count them. Ties share a rank (1, 2, 2, 4).
// The wire schemas: schemas/seasons.ts.

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

/** POST /groups/{id}/seasons. */
export type StartSeasonRequest = {
  name: string;
  endsAt: string;
  /** At the end, set everyone's available points back to the group's starting points. */
  resetPoints?: boolean | undefined;
};

/** Why an end date is refused at `now`, or null when it is fine (the server and the sheet agree). */
export function endsAtProblem(endsAt: Date, now: Date): string | null {
  if (Number.isNaN(endsAt.getTime())) return SEASON_MESSAGES.endsAtRequired;
  if (endsAt.getTime() <= now.getTime()) return SEASON_MESSAGES.endsAtPast;
  if (endsAt.getTime() - now.getTime() > SEASON_LIMITS.maxLengthMs)
    return SEASON_MESSAGES.endsAtTooFar;
  return null;
}

export type SeasonStanding = {
  userId: number;
  /** The display name as it was when the season ended. */
  userName: string;
  rank: number;
  /** Won or lost during the season. */
  points: number;
  /** Total points when the season ended (before any reset). */
  totalPoints: number;
};

export type Season = {
  id: number;
  groupId: number;
  name: string;
  startsAt: string;
  endsAt: string;
  resetPoints: boolean;
  /** Null once its starter deleted their account. */
  createdBy: number | null;
  state: SeasonState;
  endedAt: string | null;
  /** By rank then name; empty while the season runs. */
  standings: SeasonStanding[];
};

export interface VersionedSeason extends Season {
  version: number;
}

export type SeasonList = {
  /** The running season first, then past seasons newest first. */
  seasons: Season[];
};

/** Standings by points (ties share a rank), then name, then id. */
export function rankSeasonStandings<T extends Omit<SeasonStanding, 'rank'>>(
  rows: readonly T[],
): Array<T & { rank: number }> {
  const ranks = competitionRanks(rows, (row) => row.points);
  return rows
    .map((row) => ({ ...row, rank: ranks.get(row)! }))
    .sort((a, b) => a.rank - b.rank || a.userName.localeCompare(b.userName) || a.userId - b.userId);
}

/**
 * A season's standings from result entries: what each member won or lost from its start until
 * `until` (absent: so far), ranked. The server ends a season with its ledger's entries; a device
 * shows the running season's standings so far with the entries its mirror rebuilds.
 */
export function seasonStandingsOf(
  members: ReadonlyArray<Pick<SeasonStanding, 'userId' | 'userName' | 'totalPoints'>>,
  entries: readonly ResultEntry[],
  window: { startsAt: string | Date; until?: string | Date },
): SeasonStanding[] {
  const start = msOf(window.startsAt);
  const end = window.until === undefined ? Infinity : msOf(window.until);
  const points = new Map<number, number>();
  for (const entry of entries) {
    const at = msOf(entry.at);
    if (at >= start && at < end)
      points.set(entry.userId, (points.get(entry.userId) ?? 0) + entry.totalDelta);
  }
  return rankSeasonStandings(
    members.map((member) => ({
      userId: member.userId,
      userName: member.userName,
      points: points.get(member.userId) ?? 0,
      totalPoints: member.totalPoints,
    })),
  );
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
