import { eq } from 'drizzle-orm';
import { distributionEvent } from '../../domain/ledger';
import { computeResolution, refunds, type Distribution } from '../../domain/payout';
import type { Executor } from '../db/connect';
import { bets, type BetRow, type WagerRow } from '../db/schema';
import type { EventBus } from '../events';
import { applyLedgerEvent, listActiveMemberIds } from '../groups/membership.service';
import { loadWagers } from './bet-queries';
import { toPayoutWager } from './bet.presenter';

// Settling a bet (ARCHITECTURE.md §5): resolving pays the pari-mutuel distributions,
// cancelling and expiring refund every wager. Each runs in the caller's transaction on a bet
// it has locked FOR UPDATE and checked to be active, moves points only through
// applyLedgerEvent in the one payout loop below, and is announced after the commit.

/** A settled bet, for its events after the commit and its answer. */
export interface Settlement {
  /** The bet after the change: resolved, cancelled or expired. */
  bet: BetRow;
  betWagers: WagerRow[];
  /** What each wagerer got back, in wager order. */
  distributions: Distribution[];
  /** Every stake came back as it was: cancel, expiry, or a resolution nobody won (or a push). */
  isRefund: boolean;
}

/** The one payout loop: a ledger event per distribution, tied to the wager it settles. */
async function payOut(
  tx: Executor,
  bet: BetRow,
  betWagers: readonly WagerRow[],
  distributions: readonly Distribution[],
  isRefund: boolean,
  at: Date,
): Promise<void> {
  const wagerIdByUser = new Map(betWagers.map((wager) => [wager.userId, wager.id]));
  for (const distribution of distributions) {
    await applyLedgerEvent(tx, {
      groupId: bet.groupId,
      userId: distribution.userId,
      event: distributionEvent(distribution, isRefund),
      betId: bet.id,
      wagerId: wagerIdByUser.get(distribution.userId) ?? null,
      now: at,
    });
  }
}

async function wagersOf(tx: Executor, bet: BetRow): Promise<WagerRow[]> {
  return (await loadWagers(tx, [bet.id])).get(bet.id) ?? [];
}

/** Resolves a locked, active bet with its (valid, normalised) correct answer, paying every distribution. */
export async function settleByResolution(
  tx: Executor,
  bet: BetRow,
  correctAnswer: string,
  resolvedBy: number,
  at: Date,
): Promise<Settlement> {
  const betWagers = await wagersOf(tx, bet);
  const resolution = computeResolution(bet, betWagers.map(toPayoutWager), correctAnswer);
  const isRefund = resolution.outcome === 'refunded';
  const distributions = resolution.distributions as Distribution[];
  await payOut(tx, bet, betWagers, distributions, isRefund, at);
  const [updated] = await tx
    .update(bets)
    .set({
      state: 'resolved',
      correctAnswer,
      resolvedAt: at,
      resolvedBy,
      updatedAt: at,
      membersAtResolution: (await listActiveMemberIds(tx, bet.groupId)).length,
    })
    .where(eq(bets.id, bet.id))
    .returning();
  return { bet: updated!, betWagers, distributions, isRefund };
}

/** Refunds every wager of a locked, active bet in full and moves it to `state` (cancel and expiry). */
export async function settleByRefund(
  tx: Executor,
  bet: BetRow,
  state: 'cancelled' | 'expired',
  at: Date,
): Promise<Settlement> {
  const betWagers = await wagersOf(tx, bet);
  const distributions = refunds(betWagers.map(toPayoutWager));
  await payOut(tx, bet, betWagers, distributions, true, at);
  const [updated] = await tx
    .update(bets)
    .set({ state, updatedAt: at })
    .where(eq(bets.id, bet.id))
    .returning();
  return { bet: updated!, betWagers, distributions, isRefund: true };
}

/**
 * After the commit: the group hears the bet was resolved, cancelled or expired, then
 * pointsRefunded when stakes came back to anyone (no event when nobody had wagered).
 */
export function announceSettlement(events: EventBus, settlement: Settlement): void {
  const { bet, distributions } = settlement;
  const totalRefunded = distributions.reduce((sum, entry) => sum + entry.winnings, 0);
  const scope = { groupId: bet.groupId };
  if (bet.state === 'resolved') {
    events.publish(
      'betResolved',
      { betId: bet.id, groupId: bet.groupId, distributions, version: bet.version },
      scope,
    );
  } else if (bet.state === 'cancelled') {
    events.publish(
      'betCancelled',
      {
        betId: bet.id,
        groupId: bet.groupId,
        totalPointsRefunded: totalRefunded,
        version: bet.version,
      },
      scope,
    );
  } else {
    events.publish(
      'betExpired',
      { betId: bet.id, groupId: bet.groupId, version: bet.version },
      scope,
    );
  }
  if (!settlement.isRefund || distributions.length === 0) return;
  events.publish(
    'pointsRefunded',
    {
      betId: bet.id,
      groupId: bet.groupId,
      totalRefunded,
      refundedParticipants: distributions.length,
    },
    scope,
  );
}
