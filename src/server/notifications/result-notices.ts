import { answerLabel } from '../../domain/bet-types';
import { disputeNoticeRecipients } from '../../domain/fair-resolution';
import type { Distribution } from '../../domain/payout';
import type { BetReResolvedPayload, DisputeDismissedPayload } from '../../domain/realtime-events';
import { findBet, loadWagers } from '../bets/bet-queries';
import type { BetRow } from '../db/schema';
import {
  findActiveMembershipWithName,
  findGroupName,
  listActiveAdminIds,
  listActiveMemberIds,
} from '../groups/membership-queries';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import { readResolveReminders, supersedeResults } from './notification-store';

// How a bet ended and what happened to its result afterwards: each participant's result
// (resolved, cancelled, expired), a result undone, a dispute to review, a dispute's outcome (one
// entry per bet history line). Mutes do not keep these out: your points changed or you are asked
// to act, so you hear of it (a muted result is not pushed: push applies the mutes).

export function resultNotices({ db, now, save, republish }: NoticeContext): NoticeHandlers {
  /** The bet is settled: its resolve reminder no longer calls for action, on every device. */
  async function settleReminders(betId: number): Promise<void> {
    republish(await readResolveReminders(db, betId, now()));
  }

  /** Each current member's result of a resolved bet (its last resolution). */
  async function saveResults(bet: BetRow, distributions: readonly Distribution[]): Promise<void> {
    const members = new Set(await listActiveMemberIds(db, bet.groupId));
    const groupName = (await findGroupName(db, bet.groupId)) ?? 'your group';
    const answer = bet.correctAnswer === null ? undefined : answerLabel(bet, bet.correctAnswer);
    const entries = distributions
      .filter((d) => members.has(d.userId))
      .map((d) => ({
        userId: d.userId,
        groupId: bet.groupId,
        betId: bet.id,
        payload: {
          groupName,
          betTitle: bet.title,
          outcome: 'resolved' as const,
          ...(answer === undefined ? {} : { answer }),
          winnings: d.winnings,
          wagerAmount: d.wagerAmount,
        },
      }));
    // The resolver knows the outcome: their entry is written, not pushed.
    await save('betResult', entries, new Set([bet.resolvedBy ?? bet.createdBy]));
  }

  async function betRefunded(betId: number, outcome: 'cancelled' | 'expired'): Promise<void> {
    await settleReminders(betId);
    const bet = await findBet(db, betId);
    const members = new Set(await listActiveMemberIds(db, bet.groupId));
    const groupName = (await findGroupName(db, bet.groupId)) ?? 'your group';
    const entries = ((await loadWagers(db, [bet.id])).get(bet.id) ?? [])
      .filter((wager) => members.has(wager.userId))
      .map((wager) => ({
        userId: wager.userId,
        groupId: bet.groupId,
        betId: bet.id,
        payload: {
          groupName,
          betTitle: bet.title,
          outcome,
          winnings: wager.points,
          wagerAmount: wager.points,
        },
      }));
    const quiet = new Set(outcome === 'cancelled' && bet.resolvedBy ? [bet.resolvedBy] : []);
    await save('betResult', entries, quiet);
  }

  /** The facts every entry about a bet's resolution starts from, and who is in the group now. */
  async function aboutBet(betId: number, actorId: number) {
    const bet = await findBet(db, betId);
    const members = new Set(await listActiveMemberIds(db, bet.groupId));
    const groupName = (await findGroupName(db, bet.groupId)) ?? 'your group';
    const actor = await findActiveMembershipWithName(db, bet.groupId, actorId);
    const wagerers = ((await loadWagers(db, [bet.id])).get(bet.id) ?? []).map((w) => w.userId);
    return {
      bet,
      /** The creator and everyone who wagered, current members, but whoever acted. */
      participants: [...new Set([bet.createdBy, ...wagerers])].filter(
        (id) => id !== actorId && members.has(id),
      ),
      members,
      wagerers,
      payload: { groupName, betTitle: bet.title, actorName: actor?.userName ?? 'A member' },
    };
  }

  async function disputeClosed(
    event: DisputeDismissedPayload | BetReResolvedPayload,
    reviewerId: number,
  ): Promise<void> {
    const { bet, participants, members, payload } = await aboutBet(event.betId, reviewerId);
    const review = 'reResolvedBy' in event ? 'reResolved' : 'dismissed';
    // A new answer: each result says what it pays now (not pushed again, this entry is).
    if ('reResolvedBy' in event) await saveResults(bet, event.distributions);
    const disputer = bet.disputedBy;
    const recipients = [
      ...new Set([...participants, ...(disputer === null ? [] : [disputer])]),
    ].filter((id) => id !== reviewerId && members.has(id));
    const answer =
      review === 'reResolved' && bet.correctAnswer !== null
        ? { answer: answerLabel(bet, bet.correctAnswer) }
        : {};
    await save(
      'disputeClosed',
      recipients.map((userId) => ({
        userId,
        groupId: bet.groupId,
        betId: bet.id,
        actorId: reviewerId,
        eventKey: event.historyId,
        payload: { ...payload, review, ...answer },
      })),
    );
  }

  return {
    async betResolved(event) {
      await settleReminders(event.betId);
      await saveResults(await findBet(db, event.betId), event.distributions);
    },
    betCancelled: (event) => betRefunded(event.betId, 'cancelled'),
    betExpired: (event) => betRefunded(event.betId, 'expired'),

    async resolutionUndone(event) {
      republish(await supersedeResults(db, event.betId, now()));
      const { bet, participants, payload } = await aboutBet(event.betId, event.undoneBy);
      await save(
        'resultUndone',
        participants.map((userId) => ({
          userId,
          groupId: bet.groupId,
          betId: bet.id,
          actorId: event.undoneBy,
          eventKey: event.historyId,
          payload,
        })),
      );
    },

    async resolutionDisputed(event) {
      const { bet, members, wagerers, payload } = await aboutBet(event.betId, event.disputedBy);
      // Who is asked (a dispute asks them to act, so mutes do not keep it out).
      const recipients = disputeNoticeRecipients({
        createdBy: bet.createdBy,
        memberIds: [...members],
        adminIds: await listActiveAdminIds(db, bet.groupId),
        stakeholderIds: wagerers,
        disputedBy: event.disputedBy,
      });
      await save(
        'disputeOpened',
        recipients.map((userId) => ({
          userId,
          groupId: bet.groupId,
          betId: bet.id,
          actorId: event.disputedBy,
          eventKey: event.historyId,
          payload: { ...payload, reason: event.reason },
        })),
      );
    },

    disputeDismissed: (event) => disputeClosed(event, event.dismissedBy),
    betReResolved: (event) => disputeClosed(event, event.reResolvedBy),
  };
}
