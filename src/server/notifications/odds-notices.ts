import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { answerLabel } from '../../domain/bet-types';
import { totalOf } from '../../domain/odds';
import { prepared } from '../db/prepared';
import { bets, groups, memberships, notificationSettings, wagers, type BetRow } from '../db/schema';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import { claimOddsNotices } from './notification-store';

// A wager moved the odds: whoever else backed the bet hears how their own pick pays now. Each
// move updates their one unread entry of the bet (gathered while unread, so the inbox keeps one
// "odds moved" per bet, telling the latest pool); the push goes at most once per bet per 10
// minutes each (claimed in one statement, so every instance agrees).

// Every wager asks: the bet with its group's name, and the other members who backed it and did
// not mute its group or the bet, with their picks, all in one statement (one row with no backer
// when nobody is left to tell).
const oddsAudience = prepared<
  Array<{
    bet: BetRow;
    groupName: string;
    userId: number | null;
    prediction: string | null;
  }>,
  { betId: number; actorId: number }
>('oddsAudience', (db) =>
  db
    .select({
      bet: bets,
      groupName: groups.name,
      userId: wagers.userId,
      prediction: wagers.prediction,
    })
    .from(bets)
    .innerJoin(groups, eq(groups.id, bets.groupId))
    .leftJoin(
      wagers,
      and(
        eq(wagers.betId, bets.id),
        ne(wagers.userId, sql.placeholder('actorId')),
        sql`exists (select 1 from ${memberships} where ${memberships.groupId} = ${bets.groupId}
          and ${memberships.userId} = ${wagers.userId} and ${memberships.leftAt} is null)`,
        sql`not exists (select 1 from ${notificationSettings}
          where ${notificationSettings.userId} = ${wagers.userId}
            and (${bets.groupId} = any(${notificationSettings.mutedGroupIds})
              or ${bets.id} = any(${notificationSettings.mutedBetIds})))`,
      ),
    )
    .where(eq(bets.id, sql.placeholder('betId')))
    .orderBy(asc(wagers.createdAt), asc(wagers.id)),
);

export function oddsNotices({ now, db, save }: NoticeContext): NoticeHandlers {
  return {
    async wagerSaved(event) {
      const rows = await oddsAudience(db, { betId: event.betId, actorId: event.userId });
      const found = rows[0];
      // A wager racing the resolution: the result says all there is to say.
      if (!found || found.bet.state !== 'active') return;
      const predictions = new Map(
        rows.flatMap((row) => (row.userId === null ? [] : [[row.userId, row.prediction!]])),
      );
      const recipients = [...predictions.keys()];
      if (recipients.length === 0) return;
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
