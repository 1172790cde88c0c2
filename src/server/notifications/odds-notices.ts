import { answerLabel } from '../../domain/bet-types';
import { totalOf } from '../../domain/odds';
import { findBet, loadWagers } from '../bets/bet-queries';
import { findGroupName, listActiveMemberIds } from '../groups/membership.service';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import { claimOddsNotices, withoutMuted } from './notification-store';

// A wager moved the odds: whoever else backed the bet hears how their own pick pays now, at
// most once per bet per 10 minutes each (claimed in one statement, so every instance agrees; the
// entry gathers the moves while unread).

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
      const claimed = await claimOddsNotices(db, bet.id, recipients, now());
      if (claimed.length === 0) return;
      const groupName = (await findGroupName(db, bet.groupId)) ?? 'your group';
      await save(
        'oddsChanged',
        claimed.map((userId) => {
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
      );
    },
  };
}
