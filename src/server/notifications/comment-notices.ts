import { and, eq, isNull, ne } from 'drizzle-orm';
import { findBet, loadWagers } from '../bets/bet-queries';
import { betComments } from '../db/schema';
import { findGroupName, listActiveMemberIds } from '../groups/membership-queries';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import { uncountComment } from './notification-store';
import { withoutMuted } from './notification-settings';

// New comments on a bet you take part in (created, wagered on or commented), gathered per bet
// while unread; a deleted comment no longer counts in the entries it was gathered in.

/** How much of a comment its inbox entry quotes. */
const EXCERPT_LENGTH = 80;

function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH - 1)}…` : flat;
}

export function commentNotices({ db, now, save, republish }: NoticeContext): NoticeHandlers {
  return {
    async commentPosted(event) {
      // The bet's participants: its creator, whoever wagered, whoever commented before.
      const bet = await findBet(db, event.betId);
      const commenters = await db
        .selectDistinct({ userId: betComments.userId })
        .from(betComments)
        .where(
          and(
            eq(betComments.betId, bet.id),
            isNull(betComments.deletedAt),
            ne(betComments.userId, event.userId),
          ),
        );
      const participants = new Set<number>([
        bet.createdBy,
        ...((await loadWagers(db, [bet.id])).get(bet.id) ?? []).map((wager) => wager.userId),
        ...commenters.map((row) => row.userId),
      ]);
      participants.delete(event.userId);
      const members = new Set(await listActiveMemberIds(db, bet.groupId));
      const recipients = await withoutMuted(
        db,
        [...participants].filter((id) => members.has(id)),
        bet.groupId,
        bet.id,
      );
      if (recipients.length === 0) return;
      const groupName = (await findGroupName(db, bet.groupId)) ?? 'your group';
      const payload = {
        groupName,
        betTitle: bet.title,
        actorName: event.userName,
        excerpt: excerptOf(event.text),
      };
      await save(
        'comments',
        recipients.map((userId) => ({
          userId,
          groupId: bet.groupId,
          betId: bet.id,
          actorId: event.userId,
          payload,
        })),
      );
    },

    async commentDeleted(event) {
      const comment = { ...event, createdAt: new Date(event.createdAt) };
      republish(await uncountComment(db, comment, now()));
    },
  };
}
