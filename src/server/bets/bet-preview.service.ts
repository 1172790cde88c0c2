import { and, eq, isNull, ne } from 'drizzle-orm';
import { isShareToken } from '../../domain/schemas/bet-shares';
import type { Database } from '../db/connect';
import { bets, groups } from '../db/schema';
import { betShareLinks } from '../db/share-schema';
import type { PublicBetPreview } from '../link-preview';

// What a chat app's link preview may say about a bet: its title and group name, only when
// the group is public (anyone may find and join it by name). A private group's bet, a draft
// or an unknown id gives nothing, so a forwarded link never leaks what the group keeps to itself.
// A shared bet's public link (/s/:token) names its bet whatever the group, while the link is on:
// a member shared that question on purpose.

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

/** The bet a live share token opens, for its link's preview; null for a token off or unknown. */
export async function findSharedBetPreview(
  db: Database,
  token: string,
): Promise<PublicBetPreview | null> {
  if (!isShareToken(token)) return null;
  const [row] = await db
    .select({ title: bets.title, groupName: groups.name })
    .from(betShareLinks)
    .innerJoin(bets, eq(bets.id, betShareLinks.betId))
    .innerJoin(groups, eq(groups.id, bets.groupId))
    .where(and(eq(betShareLinks.token, token), isNull(betShareLinks.revokedAt)))
    .limit(1);
  return row ?? null;
}
