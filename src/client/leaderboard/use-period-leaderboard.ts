import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import {
  rankPeriodResults,
  type LeaderboardPeriod,
  type RankedPeriodResult,
} from '../../domain/leaderboard-periods';
import { isNetworkError } from '../data/api-client';
import { db } from '../data/db';
import { periodBoardOf, readGroupResults } from '../data/mirror-results';
import { periodWindow, refreshPeriodLeaderboard } from '../data/period-leaderboards';

export interface PeriodStandings {
  /** Ranked, once this week's (or month's) answer is here; undefined until then. */
  rows: RankedPeriodResult[] | undefined;
  /** offline: worked out from the mirror, as of its last sync; failed: the server refused. */
  status: 'loading' | 'ready' | 'offline' | 'failed';
  /** When the rows shown were fetched (ms since the epoch); absent for the mirror's own. */
  fetchedAt?: number;
}

/**
 * The group's standings this week or month: the server's answer, kept in Dexie and refreshed
 * when the view opens and whenever the group's points move in the mirror (a bet settled).
 * Offline, the same sums are worked out from the mirror (mirror-results.ts), and a kept copy
 * stands in only while the mirror holds nothing of the group. A copy of an earlier week or
 * month is not shown as this one.
 */
export function usePeriodLeaderboard(
  groupId: number,
  period: LeaderboardPeriod,
  now: Date,
): PeriodStandings {
  const { from } = periodWindow(period, now);
  const [fetchState, setFetchState] = useState<{
    key: string;
    status: PeriodStandings['status'];
  }>();
  const key = `${groupId}:${period}:${from}`;
  const stored = useLiveQuery(
    () => db.periodLeaderboards.get([groupId, period]),
    [groupId, period],
  );
  // A resolution changes members' totals in the mirror: the sums move with them.
  const pointsSignature = useLiveQuery(
    async () =>
      (await db.memberships.where('groupId').equals(groupId).toArray())
        .map((member) => `${member.userId}:${member.totalPoints}`)
        .join(','),
    [groupId],
  );

  useEffect(() => {
    if (pointsSignature === undefined) return;
    let isCurrent = true;
    refreshPeriodLeaderboard(groupId, period, { now: new Date(from) }).then(
      () => isCurrent && setFetchState({ key, status: 'ready' }),
      (error: unknown) => {
        if (!isNetworkError(error)) console.warn('Loading the period leaderboard failed', error);
        if (isCurrent) setFetchState({ key, status: isNetworkError(error) ? 'offline' : 'failed' });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [groupId, period, from, key, pointsSignature]);

  const status = fetchState?.key === key ? fetchState.status : 'loading';
  const isOffline = status === 'offline';
  const mirrored = useLiveQuery(async () => {
    if (!isOffline) return null;
    const results = await readGroupResults(groupId);
    return results.members.length > 0
      ? periodBoardOf(groupId, period, new Date(from), results)
      : null;
  }, [isOffline, groupId, period, from]);
  const current = stored && stored.from === from ? stored : undefined;
  if (isOffline && mirrored) {
    // Who played is the server's count (the mirror holds no one else's hidden wagers): as of
    // the last answer for this window.
    const played = new Map(current?.members.map((member) => [member.userId, member.played]));
    const members = mirrored.members.map((member) => ({
      ...member,
      played: played.get(member.userId) ?? member.played,
    }));
    return { rows: rankPeriodResults(members), status };
  }
  return {
    rows: current ? rankPeriodResults(current.members) : undefined,
    status: current && status === 'loading' ? 'ready' : status,
    fetchedAt: current?.fetchedAt,
  };
}
