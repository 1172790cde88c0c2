import { desc, eq } from 'drizzle-orm';
import { normalizeAnswer, validateCorrectAnswer } from '../../domain/bet-types';
import {
  expiryRefusal,
  type Bet,
  type BetStatistics,
  type BetUserContext,
  type CreateBetInput,
} from '../../domain/bets';
import { repeatUntilRefusal } from '../../domain/bet-repeats';
import { isBaseInTiers, stakeTiersOf } from '../../domain/stakes';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { bets, type BetRow } from '../db/schema';
import { baseNotInTiers, invalidAnswer, validationFailed } from '../errors';
import type { EventBus } from '../events';
import { requireGroupAccess } from '../groups/group-access';
import { presentMembership } from '../groups/group.presenter';
import { findActiveMembershipWithName, listActiveMemberIds } from '../groups/membership-queries';
import { findReadableBet, requireBetAction } from './bet-access';
import { presentBet, presentWager } from './bet.presenter';
import { betCreatedPayload, openBet, startRepeat } from './bet-repeats';
import { findBet, loadPicks, loadWagers, presentReadBet, statisticsOf } from './bet-queries';
import {
  announceSettlement,
  settleByRefund,
  settleByResolution,
  type Settlement,
} from './settlement.service';

// The rules of bets (docs/groups-and-bets.md §3–§7, docs/architecture.md §5): creating, reading, resolving and
// cancelling. Who may resolve or cancel is the bet policy's (bet-access.ts); the points of a
// resolution or a cancel move in settlement.service.ts, inside the same transaction as the
// state change; events are published after the commit. The rules themselves (payout, statistics, answers)
// are src/domain's.

export interface BetsServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type BetsService = ReturnType<typeof createBetsService>;

export function createBetsService({ db, events, now = () => new Date() }: BetsServiceDeps) {
  /** A settled bet as GET /bets/{id} shows it: with who picked what, since betting is closed now. */
  const presentSettled = async ({ bet, betWagers }: Settlement, at: Date): Promise<Bet> =>
    presentBet(bet, betWagers, (await loadPicks(db, [bet], at)).get(bet.id));

  async function groupBetRows(tx: Executor, caller: AuthUser, groupId: number): Promise<BetRow[]> {
    await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'read' });
    return tx
      .select()
      .from(bets)
      .where(eq(bets.groupId, groupId))
      .orderBy(desc(bets.createdAt), desc(bets.id));
  }

  return {
    /** POST /bets: a member creates an active bet in their group; its expiry must lie ahead (docs/groups-and-bets.md §5). */
    async createBet(caller: AuthUser, input: CreateBetInput): Promise<Bet> {
      const at = now();
      const refusal = expiryRefusal(input.expiresAt, at.getTime());
      if (refusal) throw validationFailed(refusal, { expiresAt: refusal });
      const untilRefusal =
        input.repeat?.until && repeatUntilRefusal(input.repeat.until, input.expiresAt);
      if (untilRefusal) throw validationFailed(untilRefusal, { 'repeat.until': untilRefusal });
      const bet = await db.transaction(async (tx) => {
        const group = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId: input.groupId,
          permission: 'createBet',
        });
        // The group's tiers as they are now: its lock holds off an admin's change until this commits.
        if (!isBaseInTiers(input.baseWagerAmount, group.stakeTiers))
          throw baseNotInTiers(stakeTiersOf(group));
        const row = (await openBet(
          tx,
          {
            groupId: input.groupId,
            title: input.title,
            description: input.description ?? null,
            betType: input.betType,
            betTypeConfig: input.betTypeConfig,
            baseWagerAmount: input.baseWagerAmount,
            expiresAt: new Date(input.expiresAt),
            createdBy: caller.id,
          },
          at,
        ))!;
        if (input.repeat) await startRepeat(tx, row, input.repeat);
        return row;
      });
      events.publish('betCreated', betCreatedPayload(bet), { groupId: bet.groupId });
      return presentBet(bet, []);
    },

    /** GET /bets/{id}, with per-answer totals; who picked what only once betting has closed. */
    async getBet(caller: AuthUser, betId: number): Promise<Bet> {
      return presentReadBet(db, await findReadableBet(db, caller.id, betId), now());
    },

    /** GET /bets/{id}/user-context: the bet, the caller's membership (null for a non-member) and their wager. */
    async getUserContext(caller: AuthUser, betId: number): Promise<BetUserContext> {
      const bet = await findReadableBet(db, caller.id, betId);
      const betWagers = (await loadWagers(db, [bet.id])).get(bet.id) ?? [];
      const member = await findActiveMembershipWithName(db, bet.groupId, caller.id);
      const own = betWagers.find((wager) => wager.userId === caller.id);
      const picks = (await loadPicks(db, [bet], now())).get(bet.id);
      return {
        bet: presentBet(bet, betWagers, picks),
        membership: member
          ? presentMembership(member.membership, member.userName, caller.id)
          : null,
        userWager: own ? presentWager(own) : null,
      };
    },

    /** GET /bets/group/{groupId}: the group's bets, newest first; who picked what on those whose betting has closed. */
    async listGroupBets(caller: AuthUser, groupId: number): Promise<Bet[]> {
      const rows = await groupBetRows(db, caller, groupId);
      const byBet = await loadWagers(
        db,
        rows.map((row) => row.id),
      );
      const picks = await loadPicks(db, rows, now());
      return rows.map((row) => presentBet(row, byBet.get(row.id), picks.get(row.id)));
    },

    /** GET /groups/{id}/bets: the same list, each bet with its statistics as the caller may see them (docs/groups-and-bets.md §7). */
    async listGroupBetsWithStatistics(
      caller: AuthUser,
      groupId: number,
    ): Promise<Array<Bet & { statistics: BetStatistics }>> {
      const rows = await groupBetRows(db, caller, groupId);
      const byBet = await loadWagers(
        db,
        rows.map((row) => row.id),
      );
      const picks = await loadPicks(db, rows, now());
      const memberIds = await listActiveMemberIds(db, groupId);
      return rows.map((row) => {
        const betWagers = byBet.get(row.id) ?? [];
        return {
          ...presentBet(row, betWagers, picks.get(row.id)),
          statistics: statisticsOf(row, betWagers, memberIds, caller.id),
        };
      });
    },

    /** GET /bets/{id}/statistics (docs/groups-and-bets.md §3): others' predictions appear only as per-answer totals. */
    async getStatistics(caller: AuthUser, betId: number): Promise<BetStatistics> {
      const bet = await findReadableBet(db, caller.id, betId);
      const betWagers = (await loadWagers(db, [bet.id])).get(bet.id) ?? [];
      const memberIds = await listActiveMemberIds(db, bet.groupId);
      return statisticsOf(bet, betWagers, memberIds, caller.id);
    },

    /**
     * PUT /bets/{id}/resolve: the creator names the correct answer, before or after expiry
     * (a current admin does once the creator has left the group, or once the bet is abandoned:
     * the bet policy).
     * One transaction locks the bet, pays every distribution of the pari-mutuel rule through
     * the ledger and marks the bet resolved, so resolving twice pays once: the second call
     * waits for the lock and then finds the bet resolved (422 already_resolved).
     */
    async resolveBet(caller: AuthUser, betId: number, correctAnswer: string): Promise<Bet> {
      const at = now();
      const settlement = await db.transaction(async (tx) => {
        const locked = await findBet(tx, betId, 'update');
        await requireBetAction(tx, { userId: caller.id, bet: locked, action: 'resolve', now: at });
        const problem = validateCorrectAnswer(locked, correctAnswer);
        if (problem) throw invalidAnswer(problem);
        const answer = normalizeAnswer(locked, correctAnswer);
        return settleByResolution(tx, locked, answer, caller.id, at);
      });
      announceSettlement(events, settlement);
      return presentSettled(settlement, at);
    },

    /** POST /bets/{id}/cancel: the creator (while a member) or a current group admin cancels an active bet; every wager is refunded. */
    async cancelBet(caller: AuthUser, betId: number): Promise<Bet> {
      const at = now();
      const settlement = await db.transaction(async (tx) => {
        const locked = await findBet(tx, betId, 'update');
        await requireBetAction(tx, { userId: caller.id, bet: locked, action: 'cancel', now: at });
        return settleByRefund(tx, locked, 'cancelled', at, caller.id);
      });
      announceSettlement(events, settlement);
      return presentSettled(settlement, at);
    },
  };
}
