import { findWinners, type BetRules } from './bet-types';
import { isBettingOpen, type TimedBet } from './fair-resolution';

// How a settled bet turned out for one player, in the player's words: the one wording every
// results screen and the inbox share, so the bet page, its cards and the inbox never disagree.
// Pure: it reads the player's stake and what the payout gave back, nothing else.

function points(count: number): string {
  return `${count} point${count === 1 ? '' : 's'}`;
}

export type WagerOutcome = {
  kind: 'won' | 'refunded' | 'lost';
  /** "You won 7 points (+5)", "You got your 3 points back", "You lost 2 points". */
  text: string;
};

/** What the payout gave a player who staked `stake` and got `winnings` back (0 when the pick lost). */
export function wagerOutcome({
  stake,
  winnings,
}: {
  stake: number;
  winnings: number;
}): WagerOutcome {
  if (winnings > stake)
    return { kind: 'won', text: `You won ${points(winnings)} (+${winnings - stake})` };
  if (winnings === stake) return { kind: 'refunded', text: `You got your ${points(stake)} back` };
  return { kind: 'lost', text: `You lost ${points(stake - winnings)}` };
}

/** Why every wager of a resolved bet came back, when they did: the line was hit, or nobody was right. */
export type RefundReason = 'push' | 'no_winner';

/** The sentence a results screen shows when a resolved bet paid nobody and refunded everyone. */
export function refundReasonText(reason: RefundReason): string {
  return reason === 'push'
    ? 'The answer landed exactly on the line, so everyone got their points back.'
    : 'Nobody picked the right answer, so everyone got their points back.';
}

/** The cancelled bet's refund: "Your 4 points came back". */
export function cancelledRefundText(stake: number): string {
  return `Your ${points(stake)} came back`;
}

/** The badge beside a winning answer: a numeric bet pays the closest guesses, not an exact one. */
export function winningBadge(bet: Pick<BetRules, 'betType'>): 'Closest' | 'Correct' {
  return bet.betType === 'numeric' ? 'Closest' : 'Correct';
}

/**
 * Whether a resolved bet refunded everyone, and why: an over/under answer on its line, or no
 * pick winning. Decided by the bet type's own rule (the payout's), from the picks alone.
 */
export function refundReasonOf(
  bet: BetRules,
  picks: readonly { id: number; prediction: string; points: number }[],
  correctAnswer: string,
): RefundReason | null {
  if (picks.length === 0) return null;
  const { isPush, winningWagerIds } = findWinners(bet, picks, correctAnswer);
  if (isPush) return 'push';
  const paid = picks.some((pick) => winningWagerIds.has(pick.id) && pick.points > 0);
  return paid ? null : 'no_winner';
}

/** The viewer's result line of a resolved bet's statistics, once the payout is known. */
export function outcomeOfStatistics(statistics: {
  userWager: { points: number; winnings?: number | undefined } | null;
}): WagerOutcome | null {
  const own = statistics.userWager;
  if (!own || own.winnings === undefined) return null;
  return wagerOutcome({ stake: own.points, winnings: own.winnings });
}

/** Betting is over but no result is in yet: said beside the countdown's "Expired". */
export const BETTING_CLOSED_WORDS = 'betting closed — waiting for the result';

/**
 * A bet's state in the players' words, said beside the state's own label on every screen
 * (null when the label says it all): an active bet whose betting closed waits for its result;
 * a cancelled or expired bet gave the viewer's stake back.
 */
export function betStateWords(
  bet: TimedBet,
  now: number,
  stake: number | null | undefined,
): string | null {
  if (bet.state === 'active') return isBettingOpen(bet, now) ? null : BETTING_CLOSED_WORDS;
  if ((bet.state === 'cancelled' || bet.state === 'expired') && stake)
    return cancelledRefundText(stake);
  return null;
}

/** "You think this result is wrong" for the one who disputed, "Maya thinks…" for everyone else. */
export function disputeOpenedWords(who: string, isViewer: boolean): string {
  return isViewer ? 'You think this result is wrong:' : `${who} thinks this result is wrong:`;
}
