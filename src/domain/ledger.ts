// The ledger of docs/architecture.md §4: every change of a membership's points is one entry, and
// this is the one place its deltas are computed, by the server when it writes ledger rows and
// by the client when it updates points optimistically or applies a realtime event (docs/groups-and-bets.md §4).
// A membership's points are the sum of its entries' deltas.

export const LEDGER_KINDS = [
  'join_grant',
  'wager_placed',
  'wager_changed',
  'payout',
  'refund',
  'payout_reversed',
  'refund_reversed',
  'floor_top_up',
  'season_reset',
] as const;

export type LedgerEvent =
  /** Joining a group grants its defaultPoints, once per membership. */
  | { kind: 'join_grant'; points: number }
  /** Placing a wager sets points aside: available drops, total stays until the bet settles. */
  | { kind: 'wager_placed'; points: number }
  /** Changing a wager debits or credits the difference (docs/architecture.md §4). */
  | { kind: 'wager_changed'; previousPoints: number; points: number }
  /** A resolution entry (docs/groups-and-bets.md §3 distribution): total by winnings − wagerAmount, available by winnings. */
  | { kind: 'payout'; winnings: number; wagerAmount: number }
  /** Cancel, expiry, no winner or an over/under push: the stake comes back, total unchanged. */
  | { kind: 'refund'; wagerAmount: number }
  /** Undoing a resolution: the payout's exact opposite, so points are back where they were. */
  | { kind: 'payout_reversed'; winnings: number; wagerAmount: number }
  /** Undoing a resolution that refunded: the stake is set aside again, as it was while the bet was open. */
  | { kind: 'refund_reversed'; wagerAmount: number }
  /**
   * "Nobody is out of the game": the weekly job tops a member's available points
   * up to the group's floor. New points, so total and available both grow (the one kind besides
   * join_grant that adds points to a group: src/server/jobs/floor-top-up.job.ts).
   */
  | { kind: 'floor_top_up'; points: number }
  /**
   * A season that chose the reset ended: available points are set back to the group's starting
   * points, `points` being the difference (negative for a leader). Points held in open wagers stay
   * held, so total moves with available (src/server/seasons/season-end.ts).
   */
  | { kind: 'season_reset'; points: number };

export type PointsDelta = { totalDelta: number; availableDelta: number };

export function ledgerDelta(event: LedgerEvent): PointsDelta {
  switch (event.kind) {
    case 'join_grant':
      return { totalDelta: event.points, availableDelta: event.points };
    case 'wager_placed':
      return { totalDelta: 0, availableDelta: -event.points };
    case 'wager_changed':
      return { totalDelta: 0, availableDelta: event.previousPoints - event.points };
    case 'payout':
      return { totalDelta: event.winnings - event.wagerAmount, availableDelta: event.winnings };
    case 'refund':
      return { totalDelta: 0, availableDelta: event.wagerAmount };
    case 'payout_reversed':
      return { totalDelta: event.wagerAmount - event.winnings, availableDelta: -event.winnings };
    case 'refund_reversed':
      return { totalDelta: 0, availableDelta: -event.wagerAmount };
    case 'floor_top_up':
    case 'season_reset':
      return { totalDelta: event.points, availableDelta: event.points };
  }
}

/** The ledger event of one resolution distribution: a refund when it pays back exactly the stake of a refunded bet. */
export function distributionEvent(
  distribution: { winnings: number; wagerAmount: number },
  refunded: boolean,
): LedgerEvent {
  return refunded
    ? { kind: 'refund', wagerAmount: distribution.wagerAmount }
    : { kind: 'payout', winnings: distribution.winnings, wagerAmount: distribution.wagerAmount };
}

/** The ledger event undoing one distribution of a resolution: distributionEvent's exact opposite. */
export function reversalEvent(
  distribution: { winnings: number; wagerAmount: number },
  refunded: boolean,
): LedgerEvent {
  return refunded
    ? { kind: 'refund_reversed', wagerAmount: distribution.wagerAmount }
    : {
        kind: 'payout_reversed',
        winnings: distribution.winnings,
        wagerAmount: distribution.wagerAmount,
      };
}

export type Points = { totalPoints: number; availablePoints: number };

/**
 * Apply a delta to a membership's points. The server never needs `floorAtZero` (its CHECK
 * constraint holds); the client uses it for other members' points, which it only knows from
 * the leaderboard (docs/groups-and-bets.md §4: "the same with a floor of 0").
 */
export function applyPointsDelta<T extends Points>(
  points: T,
  delta: PointsDelta,
  options: { floorAtZero?: boolean } = {},
): T {
  const totalPoints = points.totalPoints + delta.totalDelta;
  const availablePoints = points.availablePoints + delta.availableDelta;
  return options.floorAtZero
    ? {
        ...points,
        totalPoints: Math.max(0, totalPoints),
        availablePoints: Math.max(0, availablePoints),
      }
    : { ...points, totalPoints, availablePoints };
}

/**
 * Whether points satisfy the membership invariant available <= total: points held in open
 * wagers are never negative. Available points may be, after a re-resolution took back winnings
 * already wagered again (the server's CHECK holds the same).
 */
export function isValidPoints(points: Points): boolean {
  return (
    Number.isInteger(points.totalPoints) &&
    Number.isInteger(points.availablePoints) &&
    points.availablePoints <= points.totalPoints
  );
}

/** The sum of many deltas: a membership's points are the sum of its ledger entries. */
export function sumDeltas(deltas: Iterable<PointsDelta>): PointsDelta {
  let totalDelta = 0;
  let availableDelta = 0;
  for (const delta of deltas) {
    totalDelta += delta.totalDelta;
    availableDelta += delta.availableDelta;
  }
  return { totalDelta, availableDelta };
}
