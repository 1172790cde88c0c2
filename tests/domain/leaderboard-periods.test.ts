import { describe, expect, it } from 'vitest';
import {
  periodStart,
  previousPeriodStart,
  rankPeriodResults,
  sumPeriodResults,
} from '../../src/domain/leaderboard-periods';
import { periodLeaderboardQuerySchema } from '../../src/domain/schemas/leaderboard-periods';

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

describe('movement with no earlier standing', () => {
  const result = (
    userId: number,
    points: number,
    previousPoints: number,
    hasEarlierResults: boolean,
  ) => ({ userId, name: `P${userId}`, points, previousPoints, hasEarlierResults });
  const movements = (rows: ReturnType<typeof result>[]) =>
    rankPeriodResults(rows).map(({ userId, movement }) => [userId, movement]);

  it("shows no movement in a group's first week, when nobody had a result before", () => {
    expect(movements([result(1, 3, 0, false), result(2, -3, 0, false)])).toEqual([
      [1, null],
      [2, null],
    ]);
  });

  it('shows no movement when everyone with an earlier result stood level', () => {
    expect(movements([result(1, 3, 2, true), result(2, -3, 2, true)])).toEqual([
      [1, null],
      [2, null],
    ]);
  });

  it('shows none for a member new this period, and ranks the rest among those who were there', () => {
    expect(
      movements([result(1, 5, -1, true), result(2, 1, 4, true), result(3, 9, 0, false)]),
    ).toEqual([
      [3, null],
      [1, 0],
      [2, -2],
    ]);
  });
});

describe('sumPeriodResults', () => {
  it('sums result entries into this period and the one before, and notes earlier results', () => {
    const window = { from: '2026-11-23T00:00:00.000Z', previousFrom: '2026-11-16T00:00:00.000Z' };
    const members = [
      { userId: 2, name: 'Ben' },
      { userId: 1, name: 'Ana' },
      { userId: 3, name: 'Cy' },
    ];
    const entries = [
      { userId: 1, totalDelta: 5, at: '2026-11-23T00:00:00.000Z' },
      { userId: 1, totalDelta: -2, at: new Date('2026-11-24T10:00:00.000Z') },
      { userId: 2, totalDelta: 4, at: '2026-11-22T23:59:59.999Z' },
      { userId: 2, totalDelta: 7, at: '2026-10-01T00:00:00.000Z' },
      { userId: 9, totalDelta: 100, at: '2026-11-24T00:00:00.000Z' },
    ];
    expect(sumPeriodResults(members, entries, window)).toEqual([
      { userId: 1, name: 'Ana', points: 3, previousPoints: 0, hasEarlierResults: false },
      { userId: 2, name: 'Ben', points: 0, previousPoints: 4, hasEarlierResults: true },
      { userId: 3, name: 'Cy', points: 0, previousPoints: 0, hasEarlierResults: false },
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
