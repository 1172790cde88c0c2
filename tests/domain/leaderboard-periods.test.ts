import { describe, expect, it } from 'vitest';
import {
  periodLeaderboardQuerySchema,
  periodStart,
  previousPeriodStart,
  rankPeriodResults,
} from '../../src/domain/leaderboard-periods';

// Where this week and this month start in the player's calendar, and how a
// period's standings rank (shared places) and move.

describe('periodStart', () => {
  it('starts a week on Monday at midnight, and the week before seven days earlier', () => {
    const sunday = new Date(2026, 10, 29, 18, 30); // Sunday 29 November 2026
    expect(periodStart('week', sunday)).toEqual(new Date(2026, 10, 23));
    expect(previousPeriodStart('week', sunday)).toEqual(new Date(2026, 10, 16));
    const monday = new Date(2026, 10, 23, 0, 0);
    expect(periodStart('week', monday)).toEqual(new Date(2026, 10, 23));
  });

  it('starts a month on the 1st, and the month before on its own 1st, across a year', () => {
    const january = new Date(2027, 0, 15, 9);
    expect(periodStart('month', january)).toEqual(new Date(2027, 0, 1));
    expect(previousPeriodStart('month', january)).toEqual(new Date(2026, 11, 1));
  });
});

describe('rankPeriodResults', () => {
  const result = (userId: number, name: string, points: number, previousPoints: number) => ({
    userId,
    name,
    points,
    previousPoints,
  });

  it('shares a place on equal points and measures the climb from the period before', () => {
    const ranked = rankPeriodResults([
      result(1, 'Ana', 4, 10),
      result(2, 'Ben', 12, -3),
      result(3, 'Cy', 4, 0),
      result(4, 'Dee', 0, 0),
    ]);
    expect(ranked.map(({ name, rank, movement }) => [name, rank, movement])).toEqual([
      ['Ben', 1, 3],
      ['Ana', 2, -1],
      ['Cy', 2, 0],
      ['Dee', 4, -2],
    ]);
  });
});

describe('periodLeaderboardQuerySchema', () => {
  it('wants the period before to start earlier, at most a month earlier', () => {
    const from = '2026-11-23T00:00:00.000Z';
    expect(
      periodLeaderboardQuerySchema.safeParse({ from, previousFrom: '2026-11-16T00:00:00.000Z' })
        .success,
    ).toBe(true);
    expect(periodLeaderboardQuerySchema.safeParse({ from, previousFrom: from }).success).toBe(
      false,
    );
    expect(
      periodLeaderboardQuerySchema.safeParse({ from, previousFrom: '2026-09-01T00:00:00.000Z' })
        .success,
    ).toBe(false);
  });
});
