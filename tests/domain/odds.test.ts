import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerOdds,
  formatMultiplier,
  oddsMultiplier,
  projectedPayout,
  totalsByAnswer,
} from '../../src/domain/odds';
import { computeResolution } from '../../src/domain/payout';

const yesNo = { betType: 'yes_no', betTypeConfig: {} };
const numeric = { betType: 'numeric', betTypeConfig: {} };

describe('totalsByAnswer', () => {
  it('adds up the points on each answer, one key per number however it is written', () => {
    expect(
      totalsByAnswer(yesNo, [
        { prediction: 'yes', points: 2 },
        { prediction: 'yes', points: 3 },
        { prediction: 'no', points: 1 },
      ]),
    ).toEqual({ yes: 5, no: 1 });
    expect(
      totalsByAnswer(numeric, [
        { prediction: '7.50', points: 2 },
        { prediction: '7.5', points: 1 },
      ]),
    ).toEqual({ '7.5': 3 });
  });
});

describe('answerOdds', () => {
  it('gives P / pointsOnAnswer per answer, and no multiplier for an answer nobody picked', () => {
    expect(
      answerOdds(
        { betType: 'multiple_choice', betTypeConfig: { options: ['A', 'B', 'C'] } },
        { A: 6, B: 2 },
      ),
    ).toEqual([
      { answer: 'A', points: 6, multiplier: 8 / 6 },
      { answer: 'B', points: 2, multiplier: 4 },
      { answer: 'C', points: 0, multiplier: null },
    ]);
  });

  it('lists numeric guesses in ascending order', () => {
    expect(
      answerOdds(numeric, { '10': 1, '-2': 1, '3.5': 2 }).map((entry) => entry.answer),
    ).toEqual(['-2', '3.5', '10']);
  });

  it('has no multiplier without points', () => {
    expect(oddsMultiplier(10, 0)).toBeNull();
  });
});

describe('projectedPayout', () => {
  it('counts the new wager in the pool and in its answer', () => {
    // Pool 10 + 2 = 12; on yes 4 + 2 = 6; the new 2 points get 12 × 2 / 6 = 4.
    expect(projectedPayout(yesNo, { yes: 4, no: 6 }, 'yes', 2)).toBe(4);
  });

  it('gives the whole pool to a lone wager on an answer', () => {
    expect(projectedPayout(yesNo, { yes: 9 }, 'no', 3)).toBe(12);
  });

  it("takes the viewer's current wager out when they change it", () => {
    expect(
      projectedPayout(yesNo, { yes: 4, no: 6 }, 'no', 3, { prediction: 'yes', points: 2 }),
    ).toBe(Math.floor(((8 + 3) * 3) / 9));
  });

  it('treats a numeric guess as sharing with those who guessed the same number', () => {
    expect(projectedPayout(numeric, { '7.5': 3, '10': 5 }, '7.50', 1)).toBe(
      Math.floor((9 * 1) / 4),
    );
  });

  it('pays nothing for a wager of no points', () => {
    expect(projectedPayout(yesNo, { yes: 4 }, 'yes', 0)).toBe(0);
  });

  it('promises what the payout pays the new wager, short of at most one leftover point', () => {
    const wagers = fc.array(
      fc.record({
        prediction: fc.constantFrom('yes', 'no'),
        points: fc.integer({ min: 1, max: 1000 }),
      }),
      { maxLength: 15 },
    );
    fc.assert(
      fc.property(
        wagers,
        fc.constantFrom('yes', 'no'),
        fc.integer({ min: 1, max: 1000 }),
        (existing, answer, points) => {
          const projected = projectedPayout(yesNo, totalsByAnswer(yesNo, existing), answer, points);
          const all = [...existing, { prediction: answer, points }].map((wager, index) => ({
            ...wager,
            id: index + 1,
            userId: index + 1,
            createdAt: '2025-01-01T00:00:00.000Z',
          }));
          const paid = computeResolution(yesNo, all, answer).distributions.at(-1)!.winnings;
          expect(paid - projected).toBeGreaterThanOrEqual(0);
          expect(paid - projected).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('formatMultiplier', () => {
  it('shows one decimal rounded down, whole numbers without one, and a dash for none', () => {
    expect(formatMultiplier(2.45)).toBe('×2.4');
    expect(formatMultiplier(23 / 10)).toBe('×2.3');
    expect(formatMultiplier(2)).toBe('×2');
    expect(formatMultiplier(8 / 6)).toBe('×1.3');
    expect(formatMultiplier(null)).toBe('—');
  });
});
