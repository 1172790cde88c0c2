import { and, asc, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { MirrorRound } from '../../domain/rounds';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { rounds } from '../db/rounds-schema';
import type { MirrorScope } from '../groups/group-mirror';
import { isoTime } from '../iso-time';
import { loadRoundMatches, scoringOf } from './round-data';

// The rounds' part of a mirror pull (src/server/mirror): a group the device does not hold comes
// with all its rounds, a group it holds with the rounds changed since the cursor's snapshot (made,
// or their scoring changed). A round's matches are written in the round's own transaction and
// travel with it; their state, result and tips are their bets', which the bets' reader sends
// (others' tips only once betting on the match closed). So a round page opens offline.

/** Whether a round of the groups `ids` (an integer[] value) changed since the snapshot. */
export function roundChangesExistSql(ids: SQL, snapshot: SQL): SQL {
  return sql`exists (select 1 from ${rounds} where ${rounds.groupId} = any(${ids}) and ${changedSince(rounds.changeTxid, snapshot)})`;
}

export async function readRoundMirror(
  tx: Executor,
  { fullIds, deltaIds, snapshot }: MirrorScope,
): Promise<{ rounds: MirrorRound[] }> {
  const whole = fullIds.length > 0 ? inArray(rounds.groupId, [...fullIds]) : undefined;
  const changed =
    deltaIds.length > 0
      ? and(inArray(rounds.groupId, [...deltaIds]), changedSince(rounds.changeTxid, snapshot))
      : undefined;
  if (!whole && !changed) return { rounds: [] };
  const rows = await tx.select().from(rounds).where(or(whole, changed)).orderBy(asc(rounds.id));
  const matches = await loadRoundMatches(
    tx,
    rows.map((row) => row.id),
  );
  return {
    rounds: rows.map((row) => ({
      id: row.id,
      groupId: row.groupId,
      name: row.name,
      createdBy: row.createdBy,
      createdAt: isoTime(row.createdAt),
      closeMinutesBefore: row.closeMinutes,
      scoring: scoringOf(row),
      matches: (matches.get(row.id) ?? []).map((match) => ({
        betId: match.betId,
        home: match.home,
        away: match.away,
        kickoff: isoTime(match.kickoff),
        closesAt: isoTime(match.closesAt),
      })),
      version: row.version,
    })),
  };
}
