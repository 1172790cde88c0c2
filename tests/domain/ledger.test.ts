import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyPointsDelta,
  distributionEvent,
  isValidPoints,
  ledgerDelta,
  sumDeltas,
  type LedgerEvent,
} from '../../src/domain/ledger';

describe('ledgerDelta', () => {
  it.each<[LedgerEvent, number, number]>([
    [{ kind: 'join_grant', points: 100 }, 100, 100],
    [{ kind: 'wager_placed', points: 6 }, 0, -6],
    [{ kind: 'wager_changed', previousPoints: 6, points: 9 }, 0, -3],
    [{ kind: 'wager_changed', previousPoints: 9, points: 3 }, 0, 6],
    [{ kind: 'payout', winnings: 15, wagerAmount: 6 }, 9, 15],
    [{ kind: 'payout', winnings: 0, wagerAmount: 6 }, -6, 0],
    [{ kind: 'refund', wagerAmount: 6 }, 0, 6],
    [{ kind: 'floor_top_up', points: 8 }, 8, 8],
  ])('turns %j into total %i and available %i', (event, totalDelta, availableDelta) => {
    expect(ledgerDelta(event)).toEqual({ totalDelta, availableDelta });
  });

  it('books a refunded distribution as a refund and a paid one as a payout', () => {
    expect(distributionEvent({ winnings: 4, wagerAmount: 4 }, true)).toEqual({
      kind: 'refund',
      wagerAmount: 4,
    });
    expect(distributionEvent({ winnings: 0, wagerAmount: 4 }, false)).toEqual({
      kind: 'payout',
      winnings: 0,
      wagerAmount: 4,
    });
  });
});

describe('applyPointsDelta', () => {
  it('moves both balances by the delta', () => {
    expect(
      applyPointsDelta(
        { totalPoints: 100, availablePoints: 94, userId: 1 },
        { totalDelta: 9, availableDelta: 15 },
      ),
    ).toEqual({
      totalPoints: 109,
      availablePoints: 109,
      userId: 1,
    });
  });

  it('floors at zero when asked, for members known only from the leaderboard', () => {
    expect(
      applyPointsDelta(
        { totalPoints: 3, availablePoints: 0 },
        { totalDelta: -6, availableDelta: 0 },
        { floorAtZero: true },
      ),
    ).toEqual({
      totalPoints: 0,
      availablePoints: 0,
    });
  });

  it('keeps 0 <= available <= total through a join, a wager, a change and its settlement', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 1000 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 10 }),
        fc.nat(40),
        (grant, first, second, winnings) => {
          const events: LedgerEvent[] = [
            { kind: 'join_grant', points: grant },
            { kind: 'wager_placed', points: first },
            { kind: 'wager_changed', previousPoints: first, points: second },
            { kind: 'payout', winnings, wagerAmount: second },
          ];
          let points = { totalPoints: 0, availablePoints: 0 };
          for (const event of events) {
            points = applyPointsDelta(points, ledgerDelta(event));
            expect(isValidPoints(points)).toBe(true);
            expect(points.availablePoints).toBeGreaterThanOrEqual(0);
          }
          const sum = sumDeltas(events.map(ledgerDelta));
          expect(points).toEqual({
            totalPoints: sum.totalDelta,
            availablePoints: sum.availableDelta,
          });
          expect(points.totalPoints).toBe(points.availablePoints);
        },
      ),
    );
  });
});

describe('isValidPoints', () => {
  it('refuses available above total, and takes a debt (available below zero) after a re-resolution', () => {
    expect(isValidPoints({ totalPoints: 10, availablePoints: 11 })).toBe(false);
    expect(isValidPoints({ totalPoints: 10, availablePoints: 10 })).toBe(true);
    expect(isValidPoints({ totalPoints: 7, availablePoints: -11 })).toBe(true);
  });
});
