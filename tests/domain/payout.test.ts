import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findWinners } from '../../src/domain/bet-types';
import { computeResolution, refunds, splitPool, type PayoutWager } from '../../src/domain/payout';
import { ledgerDelta, distributionEvent, sumDeltas } from '../../src/domain/ledger';

const yesNo = { betType: 'yes_no', betTypeConfig: { yesLabel: 'Yes', noLabel: 'No' } } as const;
const choice = {
  betType: 'multiple_choice',
  betTypeConfig: { options: ['Red', 'Green', 'Blue'] },
} as const;
const numeric = { betType: 'numeric', betTypeConfig: {} } as const;
const overUnder = (line: number) => ({ betType: 'over_under', betTypeConfig: { line } }) as const;

let nextId = 1;
function wager(
  userId: number,
  prediction: string,
  points: number,
  createdAt = '2025-01-01T00:00:00.000Z',
): PayoutWager {
  nextId += 1;
  return { id: nextId, userId, prediction, points, createdAt };
}

describe('computeResolution', () => {
  it('pays the whole pool to the only winner', () => {
    const result = computeResolution(yesNo, [wager(1, 'yes', 10), wager(2, 'no', 30)], 'yes');
    expect(result.outcome).toBe('paid');
    expect(result.winners).toEqual([1]);
    expect(result.distributions).toEqual([
      { userId: 1, winnings: 40, wagerAmount: 10 },
      { userId: 2, winnings: 0, wagerAmount: 30 },
    ]);
  });

  it('shares the pool among winners in proportion to their points', () => {
    const result = computeResolution(
      choice,
      [wager(1, 'Red', 10), wager(2, 'Red', 30), wager(3, 'Blue', 40)],
      'Red',
    );
    expect(result.distributions.map((entry) => entry.winnings)).toEqual([20, 60, 0]);
  });

  it('gives the leftover point to the largest remainder', () => {
    // P = 10, winners 1 and 2 (W = 3): exact shares 3.33… and 6.66…, floors 3 and 6; the 1 left goes to the 2-point wager.
    const result = computeResolution(
      yesNo,
      [wager(1, 'yes', 1), wager(2, 'yes', 2), wager(3, 'no', 7)],
      'yes',
    );
    expect(result.distributions.map((entry) => entry.winnings)).toEqual([3, 7, 0]);
  });

  it('gives leftover points among equal remainders to the earliest wager, whatever the input order', () => {
    const early = wager(1, 'yes', 1, '2025-01-01T00:00:00.000Z');
    const late = wager(2, 'yes', 1, '2025-01-02T00:00:00.000Z');
    const loser = wager(3, 'no', 1, '2025-01-01T12:00:00.000Z');
    const result = computeResolution(yesNo, [late, loser, early], 'yes');
    expect(result.distributions).toEqual([
      { userId: 1, winnings: 2, wagerAmount: 1 },
      { userId: 3, winnings: 0, wagerAmount: 1 },
      { userId: 2, winnings: 1, wagerAmount: 1 },
    ]);
  });

  it('breaks a createdAt tie by the lower wager id', () => {
    const first = {
      id: 5,
      userId: 1,
      prediction: 'yes',
      points: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
    };
    const second = {
      id: 9,
      userId: 2,
      prediction: 'yes',
      points: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
    };
    const loser = {
      id: 7,
      userId: 3,
      prediction: 'no',
      points: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
    };
    const result = computeResolution(yesNo, [second, loser, first], 'yes');
    expect(result.distributions.find((entry) => entry.userId === 1)?.winnings).toBe(2);
    expect(result.distributions.find((entry) => entry.userId === 2)?.winnings).toBe(1);
  });

  it('refunds every wager when nobody picked the answer', () => {
    const result = computeResolution(choice, [wager(1, 'Red', 3), wager(2, 'Blue', 6)], 'Green');
    expect(result.outcome).toBe('refunded');
    expect(result.refundReason).toBe('no_winner');
    expect(result.distributions).toEqual([
      { userId: 1, winnings: 3, wagerAmount: 3 },
      { userId: 2, winnings: 6, wagerAmount: 6 },
    ]);
  });

  it('pays the closest numeric guesses, all of them when tied', () => {
    const result = computeResolution(
      numeric,
      [wager(1, '8', 2), wager(2, '12', 2), wager(3, '20', 2)],
      '10',
    );
    expect(result.winners).toEqual([1, 2]);
    expect(result.distributions.map((entry) => entry.winnings)).toEqual([3, 3, 0]);
  });

  it('compares numeric guesses exactly in decimal, so 1.1 and 0.9 tie around 1', () => {
    const { winningWagerIds } = findWinners(
      numeric,
      [
        { id: 1, prediction: '1.1' },
        { id: 2, prediction: '0.9' },
        { id: 3, prediction: '1.3' },
      ],
      '1',
    );
    expect([...winningWagerIds].sort()).toEqual([1, 2]);
  });

  it('treats equal numbers written differently as the same guess', () => {
    const { winningWagerIds } = findWinners(
      numeric,
      [
        { id: 1, prediction: '7.50' },
        { id: 2, prediction: '-7.5' },
      ],
      '7.5',
    );
    expect([...winningWagerIds]).toEqual([1]);
  });

  it('pays over when the actual number is above the line and under when below', () => {
    const wagers = [wager(1, 'over', 3), wager(2, 'under', 3)];
    expect(computeResolution(overUnder(2.5), wagers, '3').winners).toEqual([1]);
    expect(computeResolution(overUnder(2.5), wagers, '2').winners).toEqual([2]);
  });

  it('refunds everyone when an over/under lands on its line', () => {
    const result = computeResolution(
      overUnder(3),
      [wager(1, 'over', 3), wager(2, 'under', 6)],
      '3.0',
    );
    expect(result.refundReason).toBe('push');
    expect(result.distributions.every((entry) => entry.winnings === entry.wagerAmount)).toBe(true);
  });

  it('pays nothing and refunds nothing on a bet without wagers', () => {
    expect(computeResolution(yesNo, [], 'yes')).toMatchObject({
      pool: 0,
      distributions: [],
      outcome: 'refunded',
    });
  });

  it('refuses an answer that does not fit the bet', () => {
    expect(() => computeResolution(numeric, [wager(1, '1', 1)], 'ten')).toThrow();
    expect(() =>
      computeResolution({ betType: 'over_under', betTypeConfig: {} }, [], '3'),
    ).toThrow();
  });
});

describe('refunds', () => {
  it('gives every wager back in full, in wager order', () => {
    expect(
      refunds([
        wager(2, 'no', 5, '2025-02-01T00:00:00Z'),
        wager(1, 'yes', 3, '2025-01-01T00:00:00Z'),
      ]),
    ).toEqual([
      { userId: 1, winnings: 3, wagerAmount: 3 },
      { userId: 2, winnings: 5, wagerAmount: 5 },
    ]);
  });
});

describe('splitPool', () => {
  it('splits 100 among three equal stakes as 34, 33, 33', () => {
    expect(splitPool(100, [1, 1, 1])).toEqual([34, 33, 33]);
  });

  it('stays exact for pools whose products exceed 2^53', () => {
    expect(splitPool(2 ** 31 - 1, [2 ** 31 - 2, 1])).toEqual([2 ** 31 - 2, 1]);
  });
});

// ---- properties ----

const dates = ['2025-01-01T00:00:00.000Z', '2025-01-01T00:00:01.000Z', '2025-01-02T00:00:00.000Z'];

type Case = {
  bet: { betType: string; betTypeConfig: Record<string, unknown> };
  answers: string[];
  correct: fc.Arbitrary<string>;
};
const cases: Case[] = [
  { bet: yesNo, answers: ['yes', 'no'], correct: fc.constantFrom('yes', 'no') },
  {
    bet: choice,
    answers: ['Red', 'Green', 'Blue'],
    correct: fc.constantFrom('Red', 'Green', 'Blue'),
  },
  {
    bet: numeric,
    answers: ['-2', '0', '1.5', '3', '10', '10.0'],
    correct: fc.integer({ min: -5, max: 15 }).map(String),
  },
  { bet: overUnder(4.5), answers: ['over', 'under'], correct: fc.constantFrom('3', '4.5', '6') },
  { bet: overUnder(4), answers: ['over', 'under'], correct: fc.constantFrom('3', '4', '6') },
];

const scenario = fc.constantFrom(...cases).chain((kind) =>
  fc.record({
    bet: fc.constant(kind.bet),
    correct: kind.correct,
    wagers: fc
      .uniqueArray(
        fc.record({
          id: fc.integer({ min: 1, max: 10_000 }),
          prediction: fc.constantFrom(...kind.answers),
          points: fc.integer({ min: 1, max: 3_000_000 }),
          createdAt: fc.constantFrom(...dates),
        }),
        { selector: (entry) => entry.id, maxLength: 30 },
      )
      .map((entries) => entries.map((entry, index) => ({ ...entry, userId: index + 1 }))),
  }),
);

describe('the payout rule, for any bet and wagers', () => {
  it('adds the winnings up to the pool exactly', () => {
    fc.assert(
      fc.property(scenario, ({ bet, wagers, correct }) => {
        const result = computeResolution(bet, wagers, correct);
        const pool = wagers.reduce((sum, entry) => sum + entry.points, 0);
        expect(result.pool).toBe(pool);
        expect(result.distributions.reduce((sum, entry) => sum + entry.winnings, 0)).toBe(pool);
      }),
    );
  });

  it('never pays a negative or fractional amount, and has one entry per wager', () => {
    fc.assert(
      fc.property(scenario, ({ bet, wagers, correct }) => {
        const result = computeResolution(bet, wagers, correct);
        expect(result.distributions).toHaveLength(wagers.length);
        for (const entry of result.distributions) {
          expect(Number.isInteger(entry.winnings)).toBe(true);
          expect(entry.winnings).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('gives the same result for the same input, in any order', () => {
    fc.assert(
      fc.property(scenario, fc.integer(), ({ bet, wagers, correct }, seed) => {
        const shuffled = [...wagers].sort(
          (a, b) => ((a.id * 7919 + seed) % 101) - ((b.id * 7919 + seed) % 101),
        );
        expect(computeResolution(bet, shuffled, correct)).toEqual(
          computeResolution(bet, wagers, correct),
        );
      }),
    );
  });

  it('refunds every wager in full when nobody wins or the line is hit', () => {
    fc.assert(
      fc.property(scenario, ({ bet, wagers, correct }) => {
        const result = computeResolution(bet, wagers, correct);
        if (result.outcome === 'refunded') {
          expect(result.distributions.every((entry) => entry.winnings === entry.wagerAmount)).toBe(
            true,
          );
        }
        const { isPush, winningWagerIds } = findWinners(bet, wagers, correct);
        expect(result.outcome === 'refunded').toBe(isPush || winningWagerIds.size === 0);
      }),
    );
  });

  it('never pays a winner less than their stake, and pays losers nothing', () => {
    fc.assert(
      fc.property(scenario, ({ bet, wagers, correct }) => {
        const result = computeResolution(bet, wagers, correct);
        if (result.outcome !== 'paid') return;
        const winners = new Set(result.winners);
        for (const entry of result.distributions) {
          if (winners.has(entry.userId))
            expect(entry.winnings).toBeGreaterThanOrEqual(entry.wagerAmount);
          else expect(entry.winnings).toBe(0);
        }
      }),
    );
  });

  it('gives each winner exactly their stake when every wager is on the winning answer', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        (stakes) => {
          const wagers = stakes.map((points, index) => ({
            id: index + 1,
            userId: index + 1,
            prediction: 'yes',
            points,
            createdAt: dates[0]!,
          }));
          const result = computeResolution(yesNo, wagers, 'yes');
          expect(result.distributions.every((entry) => entry.winnings === entry.wagerAmount)).toBe(
            true,
          );
        },
      ),
    );
  });

  it('pays each winner its exact share rounded down or up by at most one point', () => {
    fc.assert(
      fc.property(scenario, ({ bet, wagers, correct }) => {
        const result = computeResolution(bet, wagers, correct);
        if (result.outcome !== 'paid') return;
        const winning = wagers.filter((entry) => result.winningWagerIds.includes(entry.id));
        const stake = winning.reduce((sum, entry) => sum + entry.points, 0);
        for (const entry of winning) {
          const floor = Number((BigInt(result.pool) * BigInt(entry.points)) / BigInt(stake));
          const paid = result.distributions.find(
            (distribution) => distribution.userId === entry.userId,
          )!.winnings;
          expect(paid - floor).toBeGreaterThanOrEqual(0);
          expect(paid - floor).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('conserves points: the ledger entries of a resolution leave the group total unchanged', () => {
    fc.assert(
      fc.property(scenario, ({ bet, wagers, correct }) => {
        const result = computeResolution(bet, wagers, correct);
        const settled = sumDeltas(
          result.distributions.map((entry) =>
            ledgerDelta(distributionEvent(entry, result.outcome === 'refunded')),
          ),
        );
        const placed = sumDeltas(
          wagers.map((entry) => ledgerDelta({ kind: 'wager_placed', points: entry.points })),
        );
        expect(settled.totalDelta).toBe(0);
        expect(placed.availableDelta + settled.availableDelta).toBe(0);
      }),
    );
  });

  it('refunds everyone on an over/under push', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100, max: 100 }),
        fc.array(
          fc.record({
            prediction: fc.constantFrom('over', 'under'),
            points: fc.integer({ min: 1, max: 100 }),
          }),
          { maxLength: 10 },
        ),
        (line, entries) => {
          const wagers = entries.map((entry, index) => ({
            ...entry,
            id: index + 1,
            userId: index + 1,
            createdAt: dates[0]!,
          }));
          const result = computeResolution(overUnder(line), wagers, String(line));
          expect(result.distributions.every((entry) => entry.winnings === entry.wagerAmount)).toBe(
            true,
          );
        },
      ),
    );
  });
});
