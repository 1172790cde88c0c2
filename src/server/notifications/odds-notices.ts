import { answerLabel } from '../../domain/bet-types';
import { totalOf } from '../../domain/odds';
import { findBet, loadWagers } from '../bets/bet-queries';
import { findGroupName, listActiveMemberIds } from '../groups/membership.service';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import { claimOddsNotices, withoutMuted } from './notification-store';

// A wager moved the odds: whoever else backed the bet hears how their own pick pays now. Each
// move updates their one unread entry of the bet (gathered while unread, so the inbox keeps one
// "odds moved" per bet, telling the latest pool); the push goes at most once per bet per 10
// minutes each (claimed in one statement, so every instance agrees).

export function oddsNotices({ db, now, save }: NoticeContext): NoticeHandlers {
  return {
    async wagerSaved(event) {
      const bet = await findBet(db, event.betId);
      // A wager racing the resolution: the result says all there is to say.
      if (bet.state !== 'active') return;
      const predictions = new Map<number, string>();
      for (const wager of (await loadWagers(db, [bet.id])).get(bet.id) ?? [])
        if (wager.userId !== event.userId) predictions.set(wager.userId, wager.prediction);
      if (predictions.size === 0) return;
      const members = new Set(await listActiveMemberIds(db, bet.groupId));
      const recipients = await withoutMuted(
        db,
        [...predictions.keys()].filter((id) => members.has(id)),
        bet.groupId,
        bet.id,
      );
      if (recipients.length === 0) return;
      // Every move updates the one unread entry; only the claimed ones are pushed.
      const claimed = new Set(await claimOddsNotices(db, bet.id, recipients, now()));
      const quiet = new Set(recipients.filter((id) => !claimed.has(id)));
      const groupName = (await findGroupName(db, bet.groupId)) ?? 'your group';
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
