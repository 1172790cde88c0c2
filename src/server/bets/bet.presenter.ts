import type { Bet, BetTypeConfig, Wager } from '../../domain/bets';
import type { BetDispute, RevealedPick } from '../../domain/fair-resolution';
import { totalsByAnswer } from '../../domain/odds';
import type { PayoutWager } from '../../domain/payout';
import type { BetRow, WagerRow } from '../db/schema';
import { isoTime } from '../iso-time';

// Never send a database row (docs/conventions.md): bets and wagers shaped into the response
// schemas of src/domain/bets.ts. Dates travel as ISO 8601 strings.

/**
 * A bet as responses carry it. With its wagers, it also carries `answerTotals` (points per
 * answer, for live odds) and `wagerCount`: never who picked what (docs/architecture.md §5).
 */
export function presentBet(
  row: BetRow,
  wagers?: readonly Pick<WagerRow, 'prediction' | 'points'>[],
  /** Who picked what: only for a bet whose betting has closed (bet-queries.ts loadPicks). */
  picks?: RevealedPick[] | null,
): Bet {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    betType: row.betType,
    state: row.state,
    betTypeConfig: row.betTypeConfig as BetTypeConfig,
    baseWagerAmount: row.baseWagerAmount,
    groupId: row.groupId,
    createdBy: row.createdBy,
    expiresAt: isoTime(row.expiresAt),
    correctAnswer: row.correctAnswer,
    resolvedAt: row.resolvedAt ? isoTime(row.resolvedAt) : null,
    resolvedBy: row.resolvedBy,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    ...(wagers ? { answerTotals: totalsByAnswer(row, wagers), wagerCount: wagers.length } : {}),
    ...(picks ? { picks } : {}),
    ...(row.picksRevealedAt ? { picksRevealedAt: isoTime(row.picksRevealedAt) } : {}),
    ...(row.disputeState ? { dispute: presentDispute(row) } : {}),
  };
}

function presentDispute(row: BetRow): BetDispute {
  return {
    state: row.disputeState!,
    userId: row.disputedBy ?? 0,
    reason: row.disputeReason ?? '',
    at: isoTime(row.disputedAt ?? row.updatedAt),
  };
}

export function presentWager(row: WagerRow): Wager {
  return {
    id: row.id,
    betId: row.betId,
    userId: row.userId,
    prediction: row.prediction,
    points: row.points,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

/** The fields the payout and statistics rules of src/domain read. */
export function toPayoutWager(row: WagerRow): PayoutWager {
  return {
    id: row.id,
    userId: row.userId,
    prediction: row.prediction,
    points: row.points,
    createdAt: isoTime(row.createdAt),
  };
}
