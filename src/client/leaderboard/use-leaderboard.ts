import { useLiveQuery } from 'dexie-react-hooks';
import { rankLeaderboard } from '../../domain/groups';
import { db } from '../data/db';

export interface RankedRow {
  id: number;
  name: string;
  points: number;
  rank: number;
}

/** The group's members by total points descending, ranked 1..n (spec 02 §2); undefined while loading. */
export function useLeaderboard(groupId: number | undefined): RankedRow[] | undefined {
  return useLiveQuery(async () => {
    if (groupId === undefined) return [];
    const rows = await db.leaderboard.where('groupId').equals(groupId).toArray();
    return rankLeaderboard(rows.map((row) => ({ id: row.userId, name: row.name, points: row.points })));
  }, [groupId]);
}
