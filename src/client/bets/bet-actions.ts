import { createBetRequestSchema, openBet, type Bet, type BetBasics, type BetStatistics, type BetUserContext, type CreateBetRequest, type Wager } from '../../domain/bets';
import { API_BASE } from '../../domain/constants';
import type { Membership } from '../../domain/groups';
import { applyPointsDelta, ledgerDelta, type LedgerEvent } from '../../domain/ledger';
import { ApiError, type ApiClient } from '../data/api-client';
import { db as defaultDb, type BetRow, type HunchDb, type WagerRow } from '../data/db';
import { createOutbox, outbox as defaultOutbox, OUTBOX_TEXT, type Outbox, type RowChange } from '../data/outbox';
import { api as defaultApi, sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';
import { toast } from '../shell/toast-store';
import { syncEngine as defaultSyncEngine, type SyncEngine } from '../data/sync-engine';

// The bet writes (spec 02 §4 "Client bet lists") and the bet loads, in one place. Every write
// goes through the outbox (data/outbox.ts, ARCHITECTURE.md §8): the change shows at once in
// Dexie, marked pending, and the request carries an Idempotency-Key; offline it is queued
// and sent once when the network returns, and a refusal rolls it back with the server's
// message. The loads record the server's answer inside syncEngine.applyLocal. The views see
// both through their live queries. These are the ONLY bet writes.

export interface BetActionsDeps {
  db?: HunchDb;
  api?: ApiClient;
  session?: Pick<SessionStore, 'user'>;
  syncEngine?: Pick<SyncEngine, 'applyLocal' | 'refreshLeaderboard'>;
  /** The outbox writes go through (issue 7); the app's own by default. */
  outbox?: Outbox;
}

/** A row without the outbox's pending mark (the optimistic copy gets the new write's). */
function stripMark<T extends object>(row: T & { pendingWriteId?: string }): T {
  const { pendingWriteId: _mark, ...rest } = row;
  return rest as T;
}

/** What cancelling said: the points refunded to everyone (the pool the bet held). */
export interface CancelResult {
  bet: BetRow;
  refundedPoints: number;
  /** Offline: the cancellation is queued and goes out when the network returns. */
  isQueued: boolean;
}

export type BetActions = ReturnType<typeof createBetActions>;

const poolOf = (bet: Pick<Bet, 'answerTotals'> | undefined) => Object.values(bet?.answerTotals ?? {}).reduce((sum, points) => sum + points, 0);

export function createBetActions({ db = defaultDb, api = defaultApi, session = sessionStore, syncEngine = defaultSyncEngine, outbox: givenOutbox }: BetActionsDeps = {}) {
  // The app's outbox, or one on the injected database and client (tests).
  const outbox = givenOutbox ?? (db === defaultDb && api === defaultApi ? defaultOutbox : createOutbox({ db, api, session, applyLocal: syncEngine.applyLocal }));
  const currentUser = () => {
    const user = session.user;
    if (!user) throw new ApiError(401, { message: 'Please sign in again.', code: 'unauthorized' });
    return user;
  };

  /** A bet from the server, keeping the local flags (and live totals the answer may lack). */
  const mergeBet = async (bet: Bet, flags: Partial<BetRow> = {}): Promise<BetRow> => {
    const known = await db.bets.get(bet.id);
    return { ...known, ...bet, answerTotals: bet.answerTotals ?? known?.answerTotals, ...flags };
  };

  /** After a payout or refund only the server knows the player's share: ask it, keep the guess if that fails. */
  const refreshMyMembership = async (groupId: number) => {
    try {
      const membership = await api.get<Membership>(`${API_BASE}/groups/${groupId}/membership`);
      await syncEngine.applyLocal(() => db.memberships.put(membership));
    } catch (error) {
      console.warn(`Reloading the points of group ${groupId} failed`, error);
    }
    void syncEngine.refreshLeaderboard(groupId);
  };

  /** GET /bets/{id}/statistics, cached in Dexie so the results stay readable offline. */
  const loadBetStatistics = async (betId: number): Promise<BetStatistics> => {
    const statistics = await api.get<BetStatistics>(`${API_BASE}/bets/${betId}/statistics`);
    await syncEngine.applyLocal(() => db.betStatistics.put({ betId, statistics, fetchedAt: Date.now() }));
    return statistics;
  };

  return {
    /**
     * POST /bets through the outbox. The bet shows at once under a temporary (negative) id,
     * marked pending, in both queues of its creator (spec 02 §4); the server's answer replaces
     * it. Offline, it resolves with that pending row: it takes wagers once the server numbers it.
     */
    async createBet(request: CreateBetRequest): Promise<BetRow> {
      const user = currentUser();
      const tempId = outbox.tempId();
      const now = new Date().toISOString();
      const parsed = createBetRequestSchema.safeParse(request);
      const basics = {
        id: tempId,
        title: request.title,
        description: request.description ?? null,
        betType: request.betType,
        betTypeConfig: parsed.success ? parsed.data.betTypeConfig : (request.betTypeConfig ?? {}),
        baseWagerAmount: request.baseWagerAmount,
        groupId: request.groupId,
        createdBy: user.id,
        expiresAt: request.expiresAt,
      } as BetBasics;
      const pending: BetRow = { ...openBet(basics, now), isUnwagered: true, isToResolve: true, isListed: true };
      const result = await outbox.runWrite<Bet>({
        kind: 'createBet',
        method: 'POST',
        path: `${API_BASE}/bets`,
        body: request,
        meta: { tempId },
        changes: [{ table: 'bets', key: tempId, value: pending }],
      });
      if (result.status === 'sent') return { ...result.response, isUnwagered: true, isToResolve: result.response.createdBy === user.id, isListed: true };
      toast.info(OUTBOX_TEXT.queued.createBet);
      return { ...pending, pendingWriteId: result.id };
    },

    /**
     * POST /bets/wagers, or PUT /bets/wagers/{id} when the player already has one. Available
     * points drop by the difference at once (spec 02 §4) and the bet leaves the bet queue;
     * the bet's answer totals follow so the odds move without a reload.
     */
    async placeWager(betId: number, prediction: string, points: number): Promise<WagerRow> {
      const user = currentUser();
      const previous = await db.wagers.where('[betId+userId]').equals([betId, user.id]).first();
      const known = await db.bets.get(betId);
      const membership = known ? await db.memberships.get([known.groupId, user.id]) : undefined;
      const now = new Date().toISOString();
      const tempId = previous ? undefined : outbox.tempId();
      const optimistic: Wager = previous
        ? { ...stripMark(previous), prediction, points, updatedAt: now }
        : { id: tempId!, betId, userId: user.id, prediction, points, createdAt: now, updatedAt: now };
      // Issue 7: the wager, the bet leaving the queue and the points show at once, marked pending.
      const changes: RowChange[] = [{ table: 'wagers', key: optimistic.id, value: optimistic }];
      if (known) changes.push({ table: 'bets', key: betId, value: { ...stripMark(known), isUnwagered: false } });
      if (known && membership) {
        const event: LedgerEvent = previous ? { kind: 'wager_changed', previousPoints: previous.points, points } : { kind: 'wager_placed', points };
        changes.push({ table: 'memberships', key: [known.groupId, user.id], value: applyPointsDelta(stripMark(membership), ledgerDelta(event)) });
      }
      const result = await outbox.runWrite<Wager>(
        previous
          ? { kind: 'updateWager', method: 'PUT', path: `${API_BASE}/bets/wagers/${previous.id}`, body: { prediction, points }, changes }
          : { kind: 'placeWager', method: 'POST', path: `${API_BASE}/bets/wagers`, body: { betId, prediction, points }, changes, meta: { tempId } },
      );
      if (result.status === 'queued') {
        toast.info(OUTBOX_TEXT.queued.placeWager);
        return { ...optimistic, pendingWriteId: result.id };
      }
      // The fresh totals (what the server now holds, this wager included) so the odds move.
      const fresh = await api.get<Bet>(`${API_BASE}/bets/${betId}`).catch((error: unknown) => {
        console.warn(`Reloading bet ${betId} after the wager failed`, error);
        return null;
      });
      if (fresh) await syncEngine.applyLocal(async () => db.bets.put(await mergeBet(fresh, { isUnwagered: false })));
      return result.response;
    },

    /**
     * PUT /bets/{id}/resolve through the outbox. The bet leaves both queues at once, resolved
     * and marked pending (spec 02 §4); the payout is the server's, so the points are reloaded
     * once it answers. Offline, it resolves with the pending row (`pendingWriteId` set).
     */
    async resolveBet(betId: number, correctAnswer: string): Promise<BetRow> {
      const user = currentUser();
      const known = await db.bets.get(betId);
      const now = new Date().toISOString();
      const resolved: BetRow | undefined = known && {
        ...stripMark(known),
        state: 'resolved',
        correctAnswer,
        resolvedAt: now,
        resolvedBy: user.id,
        updatedAt: now,
        isUnwagered: false,
        isToResolve: false,
      };
      const result = await outbox.runWrite<Bet>({
        kind: 'resolveBet',
        method: 'PUT',
        path: `${API_BASE}/bets/${betId}/resolve`,
        body: { correctAnswer },
        changes: resolved ? [{ table: 'bets', key: betId, value: resolved }] : [],
      });
      if (result.status === 'queued') {
        toast.info(OUTBOX_TEXT.queued.resolveBet);
        return { ...(resolved ?? ({ id: betId } as BetRow)), pendingWriteId: result.id };
      }
      const bet = result.response;
      await syncEngine.applyLocal(async () => db.bets.put(await mergeBet(bet, { isUnwagered: false, isToResolve: false })));
      // The cached statistics predate the result: replace them (the results panel reads them).
      await loadBetStatistics(betId).catch(async (error: unknown) => {
        console.warn(`Reloading the statistics of bet ${betId} after resolving failed`, error);
        await syncEngine.applyLocal(() => db.betStatistics.delete(betId));
      });
      await refreshMyMembership(bet.groupId);
      return bet;
    },

    /**
     * POST /bets/{id}/cancel through the outbox: everyone's stake comes back. The bet shows
     * cancelled and the player's own refund is applied at once, marked pending.
     */
    async cancelBet(betId: number): Promise<CancelResult> {
      const user = currentUser();
      const before = await db.bets.get(betId);
      const myWager = await db.wagers.where('[betId+userId]').equals([betId, user.id]).first();
      const membership = before ? await db.memberships.get([before.groupId, user.id]) : undefined;
      const changes: RowChange[] = [];
      if (before) {
        changes.push({ table: 'bets', key: betId, value: { ...stripMark(before), state: 'cancelled', isUnwagered: false, isToResolve: false } });
        if (myWager && membership) {
          const refunded = applyPointsDelta(stripMark(membership), ledgerDelta({ kind: 'refund', wagerAmount: myWager.points }));
          changes.push({ table: 'memberships', key: [before.groupId, user.id], value: refunded });
        }
      }
      const result = await outbox.runWrite<Bet>({ kind: 'cancelBet', method: 'POST', path: `${API_BASE}/bets/${betId}/cancel`, changes });
      const refundedPoints = poolOf(before);
      if (result.status === 'queued') {
        toast.info(OUTBOX_TEXT.queued.cancelBet);
        return { bet: { ...(before ?? ({ id: betId } as BetRow)), state: 'cancelled', pendingWriteId: result.id }, refundedPoints, isQueued: true };
      }
      const bet = result.response;
      await syncEngine.applyLocal(async () => db.bets.put(await mergeBet(bet, { isUnwagered: false, isToResolve: false })));
      void syncEngine.refreshLeaderboard(bet.groupId);
      return { bet, refundedPoints, isQueued: false };
    },

    /**
     * GET /bets/{id}/user-context into Dexie: the bet, the player's wager (or its absence) and
     * membership (their points, so the header is right after a payout they missed live).
     */
    async loadBetContext(betId: number): Promise<BetUserContext> {
      const user = currentUser();
      const context = await api.get<BetUserContext>(`${API_BASE}/bets/${betId}/user-context`);
      await syncEngine.applyLocal(() =>
        db.transaction('rw', [db.bets, db.wagers, db.memberships], async () => {
          await db.bets.put(await mergeBet(context.bet, { isListed: true }));
          await db.wagers.where('[betId+userId]').equals([betId, user.id]).delete();
          if (context.userWager) await db.wagers.put(context.userWager);
          if (context.membership && context.membership.userId === user.id) await db.memberships.put(context.membership);
        }),
      );
      return context;
    },

    /** GET /groups/{id}/bets (with statistics) and the player's wagers there (a failure of those counts as none, spec 02 §8). */
    async loadGroupBets(groupId: number): Promise<void> {
      const user = currentUser();
      const [bets, wagers] = await Promise.all([
        api.get<Array<Bet & { statistics?: BetStatistics }>>(`${API_BASE}/groups/${groupId}/bets`),
        api.get<Wager[]>(`${API_BASE}/bets/user/wagers?group=${groupId}`).catch((error: unknown) => {
          console.warn(`Loading my wagers in group ${groupId} failed`, error);
          return null;
        }),
      ]);
      const fetchedAt = Date.now();
      await syncEngine.applyLocal(() =>
        db.transaction('rw', [db.bets, db.wagers, db.betStatistics], async () => {
          const rows = await Promise.all(bets.map(({ statistics: _statistics, ...bet }) => mergeBet(bet, { isListed: true })));
          const listed = new Set(rows.map((row) => row.id));
          // A bet the server no longer lists for this group (deleted) goes, unless a queue still names it.
          const gone = await db.bets.where('groupId').equals(groupId).filter((row) => !listed.has(row.id) && !row.isUnwagered && !row.isToResolve).primaryKeys();
          await db.bets.bulkDelete(gone);
          await db.bets.bulkPut(rows);
          await db.betStatistics.bulkPut(bets.filter((bet) => bet.statistics).map((bet) => ({ betId: bet.id, statistics: bet.statistics!, fetchedAt })));
          if (wagers) {
            const mine = wagers.filter((wager) => wager.userId === user.id);
            const stale = await db.wagers.where('userId').equals(user.id).filter((wager) => listed.has(wager.betId)).primaryKeys();
            await db.wagers.bulkDelete(stale);
            await db.wagers.bulkPut(mine);
          }
        }),
      );
    },

    loadBetStatistics,
  };
}

const actions = createBetActions();
export const { createBet, placeWager, resolveBet, cancelBet, loadBetContext, loadGroupBets, loadBetStatistics } = actions;
