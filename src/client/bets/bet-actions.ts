import type { Bet, BetStatistics, BetUserContext, CreateBetRequest, Wager } from '../../domain/bets';
import { API_BASE } from '../../domain/constants';
import type { Membership } from '../../domain/groups';
import { applyPointsDelta, ledgerDelta, type LedgerEvent } from '../../domain/ledger';
import { ApiError, type ApiClient } from '../data/api-client';
import { db as defaultDb, type BetRow, type HunchDb } from '../data/db';
import { createOutbox, outbox as defaultOutbox, OUTBOX_TEXT, type Outbox, type RowChange } from '../data/outbox';
import { api as defaultApi, sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';
import { toast } from '../shell/toast-store';
import { syncEngine as defaultSyncEngine, type SyncEngine } from '../data/sync-engine';

// The bet writes (spec 02 §4 "Client bet lists") and the bet loads, in one place: each calls
// the API with a fresh Idempotency-Key, then records the answer in Dexie inside
// syncEngine.applyLocal, where the views see it through their live queries. These are the
// ONLY bet writes: the outbox issue turns them into an optimistic write plus a queued request
// (reusing the same key) and the screens need not change.

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
  bet: Bet;
  refundedPoints: number;
}

export type BetActions = ReturnType<typeof createBetActions>;

const newKey = () => ({ 'Idempotency-Key': crypto.randomUUID() });

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

  /** The player's points in a group move by one ledger event (the rule of src/domain/ledger.ts). */
  const movePoints = async (groupId: number, userId: number, event: LedgerEvent) => {
    const membership = await db.memberships.get([groupId, userId]);
    if (membership) await db.memberships.put(applyPointsDelta(membership, ledgerDelta(event)));
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

  return {
    /** POST /bets. The creator's new bet joins both queues (spec 02 §4: added to unwagered; to-resolve for its creator). */
    async createBet(request: CreateBetRequest): Promise<Bet> {
      const user = currentUser();
      const bet = await api.post<Bet>(`${API_BASE}/bets`, request, { headers: newKey() });
      await syncEngine.applyLocal(async () =>
        db.bets.put(await mergeBet(bet, { isUnwagered: true, isToResolve: bet.createdBy === user.id, isListed: true })),
      );
      return bet;
    },

    /**
     * POST /bets/wagers, or PUT /bets/wagers/{id} when the player already has one. Available
     * points drop by the difference at once (spec 02 §4) and the bet leaves the bet queue;
     * the bet's answer totals follow so the odds move without a reload.
     */
    async placeWager(betId: number, prediction: string, points: number): Promise<Wager> {
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
        return optimistic;
      }
      // The fresh totals (what the server now holds, this wager included) so the odds move.
      const fresh = await api.get<Bet>(`${API_BASE}/bets/${betId}`).catch((error: unknown) => {
        console.warn(`Reloading bet ${betId} after the wager failed`, error);
        return null;
      });
      if (fresh) await syncEngine.applyLocal(async () => db.bets.put(await mergeBet(fresh, { isUnwagered: false })));
      return result.response;
    },

    /** PUT /bets/{id}/resolve. The bet leaves both queues (spec 02 §4); the payout is the server's, so the points are reloaded. */
    async resolveBet(betId: number, correctAnswer: string): Promise<Bet> {
      const bet = await api.put<Bet>(`${API_BASE}/bets/${betId}/resolve`, { correctAnswer }, { headers: newKey() });
      await syncEngine.applyLocal(async () => {
        await db.bets.put(await mergeBet(bet, { isUnwagered: false, isToResolve: false }));
        await db.betStatistics.delete(betId);
      });
      await refreshMyMembership(bet.groupId);
      return bet;
    },

    /** POST /bets/{id}/cancel: everyone's stake comes back. The player's own refund is applied at once. */
    async cancelBet(betId: number): Promise<CancelResult> {
      const user = currentUser();
      const before = await db.bets.get(betId);
      const myWager = await db.wagers.where('[betId+userId]').equals([betId, user.id]).first();
      const bet = await api.post<Bet>(`${API_BASE}/bets/${betId}/cancel`, undefined, { headers: newKey() });
      await syncEngine.applyLocal(() =>
        db.transaction('rw', [db.bets, db.memberships], async () => {
          await db.bets.put(await mergeBet(bet, { isUnwagered: false, isToResolve: false }));
          if (myWager) await movePoints(bet.groupId, user.id, { kind: 'refund', wagerAmount: myWager.points });
        }),
      );
      void syncEngine.refreshLeaderboard(bet.groupId);
      return { bet, refundedPoints: poolOf(before) };
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

    /** GET /bets/{id}/statistics, cached in Dexie so the results stay readable offline. */
    async loadBetStatistics(betId: number): Promise<BetStatistics> {
      const statistics = await api.get<BetStatistics>(`${API_BASE}/bets/${betId}/statistics`);
      await syncEngine.applyLocal(() => db.betStatistics.put({ betId, statistics, fetchedAt: Date.now() }));
      return statistics;
    },
  };
}

const actions = createBetActions();
export const { createBet, placeWager, resolveBet, cancelBet, loadBetContext, loadGroupBets, loadBetStatistics } = actions;
