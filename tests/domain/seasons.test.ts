import { describe, expect, it } from 'vitest';
import {
  endsAtProblem,
  rankSeasonStandings,
  seasonPodium,
  seasonStandingsOf,
} from '../../src/domain/seasons';

const row = (userId: number, userName: string, points: number) => ({
  userId,
  userName,
  points,
  totalPoints: 100 + points,
});

describe('seasonStandingsOf', () => {
  const members = [
    { userId: 1, userName: 'Ann', totalPoints: 90 },
    { userId: 2, userName: 'Bo', totalPoints: 120 },
    { userId: 3, userName: 'Cy', totalPoints: 100 },
  ];
  const entries = [
    { userId: 1, totalDelta: 7, at: '2026-10-31T23:59:59.000Z' },
    { userId: 1, totalDelta: -4, at: '2026-11-01T00:00:00.000Z' },
    { userId: 2, totalDelta: 6, at: new Date('2026-11-10T00:00:00.000Z') },
    { userId: 2, totalDelta: 9, at: '2026-12-01T00:00:00.000Z' },
    { userId: 8, totalDelta: 50, at: '2026-11-10T00:00:00.000Z' },
  ];

  it('counts what members won or lost from the start, so far while it runs', () => {
    const standings = seasonStandingsOf(members, entries, { startsAt: '2026-11-01T00:00:00.000Z' });
    expect(standings.map((s) => [s.userName, s.rank, s.points, s.totalPoints])).toEqual([
      ['Bo', 1, 15, 120],
      ['Cy', 2, 0, 100],
      ['Ann', 3, -4, 90],
    ]);
  });

  it('stops at its end', () => {
    const standings = seasonStandingsOf(members, entries, {
      startsAt: '2026-11-01T00:00:00.000Z',
      until: '2026-12-01T00:00:00.000Z',
    });
    expect(standings.map((s) => [s.userName, s.points])).toEqual([
      ['Bo', 6],
      ['Cy', 0],
      ['Ann', -4],
    ]);
  });
});

describe('season standings', () => {
  it('share a rank on equal points and order ties by name', () => {
    const ranked = rankSeasonStandings([
      row(1, 'Zoe', 5),
      row(2, 'Ann', 5),
      row(3, 'Bo', 9),
      row(4, 'Cy', -1),
    ]);
    expect(ranked.map((r) => [r.userName, r.rank])).toEqual([
      ['Bo', 1],
      ['Ann', 2],
      ['Zoe', 2],
      ['Cy', 4],
    ]);
    const podium = seasonPodium({ name: 'Cup', standings: ranked }, 'Friends');
    expect(podium).toEqual({
      seasonName: 'Cup',
      groupName: 'Friends',
      places: [
        { rank: 1, userId: 3, name: 'Bo', points: 9 },
        { rank: 2, userId: 2, name: 'Ann', points: 5 },
        { rank: 2, userId: 1, name: 'Zoe', points: 5 },
      ],
    });
  });

  it('refuses an end date in the past or more than a year away', () => {
    const now = new Date('2026-11-01T00:00:00Z');
    expect(endsAtProblem(new Date('2026-10-31T00:00:00Z'), now)).toMatch(/future/);
    expect(endsAtProblem(new Date('2027-12-01T00:00:00Z'), now)).toMatch(/year/);
    expect(endsAtProblem(new Date('2026-12-01T00:00:00Z'), now)).toBeNull();
  });
});
