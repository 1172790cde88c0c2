import { wagerMultiplier } from './bets';
import { isBettingOpen } from './fair-resolution';
import { mayAfford } from './policies/bet-policy';

// The client's bet queues, list orders, search and countdown (docs/groups-and-bets.md §2, §4, §9). Each
// ordering is total (every tie ends in the id), so a list never reorders by itself when the
// same bets arrive in another order from the server or the socket.

type Dated = { id: number; expiresAt: string };

function timeOf(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

/** Earlier time first, a missing or invalid time last; 0 when both are equal or both missing. */
function compareTimes(a: number | null, b: number | null): number {
  if (a !== null && b !== null) return a - b;
  if (a === null && b === null) return 0;
  return a === null ? 1 : -1;
}

/** Active list order (docs/groups-and-bets.md §4): soonest expiry first, invalid dates last, then lower id. */
export function compareActiveBets(a: Dated, b: Dated): number {
  return compareTimes(timeOf(a.expiresAt), timeOf(b.expiresAt)) || a.id - b.id;
}

/**
 * Resolved list order (docs/groups-and-bets.md §4): most recently resolved first, missing
 * resolvedAt last, then higher id (the newer bet).
 */
export function compareResolvedBets(
  a: { id: number; resolvedAt?: string | null },
  b: { id: number; resolvedAt?: string | null },
): number {
  const timeA = timeOf(a.resolvedAt);
  const timeB = timeOf(b.resolvedAt);
  // Reversed for "most recent first", keeping missing ones last.
  const byTime = timeA !== null && timeB !== null ? timeB - timeA : compareTimes(timeA, timeB);
  return byTime || b.id - a.id;
}

export function sortActiveBets<T extends Dated>(bets: readonly T[]): T[] {
  // compareActiveBets' order, each date read once rather than on every comparison.
  const times = new Map(bets.map((bet) => [bet, timeOf(bet.expiresAt)]));
  return [...bets].sort(
    (a, b) => compareTimes(times.get(a) ?? null, times.get(b) ?? null) || a.id - b.id,
  );
}

/** Resolved bets in list order; docs/groups-and-bets.md §4 also logs those without resolvedAt (see `betsMissingResolvedAt`). */
export function sortResolvedBets<T extends { id: number; resolvedAt?: string | null }>(
  bets: readonly T[],
): T[] {
  return [...bets].sort(compareResolvedBets);
}

/** The resolved bets docs/groups-and-bets.md §4 wants logged: no usable resolvedAt. */
export function betsMissingResolvedAt<T extends { id: number; resolvedAt?: string | null }>(
  bets: readonly T[],
): T[] {
  return bets.filter((bet) => timeOf(bet.resolvedAt) === null);
}

/** The resolve queue's head (docs/groups-and-bets.md §4): earliest expiresAt, ties by lower id; null when there is none. */
export function nextBetToResolve<T extends Dated>(bets: Iterable<T>): T | null {
  let best: T | null = null;
  for (const bet of bets) if (best === null || compareActiveBets(bet, best) < 0) best = bet;
  return best;
}

/**
 * Wagering is open while the bet is active, its expiry has not passed (an unparsable date counts
 * as not expired, docs/groups-and-bets.md §4) and its picks were never shown (fair-resolution.ts isBettingOpen).
 */
export function isWageringOpen(
  bet: { state: string; expiresAt: string; picksRevealedAt?: string | null },
  now: number,
): boolean {
  return isBettingOpen(bet, now);
}

/**
 * What is open across the player's groups: the bets still taking wagers (isBettingOpen),
 * soonest close first, in the active list's order.
 */
export function openBets<T extends Dated & { state: string; picksRevealedAt?: string | null }>(
  bets: Iterable<T>,
  now: number,
): T[] {
  return sortActiveBets([...bets].filter((bet) => isBettingOpen(bet, now)));
}

/**
 * The bet queue's head (docs/groups-and-bets.md §4): the earliest-expiring unwagered bet whose group's
 * available points cover its base wager. Memberships are keyed by group id (as in
 * /member/state). With `now`, bets whose wagering has closed are skipped too.
 */
export function nextActionableBet<
  T extends Dated & {
    groupId: number;
    baseWagerAmount: number;
    state?: string;
    picksRevealedAt?: string | null;
  },
>(
  unwageredBets: Iterable<T>,
  memberships: Readonly<Record<string, { availablePoints: number } | undefined>>,
  now?: number,
): T | null {
  let best: T | null = null;
  for (const bet of unwageredBets) {
    const available = memberships[String(bet.groupId)]?.availablePoints ?? 0;
    if (!mayAfford(available, bet).allowed) continue;
    if (
      now !== undefined &&
      !isWageringOpen(
        {
          state: bet.state ?? 'active',
          expiresAt: bet.expiresAt,
          picksRevealedAt: bet.picksRevealedAt,
        },
        now,
      )
    )
      continue;
    if (best === null || compareActiveBets(bet, best) < 0) best = bet;
  }
  return best;
}

/** Bet search (docs/groups-and-bets.md §5): a case-insensitive substring of the title on the trimmed query; blank matches all. */
export function searchBets<T extends { title: string }>(bets: readonly T[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  return needle === '' ? [...bets] : bets.filter((bet) => bet.title.toLowerCase().includes(needle));
}

/** The multiplier an existing wager prefills (docs/groups-and-bets.md §4): points / base when that is 1, 2 or 3, else none. */
export function prefillMultiplier(points: number, base: number): 1 | 2 | 3 | null {
  return wagerMultiplier(base, points);
}

// ---- countdown (docs/groups-and-bets.md §2, §4, §9) ----

export const COUNTDOWN = {
  tickMs: 1000,
  warningMs: 24 * 60 * 60 * 1000,
  errorMs: 60 * 60 * 1000,
} as const;

export type CountdownTone = 'success' | 'warning' | 'error';

/** The countdown's colour: success above 24 h, warning within 24 h, error within 1 h or once ended. */
export function countdownTone(msLeft: number): CountdownTone {
  if (msLeft <= COUNTDOWN.errorMs) return 'error';
  if (msLeft <= COUNTDOWN.warningMs) return 'warning';
  return 'success';
}

/**
 * The countdown's text: "Expired" once ended, then the two largest units ("2d 4h", "3h 12m"),
 * minutes alone within the hour ("12m"), seconds only in the last minute ("45s", never "0s"
 * while time remains).
 */
export function formatCountdown(msLeft: number): string {
  if (!(msLeft > 0)) return 'Expired';
  if (msLeft < 60_000) return `${Math.max(1, Math.floor(msLeft / 1000))}s`;
  const totalMinutes = Math.floor(msLeft / 60_000);
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}
