import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBetStatistics } from '../../src/domain/bet-statistics';
import { answerOdds, projectedPayout, totalOf, totalsByAnswer } from '../../src/domain/odds';
import { computeResolution } from '../../src/domain/payout';

// Tallies keyed by players' text (audit item 3): option names that are properties of
// Object.prototype ("constructor", "toString", "__proto__", …) count like any other name.

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype);
const optionName = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS),
  fc.string({ minLength: 1, maxLength: 12 }).filter((text) => text.trim() === text && text !== ''),
);
const options = fc.uniqueArray(optionName, {
  minLength: 2,
  maxLength: 10,
  selector: (option) => option.toLowerCase(),
});

const betWithWagers = options.chain((names) =>
  fc.record({
    names: fc.constant(names),
    wagers: fc.array(
      fc.record({
        pick: fc.nat({ max: names.length - 1 }),
        points: fc.integer({ min: 1, max: 30 }),
      }),
      { maxLength: 20 },
    ),
  }),
);

describe('tallies over option names that include every Object.prototype key', () => {
  it('sums each option exactly, reads absent options as 0, and pays out the whole pool', () => {
    fc.assert(
      fc.property(betWithWagers, fc.nat({ max: 9 }), ({ names, wagers }, winnerIndex) => {
        const bet = {
          betType: 'multiple_choice',
          betTypeConfig: { options: names },
          state: 'resolved',
          correctAnswer: names[winnerIndex % names.length]!,
        };
        const payoutWagers = wagers.map((wager, index) => ({
          id: index + 1,
          userId: index + 1,
          prediction: names[wager.pick]!,
          points: wager.points,
          createdAt: new Date(1_700_000_000_000 + index).toISOString(),
        }));
        const totals = totalsByAnswer(bet, payoutWagers);
        for (const name of names) {
          const expected = payoutWagers
            .filter((wager) => wager.prediction === name)
            .reduce((sum, wager) => sum + wager.points, 0);
          expect(totalOf(totals, name)).toBe(expected);
          expect(Number.isInteger(totalOf(totals, name))).toBe(true);
        }
        const pool = payoutWagers.reduce((sum, wager) => sum + wager.points, 0);
        expect(Object.values(totals).reduce((sum, points) => sum + points, 0)).toBe(pool);
        // JSON round trip, as the client receives it: still every option, still numbers.
        const received = JSON.parse(JSON.stringify(totals)) as Record<string, number>;
        expect(answerOdds(bet, received).map((entry) => entry.points)).toEqual(
          names.map((name) => totalOf(totals, name)),
        );
        for (const name of names)
          expect(Number.isInteger(projectedPayout(bet, received, name, 3))).toBe(true);

        const resolution = computeResolution(bet, payoutWagers, bet.correctAnswer);
        expect(resolution.distributions.reduce((sum, entry) => sum + entry.winnings, 0)).toBe(pool);
        const statistics = computeBetStatistics({
          bet,
          wagers: payoutWagers,
          totalMembers: payoutWagers.length,
          viewerId: null,
        });
        expect(statistics.answerDistribution.map((entry) => entry.totalPoints)).toEqual(
          names.map((name) => totalOf(totals, name)),
        );
      }),
    );
  });
});
