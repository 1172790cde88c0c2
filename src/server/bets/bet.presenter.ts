import type { Bet, BetTypeConfig, Wager } from '../../domain/bets';
import { totalsByAnswer } from '../../domain/odds';
import type { PayoutWager } from '../../domain/payout';
import type { BetRow, WagerRow } from '../db/schema';

// Never send a database row (CONVENTIONS.md): bets and wagers shaped into the response
// schemas of src/domain/bets.ts. Dates travel as ISO 8601 strings.

/**
 * A bet as responses carry it. With its wagers, it also carries `answerTotals` (points per
 * answer, for live odds) and `wagerCount`: never who picked what (ARCHITECTURE.md §5).
 */
export function presentBet(row: BetRow, wagers?: readonly Pick<WagerRow, 'prediction' | 'points'>[]): Bet {
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
    expiresAt: row.expiresAt.toISOString(),
    correctAnswer: row.correctAnswer,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedBy: row.resolvedBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(wagers ? { answerTotals: totalsByAnswer(row, wagers), wagerCount: wagers.length } : {}),
  };
}

export function presentWager(row: WagerRow): Wager {
  return {
    id: row.id,
    betId: row.betId,
    userId: row.userId,
    prediction: row.prediction,
    points: row.points,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The fields the payout and statistics rules of src/domain read. */
export function toPayoutWager(row: WagerRow): PayoutWager {
  return { id: row.id, userId: row.userId, prediction: row.prediction, points: row.points, createdAt: row.createdAt.toISOString() };
}
