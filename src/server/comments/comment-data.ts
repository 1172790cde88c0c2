import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import { betComments, bets } from '../db/schema';

// A player's own comments, for their data export and their account's deletion
// (src/server/auth/account-data.service.ts). Here because only the comments feature writes its table.

/** Every comment the user wrote and has not deleted, with its bet's title, oldest first. */
export async function readCommentsOf(tx: Executor, userId: number) {
  return tx
    .select({ comment: betComments, betTitle: bets.title })
    .from(betComments)
    .innerJoin(bets, eq(bets.id, betComments.betId))
    .where(and(eq(betComments.userId, userId), isNull(betComments.deletedAt)))
    .orderBy(asc(betComments.id));
}

/**
 * A deleted account's words go with it: each comment becomes the tombstone a delete leaves
 * (text cleared, stamped, so every member's mirror drops it on its next pull).
 */
export async function deleteCommentsOf(tx: Executor, userId: number, at: Date): Promise<void> {
  await tx
    .update(betComments)
    .set({ text: '', deletedAt: at, deletedBy: userId })
    .where(and(eq(betComments.userId, userId), isNull(betComments.deletedAt)));
}
