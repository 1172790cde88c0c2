import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import { bets, wagers } from '../db/schema';

// A player's own wagers and the bets they created, for their data export
// (src/server/auth/account-data.service.ts). Here because only the bets feature reads its tables.

/** Every wager of the user, with its bet's title and group, oldest first. */
export async function readWagersOf(tx: Executor, userId: number) {
  return tx
    .select({ wager: wagers, betTitle: bets.title, groupId: bets.groupId })
    .from(wagers)
    .innerJoin(bets, eq(bets.id, wagers.betId))
    .where(eq(wagers.userId, userId))
    .orderBy(asc(wagers.id));
}

/** Every bet the user created, in any state, oldest first. */
export async function readBetsCreatedBy(tx: Executor, userId: number) {
  return tx.select().from(bets).where(eq(bets.createdBy, userId)).orderBy(asc(bets.id));
}
