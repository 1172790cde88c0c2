import { eq } from 'drizzle-orm';
import { distributionEvent, reversalEvent } from '../../domain/ledger';
import { computeResolution, refunds, type Distribution } from '../../domain/payout';
import type { Executor } from '../db/connect';
import { bets, type BetRow, type WagerRow } from '../db/schema';
import type { EventBus } from '../events';
import { applyLedgerEvent } from '../groups/ledger-writer';
import { listActiveMemberIds } from '../groups/membership-queries';
import { lockMemberships } from '../groups/membership.service';
import { recordBetHistory } from './bet-history';
import { loadWagers } from './bet-queries';
import { toPayoutWager } from './bet.presenter';
import { scheduleResolveReminder } from './resolve-reminders';
import { queueBetCancelled, queueBetResolved } from '../webhooks/webhook-events';

// Settling a bet (docs/architecture.md §5): resolving pays the pari-mutuel distributions,
// cancelling and expiring refund every wager. Each runs in the caller's transaction on a bet
// it has locked FOR UPDATE and checked to be active, moves points only through
// applyLedgerEvent in the one payout loop below, and is announced after the commit.
// Undoing a resolution (the undo window, an admin's re-resolution) runs the same
// loop with each distribution's exact opposite, so points are back where they were and the
// ledger shows both moves. Each settlement writes its line of the bet's history.

/** A settled bet, for its events after the commit and its answer. */
export interface Settlement {
  /** The bet after the change: resolved, cancelled or expired. */
  bet: BetRow;
  betWagers: WagerRow[];
  /** What each wagerer got back, in wager order. */
  distributions: Distribution[];
  /** Every stake came back as it was: cancel, expiry, or a resolution nobody won (or a push). */
  isRefund: boolean;
  /** The history line this change wrote. */
  historyId: number;
}

/** The one payout loop: a ledger event per distribution, tied to the wager it settles. */
async function payOut(
  tx: Executor,
  bet: BetRow,
  betWagers: readonly WagerRow[],
  distributions: readonly Distribution[],
  isRefund: boolean,
  at: Date,
  direction: 'pay' | 'reverse' = 'pay',
  mayOverdraw = false,
): Promise<void> {
  const wagerIdByUser = new Map(betWagers.map((wager) => [wager.userId, wager.id]));
  const eventOf = direction === 'pay' ? distributionEvent : reversalEvent;
  // Every wagerer's row, in the one lock order, before the first move (distributions come in
  // wager order, which differs from bet to bet). A re-resolution reverses and then pays: both
  // touch only these rows, so it too takes them all here, at once.
  await lockMemberships(
    tx,
    betWagers.map((wager) => ({ groupId: bet.groupId, userId: wager.userId })),
  );
  for (const distribution of distributions) {
    await applyLedgerEvent(tx, {
      groupId: bet.groupId,
      userId: distribution.userId,
      event: eventOf(distribution, isRefund),
      betId: bet.id,
      wagerId: wagerIdByUser.get(distribution.userId) ?? null,
      now: at,
      mayOverdraw,
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
  kind: 'resolved' | 're_resolved' = 'resolved',
  /** A result nobody typed (a results provider's): its history line names no actor, gives the reason. */
  source?: { reason: string },
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
      // A resolution shows every pick: from now on the bet never takes a wager, undone or not.
      picksRevealedAt: bet.picksRevealedAt ?? at,
    })
    .where(eq(bets.id, bet.id))
    .returning();
  await scheduleResolveReminder(tx, updated!);
  const historyId = await recordBetHistory(tx, bet, {
    kind,
    actorId: source ? null : resolvedBy,
    at,
    correctAnswer,
    reason: source?.reason ?? null,
  });
  await queueBetResolved(tx, { bet: updated!, distributions, isRefund }, at);
  return { bet: updated!, betWagers, distributions, isRefund, historyId };
}

/** What undoing a resolution took back: the distributions it had paid, and the bet as it is now. */
export interface Reversal {
  bet: BetRow;
  /** The resolution's distributions, as they were paid (each was reversed exactly). */
  distributions: Distribution[];
  previousAnswer: string;
  /** The history line the undo wrote (null: the caller writes its own). */
  historyId: number | null;
}

/**
 * Takes back every distribution of a locked, resolved bet (its wagers cannot change once
 * resolved, so the rule pays back exactly what it paid) and makes it active again, closed and
 * waiting for a resolver: its picks were shown (`picks_revealed_at` stays), so betting never
 * reopens, whatever its expiry. When a winner has wagered those
 * points again, nothing moves (422 settlement_spent), unless `spentWinnings` is 'overdraw'
 * (a re-resolution, which always goes through). `history` null: the caller writes its own
 * line (a re-resolution is one line, not an undo and a resolve).
 */
export async function reverseResolution(
  tx: Executor,
  bet: BetRow,
  at: Date,
  history: { actorId: number } | null,
  /**
   * 'overdraw' (a re-resolution): winnings wagered again meanwhile are taken back all the same,
   * the winner's available points going below zero until refilled. 'refuse' (an undo): nothing
   * moves (422 settlement_spent).
   */
  spentWinnings: 'refuse' | 'overdraw' = 'refuse',
): Promise<Reversal> {
  const betWagers = await wagersOf(tx, bet);
  const previousAnswer = bet.correctAnswer ?? '';
  const resolution = computeResolution(bet, betWagers.map(toPayoutWager), previousAnswer);
  const isRefund = resolution.outcome === 'refunded';
  const distributions = resolution.distributions as Distribution[];
  await payOut(
    tx,
    bet,
    betWagers,
    distributions,
    isRefund,
    at,
    'reverse',
    spentWinnings === 'overdraw',
  );
  const [updated] = await tx
    .update(bets)
    .set({
      state: 'active',
      correctAnswer: null,
      resolvedAt: null,
      resolvedBy: null,
      membersAtResolution: null,
      disputeState: null,
      disputedBy: null,
      disputeReason: null,
      disputedAt: null,
      updatedAt: at,
    })
    .where(eq(bets.id, bet.id))
    .returning();
  await scheduleResolveReminder(tx, updated!);
  const historyId = history
    ? await recordBetHistory(tx, bet, { kind: 'undone', actorId: history.actorId, at })
    : null;
  return { bet: updated!, distributions, previousAnswer, historyId };
}

/** Refunds every wager of a locked, active bet in full and moves it to `state` (cancel and expiry). */
export async function settleByRefund(
  tx: Executor,
  bet: BetRow,
  state: 'cancelled' | 'expired',
  at: Date,
  /** Who cancelled; null for the expiry job. */
  actorId: number | null = null,
): Promise<Settlement> {
  const betWagers = await wagersOf(tx, bet);
  const distributions = refunds(betWagers.map(toPayoutWager));
  await payOut(tx, bet, betWagers, distributions, true, at);
  const [updated] = await tx
    .update(bets)
    .set({ state, updatedAt: at })
    .where(eq(bets.id, bet.id))
    .returning();
  await scheduleResolveReminder(tx, updated!);
  const historyId = await recordBetHistory(tx, bet, { kind: state, actorId, at });
  await queueBetCancelled(tx, updated!, state, at);
  return { bet: updated!, betWagers, distributions, isRefund: true, historyId };
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
