import { and, asc, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { VersionedSeason } from '../../domain/seasons';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { seasons } from '../db/schema';
import type { MirrorScope } from '../groups/group-mirror';
import { presentSeason, readStandings } from './season-data';

// The seasons' part of a mirror pull (src/server/mirror): a group the device does not hold comes
// with all its seasons; a group it holds, with the seasons changed since the cursor's snapshot
// (started, or ended: the end writes the standings in the same transaction as the row, so they
// travel with it). So the archive and its podiums read offline.

/** Whether a season of the groups `ids` (an integer[] value) changed since the snapshot. */
export function seasonChangesExistSql(ids: SQL, snapshot: SQL): SQL {
  return sql`exists (select 1 from ${seasons} where ${seasons.groupId} = any(${ids}) and ${changedSince(seasons.changeTxid, snapshot)})`;
}

export async function readSeasonMirror(
  tx: Executor,
  { fullIds, deltaIds, snapshot }: MirrorScope,
): Promise<{ seasons: VersionedSeason[] }> {
  const whole = fullIds.length > 0 ? inArray(seasons.groupId, [...fullIds]) : undefined;
  const changed =
    deltaIds.length > 0
      ? and(inArray(seasons.groupId, [...deltaIds]), changedSince(seasons.changeTxid, snapshot))
      : undefined;
  if (!whole && !changed) return { seasons: [] };
  const rows = await tx.select().from(seasons).where(or(whole, changed)).orderBy(asc(seasons.id));
  const standings = await readStandings(
    tx,
    rows.map((row) => row.id),
  );
  return {
    seasons: rows.map((row) => ({
      ...presentSeason(row, standings.get(row.id) ?? []),
      version: row.version,
    })),
  };
}
