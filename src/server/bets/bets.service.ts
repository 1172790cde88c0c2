import { and, asc, desc, eq, gt, inArray, notExists, sql } from 'drizzle-orm';
import { BET_MESSAGES } from '../../domain/bet-limits';
import { normalizeAnswer, validateCorrectAnswer } from '../../domain/bet-types';
import {
  isExpiryInFuture,
  type Bet,
  type BetStatistics,
  type BetUserContext,
  type CreateBetInput,
} from '../../domain/bets';
import { computeBetStatistics } from '../../domain/bet-statistics';
import { distributionEvent } from '../../domain/ledger';
import { computeResolution, refunds, type Distribution } from '../../domain/payout';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { prepared } from '../db/prepared';
import { bets, wagers, type BetRow, type WagerRow } from '../db/schema';
import {
  alreadyResolved,
  betNotActive,
  betNotFound,
  cannotCancelBet,
  invalidAnswer,
  notBetCreator,
  notFound,
  notMember,
  validationFailed,
} from '../errors';
import type { EventBus } from '../events';
import { presentMembership } from '../groups/group.presenter';
import {
  applyLedgerEvent,
  findActiveMembership,
  findActiveMembershipWithName,
  findGroupAccess,
  listActiveMemberIds,
  requireActiveMembership,
} from '../groups/membership.service';
import { presentBet, presentWager, toPayoutWager } from './bet.presenter';

// The rules of bets (spec 02 §3–§7, ARCHITECTURE.md §5): creating, reading, resolving and
// cancelling, plus the settle-by-refund step the expiry job shares. Points move only through
// applyLedgerEvent, inside the same transaction as the state change; events are published
// after the commit. The rules themselves (payout, statistics, answers) are src/domain's.

export interface BetsServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type BetsService = ReturnType<typeof createBetsService>;

/** What a settlement by refund did, for the events after the commit. */
export interface RefundSettlement {
  bet: BetRow;
  totalRefunded: number;
  refundedParticipants: number;
}

// ---- shared steps (wagers.service.ts and the expiry job use them too) ----

/**
 * The bet row; `lock` takes a row lock for the rest of the transaction. Wagers take `wager`
 * (FOR NO KEY UPDATE: wagers on one bet run one after another, since each stamps the bet's
 * version with its new totals, and foreign keys to the bet are not blocked), settling takes
 * `update`, so a wager never lands on a bet being resolved and a resolution never misses a
 * committed wager.
 */
// Hot on every wager (prepared once, see db/prepared.ts).
const betById = (tx: Executor) =>
  tx
    .select()
    .from(bets)
    .where(eq(bets.id, sql.placeholder('id')))
    .limit(1);
const findBetStatements = {
  none: prepared<BetRow[], { id: number }>('findBet', (tx) => betById(tx)),
  wager: prepared<BetRow[], { id: number }>('findBetForWager', (tx) =>
    betById(tx).for('no key update'),
  ),
  update: prepared<BetRow[], { id: number }>('findBetForUpdate', (tx) => betById(tx).for('update')),
};
const wagersOfBet = prepared<WagerRow[], { betId: number }>('wagersOfBet', (tx) =>
  tx
    .select()
    .from(wagers)
    .where(eq(wagers.betId, sql.placeholder('betId')))
    .orderBy(asc(wagers.createdAt), asc(wagers.id)),
);

// The member state's bets: every app start and reconnect (prepared once).
const unwageredBets = prepared<BetRow[], { groupIds: number[]; at: string; userId: number }>(
  'memberStateUnwagered',
  (tx) =>
    tx
      .select()
      .from(bets)
      .where(
        and(
          sql`${bets.groupId} = any(${sql.placeholder('groupIds')}::integer[])`,
          eq(bets.state, 'active'),
          gt(bets.expiresAt, sql.placeholder('at')),
          notExists(
            tx
              .select({ id: wagers.id })
              .from(wagers)
              .where(and(eq(wagers.betId, bets.id), eq(wagers.userId, sql.placeholder('userId')))),
          ),
        ),
      )
      .orderBy(asc(bets.expiresAt), asc(bets.id)),
);
// Only in the caller's current groups: a creator who left or was removed settles nothing there.
const betsToResolve = prepared<BetRow[], { userId: number; groupIds: number[] }>(
  'memberStateToResolve',
  (tx) =>
    tx
      .select()
      .from(bets)
      .where(
        and(
          eq(bets.createdBy, sql.placeholder('userId')),
          sql`${bets.groupId} = any(${sql.placeholder('groupIds')}::integer[])`,
          eq(bets.state, 'active'),
        ),
      )
      .orderBy(asc(bets.expiresAt), asc(bets.id)),
);

export async function findBet(
  tx: Executor,
  betId: number,
  lock?: 'wager' | 'update',
): Promise<BetRow> {
  const [row] = await findBetStatements[lock ?? 'none'](tx, { id: betId });
  if (!row) throw betNotFound();
  return row;
}

/** Every wager of the given bets, by bet id, in wager order (created, then id). */
export async function loadWagers(
  tx: Executor,
  betIds: readonly number[],
): Promise<Map<number, WagerRow[]>> {
  const byBet = new Map<number, WagerRow[]>(betIds.map((id) => [id, []]));
  if (betIds.length === 0) return byBet;
  if (betIds.length === 1) {
    byBet.set(betIds[0]!, await wagersOfBet(tx, { betId: betIds[0]! }));
    return byBet;
  }
  const rows = await tx
    .select()
    .from(wagers)
    .where(inArray(wagers.betId, [...betIds]))
    .orderBy(asc(wagers.createdAt), asc(wagers.id));
  for (const row of rows) byBet.get(row.betId)?.push(row);
  return byBet;
}

/**
 * Refunds every wager of a locked, active bet in full and moves it to `state` (cancelled or
 * expired), in the caller's transaction (ARCHITECTURE.md §5: cancel and expiry refund).
 */
export async function settleByRefund(
  tx: Executor,
  bet: BetRow,
  state: 'cancelled' | 'expired',
  at: Date,
): Promise<RefundSettlement> {
  const betWagers = (await loadWagers(tx, [bet.id])).get(bet.id) ?? [];
  const wagerIdByUser = new Map(betWagers.map((wager) => [wager.userId, wager.id]));
  const distributions = refunds(betWagers.map(toPayoutWager));
  for (const distribution of distributions) {
    await applyLedgerEvent(tx, {
      groupId: bet.groupId,
      userId: distribution.userId,
      event: distributionEvent(distribution, true),
      betId: bet.id,
      wagerId: wagerIdByUser.get(distribution.userId) ?? null,
      now: at,
    });
  }
  const [updated] = await tx
    .update(bets)
    .set({ state, updatedAt: at })
    .where(eq(bets.id, bet.id))
    .returning();
  return {
    bet: updated!,
    totalRefunded: distributions.reduce((sum, entry) => sum + entry.winnings, 0),
    refundedParticipants: distributions.length,
  };
}

/** After the commit: the points came back to everyone who had wagered (no event when nobody had). */
export function announceRefund(events: EventBus, settlement: RefundSettlement): void {
  if (settlement.refundedParticipants === 0) return;
  const { bet } = settlement;
  events.publish(
    'pointsRefunded',
    {
      betId: bet.id,
      groupId: bet.groupId,
      totalRefunded: settlement.totalRefunded,
      refundedParticipants: settlement.refundedParticipants,
    },
    { groupId: bet.groupId },
  );
}

/**
 * The groups' read rule applied to a bet: members of its group, or any signed-in user when
 * the group is public (spec 02 §6); returns the caller's membership, if any.
 */
export async function assertCanReadGroup(tx: Executor, groupId: number, userId: number) {
  const access = await findGroupAccess(tx, groupId, userId);
  if (!access) throw notFound('Group');
  if (!access.membership && access.privacy !== 'public') throw notMember();
  return access.membership;
}

/**
 * Who may settle a locked bet. Only a current member acts in a group: its creator, once gone
 * (left or removed), resolves and cancels nothing there (403 not_member). Cancelling is the
 * creator's or a current admin's; resolving is the creator's, or a current admin's once the
 * creator is gone, so a departed creator's bets do not wait for the expiry job.
 */
async function assertCanSettle(
  tx: Executor,
  bet: BetRow,
  callerId: number,
  action: 'resolve' | 'cancel',
): Promise<void> {
  const membership = await findActiveMembership(tx, bet.groupId, callerId);
  if (bet.createdBy === callerId) {
    if (!membership) throw notMember();
    return;
  }
  const isAdmin = membership?.role === 'admin';
  if (action === 'cancel') {
    if (!isAdmin) throw cannotCancelBet();
    return;
  }
  if (isAdmin && !(await findActiveMembership(tx, bet.groupId, bet.createdBy))) return;
  throw notBetCreator();
}

/**
 * A bet's statistics as `viewerId` may see them. A resolved bet counts the members it had when
 * it was resolved; any other the group's members now (`currentMembers`).
 */
export function statisticsOf(
  bet: BetRow,
  betWagers: readonly WagerRow[],
  currentMembers: number,
  viewerId: number,
): BetStatistics {
  const totalMembers =
    bet.state === 'resolved' && bet.membersAtResolution !== null
      ? bet.membersAtResolution
      : currentMembers;
  return computeBetStatistics({
    bet,
    wagers: betWagers.map(toPayoutWager),
    totalMembers,
    viewerId,
  });
}

export function createBetsService({ db, events, now = () => new Date() }: BetsServiceDeps) {
  async function readableBet(tx: Executor, caller: AuthUser, betId: number): Promise<BetRow> {
    const bet = await findBet(tx, betId);
    await assertCanReadGroup(tx, bet.groupId, caller.id);
    return bet;
  }

  async function groupBetRows(tx: Executor, caller: AuthUser, groupId: number): Promise<BetRow[]> {
    await assertCanReadGroup(tx, groupId, caller.id);
    return tx
      .select()
      .from(bets)
      .where(eq(bets.groupId, groupId))
      .orderBy(desc(bets.createdAt), desc(bets.id));
  }

  return {
    /** POST /bets: a member creates an active bet in their group; its expiry must lie ahead (spec 02 §5). */
    async createBet(caller: AuthUser, input: CreateBetInput): Promise<Bet> {
      const at = now();
      if (!isExpiryInFuture(input.expiresAt, at.getTime())) {
        throw validationFailed(BET_MESSAGES.expiryInPast, { expiresAt: BET_MESSAGES.expiryInPast });
      }
      const bet = await db.transaction(async (tx) => {
        if (!(await findGroupAccess(tx, input.groupId, caller.id))) throw notFound('Group');
        await requireActiveMembership(tx, input.groupId, caller.id);
        const [row] = await tx
          .insert(bets)
          .values({
            groupId: input.groupId,
            title: input.title,
            description: input.description ?? null,
            betType: input.betType,
            betTypeConfig: input.betTypeConfig,
            baseWagerAmount: input.baseWagerAmount,
            state: 'active',
            expiresAt: new Date(input.expiresAt),
            createdBy: caller.id,
            createdAt: at,
            updatedAt: at,
          })
          .returning();
        return row!;
      });
      events.publish(
        'betCreated',
        {
          betId: bet.id,
          title: bet.title,
          betType: bet.betType,
          betTypeConfig: bet.betTypeConfig,
          baseWagerAmount: bet.baseWagerAmount,
          createdBy: bet.createdBy,
          expiresAt: bet.expiresAt.toISOString(),
          groupId: bet.groupId,
          version: bet.version,
        },
        { groupId: bet.groupId },
      );
      return presentBet(bet, []);
    },

    /** GET /bets/{id}, with per-answer totals (never individual predictions). */
    async getBet(caller: AuthUser, betId: number): Promise<Bet> {
      const bet = await readableBet(db, caller, betId);
      return presentBet(bet, (await loadWagers(db, [bet.id])).get(bet.id));
    },

    /** GET /bets/{id}/user-context: the bet, the caller's membership (null for a non-member) and their wager. */
    async getUserContext(caller: AuthUser, betId: number): Promise<BetUserContext> {
      const bet = await readableBet(db, caller, betId);
      const betWagers = (await loadWagers(db, [bet.id])).get(bet.id) ?? [];
      const member = await findActiveMembershipWithName(db, bet.groupId, caller.id);
      const own = betWagers.find((wager) => wager.userId === caller.id);
      return {
        bet: presentBet(bet, betWagers),
        membership: member ? presentMembership(member.membership, member.userName) : null,
        userWager: own ? presentWager(own) : null,
      };
    },

    /** GET /bets/group/{groupId}: the group's bets, newest first. */
    async listGroupBets(caller: AuthUser, groupId: number): Promise<Bet[]> {
      const rows = await groupBetRows(db, caller, groupId);
      const byBet = await loadWagers(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => presentBet(row, byBet.get(row.id)));
    },

    /** GET /groups/{id}/bets: the same list, each bet with its statistics as the caller may see them (spec 02 §7). */
    async listGroupBetsWithStatistics(
      caller: AuthUser,
      groupId: number,
    ): Promise<Array<Bet & { statistics: BetStatistics }>> {
      const rows = await groupBetRows(db, caller, groupId);
      const byBet = await loadWagers(
        db,
        rows.map((row) => row.id),
      );
      const totalMembers = (await listActiveMemberIds(db, groupId)).length;
      return rows.map((row) => {
        const betWagers = byBet.get(row.id) ?? [];
        return {
          ...presentBet(row, betWagers),
          statistics: statisticsOf(row, betWagers, totalMembers, caller.id),
        };
      });
    },

    /** GET /bets/{id}/statistics (spec 02 §3): others' predictions appear only as per-answer totals. */
    async getStatistics(caller: AuthUser, betId: number): Promise<BetStatistics> {
      const bet = await readableBet(db, caller, betId);
      const betWagers = (await loadWagers(db, [bet.id])).get(bet.id) ?? [];
      const totalMembers = (await listActiveMemberIds(db, bet.groupId)).length;
      return statisticsOf(bet, betWagers, totalMembers, caller.id);
    },

    /**
     * PUT /bets/{id}/resolve: the creator names the correct answer, before or after expiry
     * (a current admin does once the creator has left the group: assertCanSettle).
     * One transaction locks the bet, pays every distribution of the pari-mutuel rule through
     * the ledger and marks the bet resolved, so resolving twice pays once: the second call
     * waits for the lock and then finds the bet resolved (422 already_resolved).
     */
    async resolveBet(caller: AuthUser, betId: number, correctAnswer: string): Promise<Bet> {
      const at = now();
      const { bet, distributions, refunded, betWagers } = await db.transaction(async (tx) => {
        const locked = await findBet(tx, betId, 'update');
        await assertCanSettle(tx, locked, caller.id, 'resolve');
        if (locked.state === 'resolved') throw alreadyResolved();
        if (locked.state !== 'active') throw betNotActive(locked.state);
        const problem = validateCorrectAnswer(locked, correctAnswer);
        if (problem) throw invalidAnswer(problem);
        const answer = normalizeAnswer(locked, correctAnswer);
        const betWagers = (await loadWagers(tx, [locked.id])).get(locked.id) ?? [];
        const resolution = computeResolution(locked, betWagers.map(toPayoutWager), answer);
        const refunded = resolution.outcome === 'refunded';
        const wagerIdByUser = new Map(betWagers.map((wager) => [wager.userId, wager.id]));
        for (const distribution of resolution.distributions) {
          await applyLedgerEvent(tx, {
            groupId: locked.groupId,
            userId: distribution.userId,
            event: distributionEvent(distribution, refunded),
            betId: locked.id,
            wagerId: wagerIdByUser.get(distribution.userId) ?? null,
            now: at,
          });
        }
        const [updated] = await tx
          .update(bets)
          .set({
            state: 'resolved',
            correctAnswer: answer,
            resolvedAt: at,
            resolvedBy: caller.id,
            updatedAt: at,
            membersAtResolution: (await listActiveMemberIds(tx, locked.groupId)).length,
          })
          .where(eq(bets.id, locked.id))
          .returning();
        return {
          bet: updated!,
          distributions: resolution.distributions as Distribution[],
          refunded,
          betWagers,
        };
      });
      events.publish(
        'betResolved',
        { betId: bet.id, groupId: bet.groupId, distributions, version: bet.version },
        { groupId: bet.groupId },
      );
      if (refunded) {
        announceRefund(events, {
          bet,
          totalRefunded: distributions.reduce((sum, entry) => sum + entry.winnings, 0),
          refundedParticipants: distributions.length,
        });
      }
      return presentBet(bet, betWagers);
    },

    /** POST /bets/{id}/cancel: the creator (while a member) or a current group admin cancels an active bet; every wager is refunded. */
    async cancelBet(caller: AuthUser, betId: number): Promise<Bet> {
      const at = now();
      const settlement = await db.transaction(async (tx) => {
        const locked = await findBet(tx, betId, 'update');
        await assertCanSettle(tx, locked, caller.id, 'cancel');
        if (locked.state === 'resolved') throw alreadyResolved();
        if (locked.state !== 'active') throw betNotActive(locked.state);
        return settleByRefund(tx, locked, 'cancelled', at);
      });
      const { bet } = settlement;
      events.publish(
        'betCancelled',
        {
          betId: bet.id,
          groupId: bet.groupId,
          totalPointsRefunded: settlement.totalRefunded,
          version: bet.version,
        },
        { groupId: bet.groupId },
      );
      announceRefund(events, settlement);
      return presentBet(bet, (await loadWagers(db, [bet.id])).get(bet.id));
    },

    /**
     * The bet maps of GET /member/state: unwagered = active bets of the caller's current
     * groups whose wagering is still open and that the caller has not wagered on;
     * to resolve = every active bet the caller created in those groups, whatever its expiry
     * (they resolve it after it closes).
     */
    async memberStateBets(
      userId: number,
      groupIds: readonly number[],
    ): Promise<{ unwageredBets: Record<string, Bet>; betsToResolve: Record<string, Bet> }> {
      const at = now();
      const unwagered =
        groupIds.length === 0
          ? []
          : await unwageredBets(db, { groupIds: [...groupIds], at: at.toISOString(), userId });
      const toResolve =
        groupIds.length === 0 ? [] : await betsToResolve(db, { userId, groupIds: [...groupIds] });
      return {
        unwageredBets: Object.fromEntries(
          unwagered.map((row) => [String(row.id), presentBet(row)]),
        ),
        betsToResolve: Object.fromEntries(
          toResolve.map((row) => [String(row.id), presentBet(row)]),
        ),
      };
    },
  };
}
