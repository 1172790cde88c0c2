// Period leaderboards: "This week", "This month" beside "All time". A member's
// points in a period are what they won or lost in it: the sum of the total deltas of their
// result entries in the ledger (payouts and their reversals; refunds are 0), created in the period. Join grants,
// and any other grant, are not results. Ranks share places on equal points (1, 2, 2, 4), and
// the movement is the rank in the previous period of the same length minus the rank now, shown
// only where there is an earlier standing to compare with (periodMovements). The
// wire schemas: schemas/leaderboard-periods.ts.

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

/** GET /api/groups/{id}/leaderboard/period?from=…&previousFrom=… (the client's calendar). */
export type PeriodLeaderboardQuery = { from: string; previousFrom: string };

export type PeriodResult = {
  userId: number;
  name: string;
  /** Won or lost since `from`. */
  points: number;
  /** Won or lost from `previousFrom` until `from`. */
  previousPoints: number;
  /** Had a result before `from` (ever): without one there is no earlier place to move from. */
  hasEarlierResults?: boolean;
  /**
   * The bets they wagered on since `from` (docs/rules.md "Played"): who plays, beside who won.
   * The server's count; a copy worked out offline from the mirror has none.
   */
  played?: number;
};

/** The ledger kind of a wager placed: one per member and bet, so counting them counts bets played. */
export const PLAYED_LEDGER_KIND = 'wager_placed' as const;

export type PeriodLeaderboard = {
  groupId: number;
  from: string;
  previousFrom: string;
  members: PeriodResult[];
};

export interface RankedPeriodResult extends PeriodResult {
  rank: number;
  /** Places climbed since the previous period (negative: dropped); null: no earlier place to compare with. */
  movement: number | null;
}

/** What settling a bet did to one member's total, and when: one result entry of the ledger. */
export interface ResultEntry {
  userId: number;
  totalDelta: number;
  at: string | Date;
}

/** An instant as milliseconds, from the wire's ISO text or the database's Date. */
export const msOf = (at: string | Date) => (typeof at === 'string' ? Date.parse(at) : at.getTime());

/**
 * Each member's sums for a period: what their result entries made since `from`, and from
 * `previousFrom` until `from`; and whether they had any result before `from`. The server feeds
 * it the ledger, the client the entries its mirror rebuilds (settlement-entries.ts): one rule.
 */
export function sumPeriodResults(
  members: ReadonlyArray<{ userId: number; name: string }>,
  entries: readonly ResultEntry[],
  window: { from: string | Date; previousFrom: string | Date },
  /** With the server's counts of wagers placed since `from`, each member's `played` (0 if none). */
  played?: ReadonlyArray<{ userId: number; played: number }>,
): PeriodResult[] {
  const from = msOf(window.from);
  const previousFrom = msOf(window.previousFrom);
  const playedBy = played && new Map(played.map((row) => [row.userId, row.played]));
  const sums = new Map<number, PeriodResult>();
  for (const { userId, name } of members) {
    const sum: PeriodResult = {
      userId,
      name,
      points: 0,
      previousPoints: 0,
      hasEarlierResults: false,
    };
    if (playedBy) sum.played = playedBy.get(userId) ?? 0;
    sums.set(userId, sum);
  }
  for (const entry of entries) {
    const sum = sums.get(entry.userId);
    if (!sum) continue;
    const at = msOf(entry.at);
    if (at >= from) sum.points += entry.totalDelta;
    else {
      sum.hasEarlierResults = true;
      if (at >= previousFrom) sum.previousPoints += entry.totalDelta;
    }
  }
  return [...sums.values()].sort((a, b) => a.userId - b.userId);
}

/**
 * The places a member climbed since the period before, or null when there is no earlier
 * standing to compare with: they had no result before this period (new to the group, or never
 * settled a bet), or everyone who had one stood level (a group's first week). The earlier
 * places are among those who had a result; a copy kept from before this rule counts everyone.
 */
export function periodMovements(
  members: readonly PeriodResult[],
): Map<PeriodResult, number | null> {
  const now = competitionRanks(members, (member) => member.points);
  const earlier = members.filter((member) => member.hasEarlierResults !== false);
  const isLevel = earlier.every((member) => member.previousPoints === earlier[0]?.previousPoints);
  const before = competitionRanks(earlier, (member) => member.previousPoints);
  return new Map(
    members.map((member) => {
      const rankBefore = before.get(member);
      return [member, isLevel || rankBefore === undefined ? null : rankBefore - now.get(member)!];
    }),
  );
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
  const movements = periodMovements(members);
  return members
    .map((member) => ({
      ...member,
      rank: now.get(member)!,
      movement: movements.get(member)!,
    }))
    .sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name) || a.userId - b.userId);
}
