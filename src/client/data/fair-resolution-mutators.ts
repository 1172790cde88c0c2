import { normalizeAnswer } from '../../domain/bet-types';
import type { Bet } from '../../domain/bets';
import type { Mutator } from './mutators';

// The writes of fair resolution as named mutators (data/mutators.ts): undoing a
// resolution, disputing it, and an admin's review (dismiss, re-resolve). Each shows at once on
// the bet; the points a reversal moves are the server's and come with the pull that follows.

export interface BetIdArgs {
  betId: number;
}

export interface DisputeArgs {
  betId: number;
  reason: string;
}

export interface ReResolveArgs {
  betId: number;
  correctAnswer: string;
}

/** The bet shows unresolved again at once, still closed: its picks were shown (it keeps `picksRevealedAt`). */
export const undoResolutionMutator: Mutator<BetIdArgs, Bet> = {
  name: 'undoResolution',
  texts: {
    queued: "You're offline. The result will be undone when you're back.",
    refused: "The result wasn't undone. Please try again.",
    label: 'Undone result',
    refusedAs: (bet) => `Undoing the result of ${bet} didn't go through`,
  },
  betIdOf: ({ betId }) => betId,
  push: ({ betId }) => ({ params: { id: betId } }),
  async apply({ betId }, context) {
    const bet = await context.db.bets.get(betId);
    if (!bet || bet.state !== 'resolved') return;
    const { dispute: _dispute, ...rest } = bet;
    await context.put('bets', {
      ...rest,
      state: 'active',
      correctAnswer: null,
      resolvedAt: null,
      resolvedBy: null,
      updatedAt: context.now,
    });
  },
};

/** The bet shows the player's open dispute at once. */
export const disputeResolutionMutator: Mutator<DisputeArgs, Bet> = {
  name: 'disputeResolution',
  texts: {
    queued: "You're offline. Your dispute will be sent when you're back.",
    refused: "Your dispute wasn't sent. Please try again.",
    label: 'Dispute',
    refusedAs: (bet) => `Your dispute on ${bet} wasn't sent`,
  },
  betIdOf: ({ betId }) => betId,
  describe: ({ reason }) => reason,
  push: ({ betId, reason }) => ({ params: { id: betId }, body: { reason } }),
  async apply({ betId, reason }, context) {
    const bet = await context.db.bets.get(betId);
    if (!bet || bet.state !== 'resolved' || bet.dispute) return;
    await context.put('bets', {
      ...bet,
      dispute: { state: 'open', userId: context.userId, reason: reason.trim(), at: context.now },
    });
  },
};

/** The dispute shows closed at once: the result stands. */
export const dismissDisputeMutator: Mutator<BetIdArgs, Bet> = {
  name: 'dismissDispute',
  texts: {
    queued: "You're offline. The dismissal will be sent when you're back.",
    refused: "The dispute wasn't dismissed. Please try again.",
    label: 'Dismissed dispute',
    refusedAs: (bet) => `Dismissing the dispute on ${bet} didn't go through`,
  },
  betIdOf: ({ betId }) => betId,
  push: ({ betId }) => ({ params: { id: betId } }),
  async apply({ betId }, context) {
    const bet = await context.db.bets.get(betId);
    if (!bet?.dispute || bet.dispute.state !== 'open') return;
    await context.put('bets', { ...bet, dispute: { ...bet.dispute, state: 'closed' } });
  },
};

/** The new answer and the closed dispute show at once; the new payout comes with the pull. */
export const reResolveBetMutator: Mutator<ReResolveArgs, Bet> = {
  name: 'reResolveBet',
  texts: {
    queued: "You're offline. The new result will be sent when you're back.",
    refused: "The new result wasn't saved. Please try again.",
    label: 'New result',
    refusedAs: (bet) => `Your new result for ${bet} wasn't saved`,
  },
  betIdOf: ({ betId }) => betId,
  describe: ({ correctAnswer }) => correctAnswer,
  push: ({ betId, correctAnswer }) => ({ params: { id: betId }, body: { correctAnswer } }),
  async apply({ betId, correctAnswer }, context) {
    const bet = await context.db.bets.get(betId);
    if (!bet?.dispute || bet.dispute.state !== 'open') return;
    await context.put('bets', {
      ...bet,
      correctAnswer: normalizeAnswer(bet, correctAnswer),
      resolvedAt: context.now,
      resolvedBy: context.userId,
      updatedAt: context.now,
      dispute: { ...bet.dispute, state: 'closed' },
    });
  },
};

export const FAIR_RESOLUTION_MUTATORS = [
  undoResolutionMutator,
  disputeResolutionMutator,
  dismissDisputeMutator,
  reResolveBetMutator,
] as const;
