import { useLiveQuery } from 'dexie-react-hooks';
import { db, type BetHistoryRow } from '../data/db';

// A bet's history as the mirror holds it: readable offline, live as pulls land.

/** Oldest first; undefined while the first answer is pending. */
export function useBetHistory(betId: number): BetHistoryRow[] | undefined {
  return useLiveQuery(
    async () =>
      (await db.betHistory.where('betId').equals(betId).toArray()).sort((a, b) => a.id - b.id),
    [betId],
  );
}

/** A member's display name in the group, as the mirror holds it (for the dispute's author). */
export function useMemberName(groupId: number, userId: number | undefined): string | undefined {
  return useLiveQuery(
    async () =>
      userId === undefined ? undefined : (await db.memberships.get([groupId, userId]))?.userName,
    [groupId, userId],
  );
}
