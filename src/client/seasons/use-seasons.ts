import { useLiveQuery } from 'dexie-react-hooks';
import { seasonStandingsOf, type SeasonStanding } from '../../domain/seasons';
import { db, type SeasonRow } from '../data/db';
import { readGroupResults } from '../data/mirror-results';

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

/**
 * A running season's standings so far, worked out from the mirror as the server works out the
 * final ones from its ledger: what each member won or lost since the start. Live: a settled bet
 * moves them. Undefined for an ended season (its standings come archived).
 */
export function useStandingsSoFar(season: SeasonRow | undefined): SeasonStanding[] | undefined {
  const active = season?.state === 'active' ? season : undefined;
  return useLiveQuery(async () => {
    if (!active) return undefined;
    const { members, entries } = await readGroupResults(active.groupId);
    return seasonStandingsOf(
      members.map((member) => ({
        userId: member.userId,
        userName: member.name,
        totalPoints: member.totalPoints,
      })),
      entries,
      { startsAt: active.startsAt },
    );
  }, [active?.groupId, active?.startsAt]);
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
