// The ledger of ARCHITECTURE.md §4: every change of a membership's points is one entry, and
// this is the one place its deltas are computed, by the server when it writes ledger rows and
// by the client when it updates points optimistically or applies a realtime event (spec 02 §4).
// A membership's points are the sum of its entries' deltas.

export const LEDGER_KINDS = [
  'join_grant',
  'wager_placed',
  'wager_changed',
  'payout',
  'refund',
] as const;

export type LedgerEvent =
  /** Joining a group grants its defaultPoints, once per membership. */
  | { kind: 'join_grant'; points: number }
  /** Placing a wager sets points aside: available drops, total stays until the bet settles. */
  | { kind: 'wager_placed'; points: number }
  /** Changing a wager debits or credits the difference (ARCHITECTURE.md §4). */
  | { kind: 'wager_changed'; previousPoints: number; points: number }
  /** A resolution entry (spec 02 §3 distribution): total by winnings − wagerAmount, available by winnings. */
  | { kind: 'payout'; winnings: number; wagerAmount: number }
  /** Cancel, expiry, no winner or an over/under push: the stake comes back, total unchanged. */
  | { kind: 'refund'; wagerAmount: number };

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

export type Points = { totalPoints: number; availablePoints: number };

/**
 * Apply a delta to a membership's points. The server never needs `floorAtZero` (its CHECK
 * constraint holds); the client uses it for other members' points, which it only knows from
 * the leaderboard (spec 02 §4: "the same with a floor of 0").
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

/** Whether points satisfy the membership invariant 0 <= available <= total (ARCHITECTURE.md §4). */
export function isValidPoints(points: Points): boolean {
  return (
    Number.isInteger(points.totalPoints) &&
    Number.isInteger(points.availablePoints) &&
    points.availablePoints >= 0 &&
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
