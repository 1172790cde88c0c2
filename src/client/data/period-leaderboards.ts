import { API_BASE } from '../../domain/constants';
import {
  periodStart,
  previousPeriodStart,
  type LeaderboardPeriod,
  type PeriodLeaderboard,
} from '../../domain/leaderboard-periods';
import type { ApiClient } from './api-client';
import { db as appDb, type HunchDb } from './db';
import { api as appApi } from './session';

// This week / This month: asked of the server, which sums the ledger, in the
// player's own calendar; the answer is kept in Dexie so a view already seen reads offline.

/** The period's window as the server is asked for it. */
export function periodWindow(period: LeaderboardPeriod, now: Date) {
  return {
    from: periodStart(period, now).toISOString(),
    previousFrom: previousPeriodStart(period, now).toISOString(),
  };
}

/** Fetches the group's standings for the period and keeps them; throws as the API client does. */
export async function refreshPeriodLeaderboard(
  groupId: number,
  period: LeaderboardPeriod,
  {
    now = new Date(),
    api = appApi,
    db = appDb,
  }: { now?: Date; api?: ApiClient; db?: HunchDb } = {},
): Promise<void> {
  const query = new URLSearchParams(periodWindow(period, now));
  const board = await api.get<PeriodLeaderboard>(
    `${API_BASE}/groups/${groupId}/leaderboard/period?${query}`,
  );
  await db.periodLeaderboards.put({ ...board, period, fetchedAt: Date.now() });
}
