import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { bets, groups } from '../db/schema';

// What a chat app's link preview may say about a bet: its title and group name, only when
// the group is public (anyone may find and join it by name). A private group's bet, a draft
// or an unknown id gives nothing, so a forwarded link never leaks what the group keeps to itself.

export interface PublicBetPreview {
  title: string;
  groupName: string;
}

export async function findPublicBetPreview(
  db: Database,
  betId: number,
): Promise<PublicBetPreview | null> {
  const [row] = await db
    .select({ title: bets.title, groupName: groups.name })
    .from(bets)
    .innerJoin(groups, eq(groups.id, bets.groupId))
    .where(and(eq(bets.id, betId), eq(groups.privacy, 'public'), ne(bets.state, 'draft')))
    .limit(1);
  return row ?? null;
}
