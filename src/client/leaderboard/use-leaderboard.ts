import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../data/db';
import { readLastMatchdayWinners } from '../data/round-results';

export interface RankedRow {
  id: number;
  name: string;
  points: number;
  rank: number;
}

/**
 * The group's members by total points descending, then by name, ranked 1..n (docs/groups-and-bets.md §2): a
 * query over the mirror's memberships; undefined while loading.
 */
export function useLeaderboard(groupId: number | undefined): RankedRow[] | undefined {
  return useLiveQuery(async () => {
    if (groupId === undefined) return [];
    const members = await db.memberships.where('groupId').equals(groupId).toArray();
    return members
      .map((member) => ({ id: member.userId, name: member.userName, points: member.totalPoints }))
      .sort((a, b) => b.points - a.points || a.name.localeCompare(b.name) || a.id - b.id)
      .map((row, index) => ({ ...row, rank: index + 1 }));
  }, [groupId]);
}

/** The "Matchday winner"s of the group's last finished tipping round (ties: all of them). */
export function useMatchdayWinners(groupId: number | undefined): readonly number[] {
  return (
    useLiveQuery(
      async () => (groupId === undefined ? [] : readLastMatchdayWinners(groupId)),
      [groupId],
    ) ?? []
  );
}
