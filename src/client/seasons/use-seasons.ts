import { useLiveQuery } from 'dexie-react-hooks';
import { db, type SeasonRow } from '../data/db';

/** The group's seasons from the mirror: the running one first, then past ones newest first. */
export function useSeasons(groupId: number | undefined): SeasonRow[] | undefined {
  return useLiveQuery(async () => {
    if (groupId === undefined) return [];
    const rows = await db.seasons.where('groupId').equals(groupId).toArray();
    return rows.sort(
      (a, b) =>
        Number(b.state === 'active') - Number(a.state === 'active') ||
        b.startsAt.localeCompare(a.startsAt) ||
        b.id - a.id,
    );
  }, [groupId]);
}

/** "ends in 5 days", "ends in 3 hours", "ends in a few minutes", "ending now". */
export function endsInText(endsAt: string, now: number): string {
  const left = Date.parse(endsAt) - now;
  if (left <= 0) return 'ending now';
  const days = Math.floor(left / 86_400_000);
  if (days >= 1) return `ends in ${days} ${days === 1 ? 'day' : 'days'}`;
  const hours = Math.floor(left / 3_600_000);
  if (hours >= 1) return `ends in ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  return 'ends in a few minutes';
}
