import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import {
  rankPeriodResults,
  type LeaderboardPeriod,
  type RankedPeriodResult,
} from '../../domain/leaderboard-periods';
import { isNetworkError } from '../data/api-client';
import { db } from '../data/db';
import { periodWindow, refreshPeriodLeaderboard } from '../data/period-leaderboards';

export interface PeriodStandings {
  /** Ranked, once this week's (or month's) answer is here; undefined until then. */
  rows: RankedPeriodResult[] | undefined;
  /** offline: showing nothing new could be fetched; failed: the server refused. */
  status: 'loading' | 'ready' | 'offline' | 'failed';
  /** When the rows shown were fetched (ms since the epoch). */
  fetchedAt?: number;
}

/**
 * The group's standings this week or month: the copy kept in Dexie (offline, what was seen),
 * refreshed from the server when the view opens and whenever the group's points move in the
 * mirror (a bet settled). A copy of an earlier week or month is not shown as this one.
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

  const current = stored && stored.from === from ? stored : undefined;
  const status = fetchState?.key === key ? fetchState.status : 'loading';
  return {
    rows: current ? rankPeriodResults(current.members) : undefined,
    status: current && status === 'loading' ? 'ready' : status,
    fetchedAt: current?.fetchedAt,
  };
}
