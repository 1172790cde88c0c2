import { canonicalDecimal, DECIMAL_PATTERN, type BetRules } from './bets';

// The pari-mutuel payout of ARCHITECTURE.md §5, the one copy of the rule: the server pays with
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

/** One entry of the betResolved payload (spec 02 §3): total changes by winnings − wagerAmount, available by winnings. */
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

/** The order in which leftover points are handed out among equal remainders: earliest wager first (createdAt, then id). */
export function compareWagerAge(
  a: Pick<PayoutWager, 'id' | 'createdAt'>,
  b: Pick<PayoutWager, 'id' | 'createdAt'>,
): number {
  const timeA = Date.parse(a.createdAt);
  const timeB = Date.parse(b.createdAt);
  const validA = Number.isFinite(timeA);
  const validB = Number.isFinite(timeB);
  if (validA && validB && timeA !== timeB) return timeA - timeB;
  if (validA !== validB) return validA ? -1 : 1;
  return a.id - b.id;
}

function inWagerOrder<T extends PayoutWager>(wagers: readonly T[]): T[] {
  return [...wagers].sort(compareWagerAge);
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

// ---- who wins (ARCHITECTURE.md §5 table) ----

type Decimal = { units: bigint; scale: number };

function parseDecimal(value: string): Decimal | null {
  const text = canonicalDecimal(value);
  if (!DECIMAL_PATTERN.test(text)) return null;
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const units = BigInt(whole + fraction) * (text.startsWith('-') ? -1n : 1n);
  return { units, scale: fraction.length };
}

/**
 * A JSON number as the exact decimal it was written as: its shortest round-trip text (what
 * JSON.stringify sends back), exponent form included. The over/under line is such a number.
 */
export function decimalOfNumber(value: number): Decimal {
  const [mantissa = '0', exponentText = '0'] = String(value).toLowerCase().split('e');
  const isNegative = mantissa.startsWith('-');
  const [whole = '0', fraction = ''] = mantissa.replace('-', '').split('.');
  const scale = fraction.length - Number(exponentText);
  const digits = BigInt(whole + fraction) * (isNegative ? -1n : 1n);
  return scale >= 0
    ? { units: digits, scale }
    : { units: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** -1, 0 or 1 as a < b, a = b, a > b, exactly. */
function compareDecimals(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = atScale(a, scale);
  const right = atScale(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

function atScale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export type Winners = {
  /** An over/under bet whose actual number equals its line: everyone is refunded. */
  isPush: boolean;
  winningWagerIds: Set<number>;
};

/**
 * Which wagers win against a correct answer: yes_no and multiple_choice by equality; numeric
 * by the smallest absolute difference, computed exactly in decimal (ties all win); over_under
 * over if actual > line, under if actual < line, a push when equal, all compared exactly. Throws when the answer
 * does not fit the bet: check it with `validateCorrectAnswer` first.
 */
export function findWinners(
  bet: BetRules,
  wagers: readonly Pick<PayoutWager, 'id' | 'prediction'>[],
  correctAnswer: string,
): Winners {
  const answer = correctAnswer.trim();
  switch (bet.betType) {
    case 'yes_no':
    case 'multiple_choice':
      return {
        isPush: false,
        winningWagerIds: new Set(
          wagers.filter((wager) => wager.prediction.trim() === answer).map((wager) => wager.id),
        ),
      };
    case 'numeric': {
      const actual = parseDecimal(answer);
      if (!actual)
        throw new Error(
          `A numeric bet is resolved with a number, not ${JSON.stringify(correctAnswer)}`,
        );
      const parsed = wagers.flatMap((wager) => {
        const value = parseDecimal(wager.prediction);
        return value ? [{ id: wager.id, value }] : [];
      });
      if (parsed.length === 0) return { isPush: false, winningWagerIds: new Set() };
      const scale = Math.max(actual.scale, ...parsed.map((entry) => entry.value.scale));
      const target = atScale(actual, scale);
      const distances = parsed.map((entry) => {
        const difference = atScale(entry.value, scale) - target;
        return { id: entry.id, distance: difference < 0n ? -difference : difference };
      });
      const closest = distances.reduce(
        (best, entry) => (entry.distance < best ? entry.distance : best),
        distances[0]!.distance,
      );
      return {
        isPush: false,
        winningWagerIds: new Set(
          distances.filter((entry) => entry.distance === closest).map((entry) => entry.id),
        ),
      };
    }
    case 'over_under': {
      const line = (bet.betTypeConfig as { line?: unknown }).line;
      const actual = parseDecimal(answer);
      if (typeof line !== 'number' || !Number.isFinite(line))
        throw new Error('An over/under bet needs a numeric line');
      if (!actual)
        throw new Error(
          `An over/under bet is resolved with the actual number, not ${JSON.stringify(correctAnswer)}`,
        );
      // Exactly, in decimal: as floats, 123456789012345.13 against a line of …45.12 was a push.
      const comparison = compareDecimals(actual, decimalOfNumber(line));
      if (comparison === 0) return { isPush: true, winningWagerIds: new Set() };
      const side = comparison > 0 ? 'over' : 'under';
      return {
        isPush: false,
        winningWagerIds: new Set(
          wagers.filter((wager) => wager.prediction.trim() === side).map((wager) => wager.id),
        ),
      };
    }
    default:
      throw new Error(`Unsupported bet type ${bet.betType}`);
  }
}

/** Every wager back in full: on cancel and expiry, and when nobody wins (ARCHITECTURE.md §5). In wager order. */
export function refunds(wagers: readonly PayoutWager[]): Distribution[] {
  return inWagerOrder(wagers).map((wager) => ({
    userId: wager.userId,
    winnings: wager.points,
    wagerAmount: wager.points,
  }));
}

/**
 * Resolve a bet: the pool P is every wager's points; winners share P in proportion to their
 * points (floor(P × w / W), leftovers to the largest remainders, then the earliest wager);
 * with no winner or on an over/under push every wager is refunded. The winnings always add
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
