import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { API_BASE } from '../../domain/constants';
import { headToHeadOf, memberOutcomes, summariseOutcomes } from '../../domain/member-outcomes';
import type { MemberStats } from '../../domain/member-stats';
import { picksAsWagers } from '../../domain/settlement-entries';
import { errorMessage, isNetworkError } from './api-client';
import { db, type HunchDb } from './db';
import { api } from './session';

// A member's stats in a group, computed by the server on each call (one read of
// their resolved bets). Each answer is kept in Dexie's `memberStats`; the screen shows the kept
// copy at once and the fresh one when it arrives. Offline, the record is worked out from the
// mirror by the server's own rule (member-outcomes.ts: a resolved bet's picks are its wagers);
// only the points-over-time line needs the ledger, which the mirror does not hold: it comes
// from a kept copy, or waits for the connection.

function statsKey(groupId: number, userId: number, vs: number | undefined): string {
  return `${groupId}:${userId}:${vs ?? ''}`;
}

/** GET /api/groups/{id}/members/{userId}/stats[?vs=], kept for offline reading. */
export async function fetchMemberStats(
  groupId: number,
  userId: number,
  vs?: number,
): Promise<MemberStats> {
  const query = vs === undefined ? '' : `?vs=${vs}`;
  const stats = await api.get<MemberStats>(
    `${API_BASE}/groups/${groupId}/members/${userId}/stats${query}`,
  );
  await db.memberStats.put({
    key: statsKey(groupId, userId, vs),
    stats,
    fetchedAt: new Date().toISOString(),
  });
  return stats;
}

/**
 * The member's stats from the mirror alone, by the rule the server follows; null when the mirror
 * does not hold the member. `pointsOverTime` is the caller's (the mirror has no ledger).
 */
export async function mirrorMemberStats(
  groupId: number,
  userId: number,
  vs: number | undefined,
  pointsOverTime: MemberStats['pointsOverTime'],
  database: HunchDb = db,
): Promise<MemberStats | null> {
  const [memberships, bets] = await Promise.all([
    database.memberships.where('groupId').equals(groupId).toArray(),
    database.bets.where('groupId').equals(groupId).toArray(),
  ]);
  const member = memberships.find((row) => row.userId === userId);
  if (!member) return null;
  const other =
    vs !== undefined && vs !== userId ? memberships.find((row) => row.userId === vs) : undefined;
  const ids = other ? [userId, other.userId] : [userId];
  const played = bets.flatMap((bet) =>
    bet.state === 'resolved' && bet.picks?.some((pick) => ids.includes(pick.userId))
      ? [{ bet, wagers: picksAsWagers(bet.picks) }]
      : [],
  );
  const outcomes = memberOutcomes(played, ids);
  const mine = outcomes.get(userId) ?? new Map();
  return {
    groupId,
    userId,
    name: member.userName,
    totalPoints: member.totalPoints,
    ...summariseOutcomes([...mine.values()]),
    pointsOverTime,
    headToHead: other
      ? headToHeadOf(mine, outcomes.get(other.userId), {
          userId: other.userId,
          name: other.userName,
        })
      : null,
  };
}

export interface MemberStatsView {
  stats: MemberStats | undefined;
  /** When the shown stats were fetched; set while offline or refreshing. */
  fetchedAt: string | undefined;
  /** Offline and worked out from the mirror (fetchedAt then dates only a kept points line). */
  isFromMirror: boolean;
  /** Why the last refresh failed (null: none, or offline with a kept copy). */
  error: string | null;
  isLoading: boolean;
}

/** The kept stats at once, refreshed from the server whenever the arguments change. */
export function useMemberStats(
  groupId: number | undefined,
  userId: number | undefined,
  vs?: number,
): MemberStatsView {
  const key = groupId && userId ? statsKey(groupId, userId, vs) : undefined;
  const kept = useLiveQuery(
    async () => (key ? ((await db.memberStats.get(key)) ?? null) : null),
    [key],
  );
  // The last refresh that ended: for which key, and why it failed (null: it did not).
  const [settled, setSettled] = useState<{ key: string; error: string | null } | null>(null);
  useEffect(() => {
    if (!groupId || !userId || !key) return;
    let isCurrent = true;
    fetchMemberStats(groupId, userId, vs).then(
      () => {
        if (isCurrent) setSettled({ key, error: null });
      },
      (caught: unknown) => {
        if (isCurrent)
          setSettled({
            key,
            error: isNetworkError(caught)
              ? 'offline'
              : errorMessage(caught, 'Stats could not load.'),
          });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [groupId, userId, vs, key]);
  const current = settled?.key === key ? settled : null;
  const isOffline = current?.error === 'offline';
  const keptSteps = kept?.stats.pointsOverTime;
  const mirrored = useLiveQuery(
    async () =>
      isOffline && groupId && userId
        ? mirrorMemberStats(groupId, userId, vs, keptSteps ?? [])
        : null,
    [isOffline, groupId, userId, vs, keptSteps],
  );
  return {
    stats: mirrored ?? kept?.stats,
    fetchedAt: kept?.fetchedAt,
    isFromMirror: Boolean(mirrored),
    error: current?.error ?? null,
    // Offline with nothing kept, the mirror's answer is still on its way.
    isLoading: !kept && (!current || (isOffline && mirrored === undefined)),
  };
}
