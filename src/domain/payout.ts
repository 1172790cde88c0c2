import { findWinners, type BetRules } from './bet-types';

// The pari-mutuel payout of docs/architecture.md §5, the one copy of the rule: the server pays with
// it, the client's odds (odds.ts) and the statistics (bet-statistics.ts) reuse its parts.
// Points are integers and the pool is shared with BigInt, so no rounding ever creates or
// destroys a point: the winnings always add up to the pool.

/** The wager fields the rule reads. `createdAt` breaks ties: the earliest wager gets a leftover point first. */
export type PayoutWager = {
  id: number;
  userId: number;
  prediction: string;
  points: number;
  createdAt: string;
};

/** One entry of the betResolved payload (docs/groups-and-bets.md §3): total changes by winnings − wagerAmount, available by winnings. */
export type Distribution = { userId: number; winnings: number; wagerAmount: number };

export type Resolution = {
  /** 'paid' when some wager won; 'refunded' when nobody won or an over/under landed on its line. */
  outcome: 'paid' | 'refunded';
  /** Why the wagers were refunded, when they were. */
  refundReason: 'no_winner' | 'push' | null;
  pool: number;
  /** The winning users' ids, in wager order (empty on a refund). */
  winners: number[];
  winningWagerIds: number[];
  /** One entry per wager, losers included (winnings 0), in wager order. */
  distributions: Distribution[];
};

/** A wager's time for ordering: NaN (an unreadable date) sorts after every readable one. */
const timeOf = (wager: Pick<PayoutWager, 'createdAt'>) => Date.parse(wager.createdAt);

/** The order in which leftover points are handed out among equal remainders: earliest wager first (createdAt, then id). */
function compareWagerAge(a: { id: number; time: number }, b: { id: number; time: number }): number {
  const validA = Number.isFinite(a.time);
  const validB = Number.isFinite(b.time);
  if (validA && validB && a.time !== b.time) return a.time - b.time;
  if (validA !== validB) return validA ? -1 : 1;
  return a.id - b.id;
}

/** Each date is read once, not once per comparison: a large bet has hundreds of wagers. */
function inWagerOrder<T extends PayoutWager>(wagers: readonly T[]): T[] {
  return wagers
    .map((wager) => ({ wager, id: wager.id, time: timeOf(wager) }))
    .sort(compareWagerAge)
    .map((entry) => entry.wager);
}

/** The pool P: the sum of all wager points. */
export function poolOf(wagers: readonly Pick<PayoutWager, 'points'>[]): number {
  return wagers.reduce((sum, wager) => sum + wager.points, 0);
}

/**
 * A winner's whole share before leftovers: floor(P × w / W). Exact for any safe integers
 * (BigInt), so odds.ts shows the same number the payout gives.
 */
export function proportionalShare(pool: number, stake: number, winningStake: number): number {
  if (winningStake <= 0) return 0;
  return Number((BigInt(pool) * BigInt(stake)) / BigInt(winningStake));
}

/**
 * Split `pool` among stakes in proportion to their points: floor shares first, then the
 * leftover points one at a time to the largest remainders, ties to the earliest stake (the
 * order of `stakes`). The result adds up to `pool` exactly when the stakes' sum is positive.
 */
export function splitPool(pool: number, stakes: readonly number[]): number[] {
  const winningStake = stakes.reduce((sum, stake) => sum + stake, 0);
  if (winningStake <= 0) return stakes.map(() => 0);
  const total = BigInt(winningStake);
  const shares = stakes.map((stake, index) => {
    const product = BigInt(pool) * BigInt(stake);
    return { index, share: product / total, remainder: product % total };
  });
  let leftover = BigInt(pool) - shares.reduce((sum, entry) => sum + entry.share, 0n);
  const byRemainder = [...shares].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const entry of byRemainder) {
    if (leftover <= 0n) break;
    entry.share += 1n;
    leftover -= 1n;
  }
  return shares.map((entry) => Number(entry.share));
}

/**
 * Every wager back in full: on cancel and expiry, and when nobody wins (docs/architecture.md §5).
 * In wager order. A wager that staked nothing (a score tip) has nothing to get back: no entry.
 */
export function refunds(wagers: readonly PayoutWager[]): Distribution[] {
  return inWagerOrder(wagers.filter((wager) => wager.points > 0)).map((wager) => ({
    userId: wager.userId,
    winnings: wager.points,
    wagerAmount: wager.points,
  }));
}

/**
 * Resolve a bet: the pool P is every wager's points; the bet type's rule picks the winners
 * (bet-types.ts), who share P in proportion to their points (floor(P × w / W), leftovers to
 * the largest remainders, then the earliest wager); with no winner or on an over/under push every
 * wager is refunded. The winnings always add
 * up to P; the input order of `wagers` does not matter.
 */
export function computeResolution(
  bet: BetRules,
  wagers: readonly PayoutWager[],
  correctAnswer: string,
): Resolution {
  const ordered = inWagerOrder(wagers);
  const pool = poolOf(ordered);
  const { isPush, winningWagerIds } = findWinners(bet, ordered, correctAnswer);
  const winning = ordered.filter((wager) => winningWagerIds.has(wager.id) && wager.points > 0);
  if (isPush || winning.length === 0) {
    return {
      outcome: 'refunded',
      refundReason: isPush ? 'push' : 'no_winner',
      pool,
      winners: [],
      winningWagerIds: [],
      distributions: refunds(ordered),
    };
  }
  const shares = splitPool(
    pool,
    winning.map((wager) => wager.points),
  );
  const winningsById = new Map(winning.map((wager, index) => [wager.id, shares[index] ?? 0]));
  return {
    outcome: 'paid',
    refundReason: null,
    pool,
    winners: winning.map((wager) => wager.userId),
    winningWagerIds: winning.map((wager) => wager.id),
    distributions: ordered.map((wager) => ({
      userId: wager.userId,
      winnings: winningsById.get(wager.id) ?? 0,
      wagerAmount: wager.points,
    })),
  };
}
