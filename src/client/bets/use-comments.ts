import type { Collection } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { compareComments } from '../../domain/comments';
import { db, type CommentRow, type HunchDb } from '../data/db';

// The comment views' reads: live queries on the Dexie mirror (docs/architecture.md §8), so a sync,
// a write or a socket event shows up on screen by itself. Tombstones (deleted comments) are
// kept in the mirror and never shown.

/** A bet's thread as this device holds it, oldest first, newest last. */
export async function readBetComments(database: HunchDb, betId: number): Promise<CommentRow[]> {
  const rows = await database.comments.where('betId').equals(betId).toArray();
  return rows.filter((row) => row.deletedAt === null).sort(compareComments);
}

/** The thread; undefined while the first answer is pending. */
export function useBetComments(betId: number | undefined): CommentRow[] | undefined {
  return useLiveQuery(async () => (betId === undefined ? [] : readBetComments(db, betId)), [betId]);
}

/** How many live comments each bet among `rows` has, by bet id. */
async function countByBet(
  rows: Pick<Collection<CommentRow, number>, 'each'>,
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  await rows.each((row) => {
    if (row.deletedAt === null) counts.set(row.betId, (counts.get(row.betId) ?? 0) + 1);
  });
  return counts;
}

/**
 * How many comments each bet of these groups has, by bet id (the bet lists' cards): one read
 * for a whole list instead of a live query per card.
 */
export function readCommentCounts(
  database: HunchDb,
  groupIds: readonly number[],
): Promise<Map<number, number>> {
  return countByBet(database.comments.where('groupId').anyOf([...groupIds]));
}

/** How many comments each of these bets has, by bet id (the dashboard's cards). */
export function readCommentCountsOfBets(
  database: HunchDb,
  betIds: readonly number[],
): Promise<Map<number, number>> {
  return countByBet(database.comments.where('betId').anyOf([...betIds]));
}

/** A group's comment counts by bet id (its bet list). */
export function useGroupCommentCounts(groupId: number): Map<number, number> | undefined {
  return useLiveQuery(() => readCommentCounts(db, [groupId]), [groupId]);
}

/** How many comments a bet has (the bet page's count). */
export function useCommentCount(betId: number): number | undefined {
  return useLiveQuery(
    () =>
      db.comments
        .where('betId')
        .equals(betId)
        .filter((row) => row.deletedAt === null)
        .count(),
    [betId],
  );
}
