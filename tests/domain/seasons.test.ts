import { describe, expect, it } from 'vitest';
import { endsAtProblem, rankSeasonStandings, seasonPodium } from '../../src/domain/seasons';

const row = (userId: number, userName: string, points: number) => ({
  userId,
  userName,
  points,
  totalPoints: 100 + points,
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
