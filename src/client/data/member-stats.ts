import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { API_BASE } from '../../domain/constants';
import type { MemberStats } from '../../domain/member-stats';
import { errorMessage, isNetworkError } from './api-client';
import { db } from './db';
import { api } from './session';

// A member's stats in a group, computed by the server on each call (one read of
// their resolved bets). Each answer is kept in Dexie's `memberStats`, so a profile seen once
// reads offline; the screen shows the kept copy at once and the fresh one when it arrives.

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

export interface MemberStatsView {
  stats: MemberStats | undefined;
  /** When the shown stats were fetched; set while offline or refreshing. */
  fetchedAt: string | undefined;
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
  return {
    stats: kept?.stats,
    fetchedAt: kept?.fetchedAt,
    error: current?.error ?? null,
    isLoading: !current && !kept,
  };
}
