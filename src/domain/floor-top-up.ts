// "Nobody is out of the game": once a week, a member whose available points fall
// below the group's base wager is topped up to a floor, recorded in the ledger (kind
// floor_top_up). Bets pick their base wager from the group's stake tiers (stakes.ts), so the
// group's base wager is its largest tier: below it, some bets are closed to the member even at ×1.
// The floor is a tenth of the group's starting points, and never less than three of the largest
// base wagers (so a topped-up member can always play a few bets).
import { DEFAULT_STAKE_TIERS, largestStake } from './stakes';

/** The largest base wager of the spec's tiers: a member with fewer available points is topped up. */
export const FLOOR_TOP_UP_THRESHOLD = largestStake(DEFAULT_STAKE_TIERS);

/** The available points a member is topped up to, in a group of these starting points and tiers. */
export function floorTopUpTarget(
  defaultPoints: number,
  tiers: readonly number[] = DEFAULT_STAKE_TIERS,
): number {
  return Math.max(largestStake(tiers) * 3, Math.ceil(defaultPoints / 10));
}

/** The points a top-up adds, or 0 when the member is not below the group's largest tier. */
export function floorTopUpPoints(
  availablePoints: number,
  defaultPoints: number,
  tiers: readonly number[] = DEFAULT_STAKE_TIERS,
): number {
  if (availablePoints >= largestStake(tiers)) return 0;
  return Math.max(0, floorTopUpTarget(defaultPoints, tiers) - availablePoints);
}

/** The ISO 8601 week of a date (UTC), e.g. "2026-W48": one top-up per member per week. */
export function isoWeek(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  // The Thursday of this week decides its year.
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The top-up setting in words, naming the floor: "…fewer than 3 points get topped up to 10 points once a week." */
export function floorTopUpHint(
  defaultPoints: number,
  tiers: readonly number[] = DEFAULT_STAKE_TIERS,
): string {
  return `Members with fewer than ${largestStake(tiers)} points get topped up to ${floorTopUpTarget(defaultPoints, tiers)} points once a week.`;
}
