import { and, eq } from 'drizzle-orm';
import { normalizeAnswer, validateCorrectAnswer } from '../../domain/bet-types';
import type { Bet } from '../../domain/bets';
import { type BetHistoryEntry, type RevealedPick } from '../../domain/fair-resolution';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { bets, wagers, type BetRow } from '../db/schema';
import { invalidAnswer } from '../errors';
import type { EventBus } from '../events';
import { findReadableBet, requireBetAction } from './bet-access';
import { readBetHistory, recordBetHistory } from './bet-history';
import { findBet, loadPicks, loadWagers, presentReadBet } from './bet-queries';
import { reverseResolution, settleByResolution } from './settlement.service';

// Fair resolution and picks revealed at close. Undo: whoever resolved a bet
// takes it back within UNDO_WINDOW_MS. Dispute: a participant flags the resolution within
// DISPUTE_WINDOW_MS with a reason; a group admin re-resolves it or dismisses it, after which it
// is final (one dispute per resolution, and no undo of a reviewed result). Points move only in settlement.service.ts, by the exact
// reversal of what was paid; each step writes the bet's history in the same transaction and is
// published after the commit (the realtime gateway forwards it; the inbox can hook in there).

export interface FairResolutionDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type FairResolutionService = ReturnType<typeof createFairResolutionService>;

export function createFairResolutionService({
  db,
  events,
  now = () => new Date(),
}: FairResolutionDeps) {
  return {
    /** GET /bets/{id}/picks: who picked what, once betting has closed (403 picks_hidden before). */
    async getPicks(
      caller: AuthUser,
      betId: number,
    ): Promise<{ betId: number; picks: RevealedPick[] }> {
      const bet = await findBet(db, betId);
      const at = now();
      await requireBetAction(db, { userId: caller.id, action: 'seePicks', bet, now: at });
      return { betId, picks: (await loadPicks(db, [bet], at)).get(bet.id) ?? [] };
    },

    /** GET /bets/{id}/history: what happened to the bet, oldest first. */
    async getHistory(caller: AuthUser, betId: number): Promise<BetHistoryEntry[]> {
      const bet = await findReadableBet(db, caller.id, betId);
      return readBetHistory(db, bet.id);
    },

    /** POST /bets/{id}/undo-resolution: within 10 minutes, whoever resolved it takes the resolution back. */
    async undoResolution(caller: AuthUser, betId: number): Promise<Bet> {
      const at = now();
      const reversal = await db.transaction(async (tx) => {
        const locked = await findBet(tx, betId, 'update');
        await requireBetAction(tx, { userId: caller.id, bet: locked, action: 'undo', now: at });
        return reverseResolution(tx, locked, at, { actorId: caller.id });
      });
      const { bet } = reversal;
      events.publish(
        'resolutionUndone',
        {
          betId: bet.id,
          groupId: bet.groupId,
          undoneBy: caller.id,
          previousAnswer: reversal.previousAnswer,
          distributions: reversal.distributions,
          historyId: reversal.historyId!,
          version: bet.version,
        },
        { groupId: bet.groupId },
      );
      return presentReadBet(db, bet, at);
    },

    /** POST /bets/{id}/dispute: a participant flags the resolution as wrong, within 24 hours, once. */
    async disputeResolution(caller: AuthUser, betId: number, reason: string): Promise<Bet> {
      const at = now();
      const { bet, historyId } = await db.transaction(async (tx) => {
        const locked = await findBet(tx, betId, 'update');
        const [own] = await tx
          .select({ id: wagers.id })
          .from(wagers)
          .where(and(eq(wagers.betId, locked.id), eq(wagers.userId, caller.id)))
          .limit(1);
        await requireBetAction(tx, {
          userId: caller.id,
          bet: locked,
          action: 'dispute',
          now: at,
          hasWagered: Boolean(own),
        });
        const [updated] = await tx
          .update(bets)
          .set({
            disputeState: 'open',
            disputedBy: caller.id,
            disputeReason: reason,
            disputedAt: at,
            updatedAt: at,
          })
          .where(eq(bets.id, locked.id))
          .returning();
        const historyId = await recordBetHistory(tx, locked, {
          kind: 'disputed',
          actorId: caller.id,
          at,
          reason,
        });
        return { bet: updated!, historyId };
      });
      events.publish(
        'resolutionDisputed',
        {
          betId: bet.id,
          groupId: bet.groupId,
          disputedBy: caller.id,
          reason,
          historyId,
          version: bet.version,
        },
        { groupId: bet.groupId },
      );
      return presentReadBet(db, bet, at);
    },

    /** POST /bets/{id}/dispute/dismiss: an admin lets the resolution stand; it is final. */
    async dismissDispute(caller: AuthUser, betId: number): Promise<Bet> {
      const at = now();
      const { bet, historyId } = await db.transaction(async (tx) => {
        const locked = await findBet(tx, betId, 'update');
        await requireBetAction(tx, {
          userId: caller.id,
          bet: locked,
          action: 'judgeDispute',
          now: at,
          stakeholderIds: await stakeholdersOf(tx, locked),
        });
        const [updated] = await tx
          .update(bets)
          .set({ disputeState: 'closed', updatedAt: at })
          .where(eq(bets.id, locked.id))
          .returning();
        const historyId = await recordBetHistory(tx, locked, {
          kind: 'dismissed',
          actorId: caller.id,
          at,
        });
        return { bet: updated!, historyId };
      });
      events.publish(
        'disputeDismissed',
        {
          betId: bet.id,
          groupId: bet.groupId,
          dismissedBy: caller.id,
          historyId,
          version: bet.version,
        },
        { groupId: bet.groupId },
      );
      return presentReadBet(db, bet, at);
    },

    /**
     * PUT /bets/{id}/re-resolve: an admin settles a disputed bet again. In one transaction the old
     * payout is taken back exactly, the new answer is paid by the same rule, and the dispute is
     * closed: final.
     */
    async reResolve(caller: AuthUser, betId: number, correctAnswer: string): Promise<Bet> {
      const at = now();
      const result = await db.transaction(async (tx) => {
        const locked = await findBet(tx, betId, 'update');
        await requireBetAction(tx, {
          userId: caller.id,
          bet: locked,
          action: 'judgeDispute',
          now: at,
          stakeholderIds: await stakeholdersOf(tx, locked),
        });
        const problem = validateCorrectAnswer(locked, correctAnswer);
        if (problem) throw invalidAnswer(problem);
        const answer = normalizeAnswer(locked, correctAnswer);
        // A re-resolution always goes through: winnings spent meanwhile are taken back anyway.
        const reversal = await reverseResolution(tx, locked, at, null, 'overdraw');
        const settlement = await settleByResolution(
          tx,
          reversal.bet,
          answer,
          caller.id,
          at,
          're_resolved',
        );
        const [closed] = await tx
          .update(bets)
          .set({
            disputeState: 'closed',
            disputedBy: locked.disputedBy,
            disputeReason: locked.disputeReason,
            disputedAt: locked.disputedAt,
          })
          .where(eq(bets.id, locked.id))
          .returning();
        return { bet: closed!, reversal, settlement };
      });
      const { bet, reversal, settlement } = result;
      events.publish(
        'betReResolved',
        {
          betId: bet.id,
          groupId: bet.groupId,
          reResolvedBy: caller.id,
          previousAnswer: reversal.previousAnswer,
          correctAnswer: bet.correctAnswer ?? '',
          reversed: reversal.distributions,
          distributions: settlement.distributions,
          historyId: settlement.historyId,
          version: bet.version,
        },
        { groupId: bet.groupId },
      );
      return presentReadBet(db, bet, at);
    },
  };
}

/** Whoever has a wager on the bet: none of them judges its dispute. */
async function stakeholdersOf(tx: Executor, bet: BetRow): Promise<number[]> {
  return ((await loadWagers(tx, [bet.id])).get(bet.id) ?? []).map((wager) => wager.userId);
}
