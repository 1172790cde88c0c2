import type { BetRefusal } from '../domain/policies/bet-policy';
import { AppError, disputeExists, notMember } from './errors';

// The bet policy's refusals (src/domain/policies/bet-policy.ts names each one and its code):
// their HTTP status and words. Part of the one error vocabulary of errors.ts.

/** Resolving is the bet creator's (docs/groups-and-bets.md §6: only the creator gets it in the resolve queue). */
export const notBetCreator = () =>
  new AppError(403, 'not_bet_creator', 'Only the creator of this bet can resolve it.');
/** Cancelling is for the bet's creator or an admin of its group (docs/architecture.md §5). */
export const cannotCancelBet = () =>
  new AppError(403, 'cannot_cancel_bet', "Only the bet's creator or a group admin can cancel it.");
/** Undoing a resolution is for whoever resolved it, while still a member. */
export const cannotUndoResolution = () =>
  new AppError(403, 'cannot_undo_resolution', 'Only the person who resolved this bet can undo it.');
/** Disputing is for the bet's participants: members who wagered on it. */
export const cannotDispute = () =>
  new AppError(403, 'cannot_dispute', 'Only players who wagered on this bet can dispute it.');
/** Re-resolving or dismissing a dispute is for the group's admins (its members when every admin has a stake). */
export const cannotReviewDispute = () =>
  new AppError(403, 'cannot_review_dispute', 'Only a group admin can review a dispute.');
/** Whoever disputed or wagered on the bet would judge in their own favour (domain/fair-resolution.ts disputeJudgeIds). */
export const cannotJudgeOwnDispute = () =>
  new AppError(
    403,
    'cannot_review_dispute',
    'You have a stake in this bet, so someone without one judges its dispute.',
  );
/** Others' picks stay hidden while betting is open (docs/architecture.md §5). */
export const picksHidden = () =>
  new AppError(403, 'picks_hidden', 'Picks are revealed when betting closes.');
export const cannotStopSharing = () =>
  new AppError(
    403,
    'cannot_stop_sharing',
    'Only whoever shared this bet or an admin can turn its link off.',
  );
/** Wagers are taken only while the bet is active and before its expiresAt (docs/groups-and-bets.md §4). */
export const betClosed = (reason: 'expired' | 'not_active') =>
  new AppError(
    422,
    'bet_closed',
    reason === 'expired'
      ? 'This bet has expired: wagers are no longer accepted.'
      : 'This bet is no longer open for wagers.',
  );
export const alreadyResolved = () =>
  new AppError(422, 'already_resolved', 'This bet has already been resolved.');
/** Resolve and cancel need an active bet; a cancelled or expired one has been settled already. */
export const betNotActive = (state: string) =>
  new AppError(422, 'bet_not_active', `This bet is ${state} and can no longer be changed.`);
/** Undo and dispute act on a resolution: a bet that has none says so. */
export const notResolved = () =>
  new AppError(422, 'bet_not_active', 'This bet has not been resolved.');
export const undoWindowOver = () =>
  new AppError(422, 'undo_window_over', 'The 10 minutes to undo this resolution are over.');
/** A reviewed dispute (re-resolved or dismissed) makes the result final: no undo either. */
export const resolutionFinal = () =>
  new AppError(422, 'undo_window_over', 'This result was reviewed by an admin and is final.');
export const disputeWindowOver = () =>
  new AppError(422, 'dispute_window_over', 'Resolutions can only be disputed within 24 hours.');
export const noOpenDispute = () =>
  new AppError(422, 'no_open_dispute', 'This bet has no open dispute.');
/** The error a bet policy's refusal answers with (domain/policies/bet-policy.ts names the code, this its status and words). */
export function betRefusal(reason: BetRefusal, state: string): AppError {
  const errors: Record<BetRefusal, () => AppError> = {
    not_member: notMember,
    not_bet_creator: notBetCreator,
    cannot_cancel_bet: cannotCancelBet,
    cannot_undo_resolution: cannotUndoResolution,
    cannot_dispute: cannotDispute,
    cannot_review_dispute: cannotReviewDispute,
    own_stake: cannotJudgeOwnDispute,
    bet_closed: () => betClosed('not_active'),
    bet_expired: () => betClosed('expired'),
    already_resolved: alreadyResolved,
    bet_not_active: () => betNotActive(state),
    not_resolved: notResolved,
    resolution_final: resolutionFinal,
    undo_window_over: undoWindowOver,
    dispute_exists: disputeExists,
    dispute_window_over: disputeWindowOver,
    no_open_dispute: noOpenDispute,
    picks_hidden: picksHidden,
    cannot_stop_sharing: cannotStopSharing,
    insufficient_points: () => new AppError(422, 'insufficient_points', 'Not enough points.'),
  };
  return errors[reason]();
}
