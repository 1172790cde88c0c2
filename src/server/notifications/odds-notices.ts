import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { answerLabel } from '../../domain/bet-types';
import { totalOf } from '../../domain/odds';
import { bets, groups, memberships, wagers } from '../db/schema';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import { claimOddsNotices, withoutMuted } from './notification-store';

// A wager moved the odds: whoever else backed the bet hears how their own pick pays now. Each
// move updates their one unread entry of the bet (gathered while unread, so the inbox keeps one
// "odds moved" per bet, telling the latest pool); the push goes at most once per bet per 10
// minutes each (claimed in one statement, so every instance agrees).

export function oddsNotices({ db, now, save }: NoticeContext): NoticeHandlers {
  return {
    async wagerSaved(event) {
      // Every wager asks, so the other members' picks come in one statement, and the bet with
      // its group's name in one more only when someone is left to tell.
      const others = await db
        .select({ userId: wagers.userId, prediction: wagers.prediction })
        .from(wagers)
        .innerJoin(
          memberships,
          and(
            eq(memberships.groupId, event.groupId),
            eq(memberships.userId, wagers.userId),
            isNull(memberships.leftAt),
          ),
        )
        .where(and(eq(wagers.betId, event.betId), ne(wagers.userId, event.userId)))
        .orderBy(asc(wagers.createdAt), asc(wagers.id));
      if (others.length === 0) return;
      const predictions = new Map(others.map((other) => [other.userId, other.prediction]));
      const recipients = await withoutMuted(
        db,
        [...predictions.keys()],
        event.groupId,
        event.betId,
      );
      if (recipients.length === 0) return;
      const [found] = await db
        .select({ bet: bets, groupName: groups.name })
        .from(bets)
        .innerJoin(groups, eq(groups.id, bets.groupId))
        .where(eq(bets.id, event.betId))
        .limit(1);
      // A wager racing the resolution: the result says all there is to say.
      if (!found || found.bet.state !== 'active') return;
      const { bet, groupName } = found;
      // Every move updates the one unread entry; only the claimed ones are pushed.
      const claimed = new Set(await claimOddsNotices(db, bet.id, recipients, now()));
      const quiet = new Set(recipients.filter((id) => !claimed.has(id)));
      await save(
        'oddsChanged',
        recipients.map((userId) => {
          const prediction = predictions.get(userId)!;
          const onPick = totalOf(event.answerTotals, prediction);
          return {
            userId,
            groupId: bet.groupId,
            betId: bet.id,
            actorId: event.userId,
            payload: {
              groupName,
              betTitle: bet.title,
              answer: answerLabel(bet, prediction),
              ...(onPick > 0 ? { multiplier: event.pool / onPick } : {}),
              pool: event.pool,
            },
          };
        }),
        quiet,
      );
    },
  };
}
