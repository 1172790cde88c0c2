import { eq, sql } from 'drizzle-orm';
import { answerChoices, answerLabel } from '../../domain/bet-types';
import type { Distribution } from '../../domain/payout';
import type { WebhookBet, WebhookGroup, WebhookPick } from '../../domain/schemas/webhook-events';
import { loadPicks } from '../bets/bet-queries';
import type { Executor } from '../db/connect';
import { groups, users, wagers, type BetRow } from '../db/schema';
import { isoTime } from '../iso-time';

// The facts a payload names, read in the event's own transaction. Fair play lives here: a bet
// is named with its totals only (pool, wager count); who picked what comes from `loadPicks`,
// which answers nothing for a bet still open. A group is its id, name and link: never its
// invite code. Links are paths here; the sender puts the server's origin before them
// (`withOrigin`), so a payload queued before a restart still links right.

export const groupPath = (groupId: number) => `/group/${groupId}`;
export const betPath = (betId: number) => `/bets/${betId}`;

export async function webhookGroup(tx: Executor, groupId: number): Promise<WebhookGroup> {
  const [group] = await tx
    .select({ name: groups.name })
    .from(groups)
    .where(eq(groups.id, groupId))
    .limit(1);
  return { id: groupId, name: group?.name ?? '', url: groupPath(groupId) };
}

/** The bet with its totals as the group hears them live: the pool and how many wagers. */
export async function webhookBet(tx: Executor, bet: BetRow): Promise<WebhookBet> {
  const [totals] = await tx
    .select({
      pool: sql<number>`coalesce(sum(${wagers.points}), 0)::int`,
      count: sql<number>`count(*)::int`,
    })
    .from(wagers)
    .where(eq(wagers.betId, bet.id));
  const choices = answerChoices(bet);
  return {
    id: bet.id,
    title: bet.title,
    type: bet.betType,
    options: choices.length > 0 ? choices.map((choice) => answerLabel(bet, choice)) : null,
    expiresAt: isoTime(bet.expiresAt),
    url: betPath(bet.id),
    pool: totals?.pool ?? 0,
    wagerCount: totals?.count ?? 0,
  };
}

/** Who picked what, only once betting closed at `at` (an open bet has none). */
export async function webhookPicks(tx: Executor, bet: BetRow, at: Date): Promise<WebhookPick[]> {
  const picks = (await loadPicks(tx, [bet], at)).get(bet.id) ?? [];
  return picks.map((pick) => ({
    name: pick.userName,
    pick: answerLabel(bet, pick.prediction),
    points: pick.points,
  }));
}

/** What each winner took home beyond their stake, by name; a refund names nobody. */
export async function webhookWinners(
  tx: Executor,
  distributions: readonly Distribution[],
  isRefund: boolean,
): Promise<{ name: string; won: number }[]> {
  const won = distributions.filter((entry) => !isRefund && entry.winnings > 0);
  const names = new Map<number, string>();
  for (const entry of won) {
    const [user] = await tx
      .select({ name: users.displayName })
      .from(users)
      .where(eq(users.id, entry.userId))
      .limit(1);
    names.set(entry.userId, user?.name ?? 'A player');
  }
  return won.map((entry) => ({
    name: names.get(entry.userId)!,
    won: entry.winnings - entry.wagerAmount,
  }));
}

/** The event with the server's origin before each link (the group's, the bet's). */
export function withLinkOrigin<E extends { data: object }>(event: E, origin: string): E {
  const base = origin.replace(/\/$/, '');
  const data = event.data as { group?: { url: string }; bet?: { url: string } };
  return {
    ...event,
    data: {
      ...data,
      ...(data.group ? { group: { ...data.group, url: `${base}${data.group.url}` } } : {}),
      ...(data.bet ? { bet: { ...data.bet, url: `${base}${data.bet.url}` } } : {}),
    },
  };
}
