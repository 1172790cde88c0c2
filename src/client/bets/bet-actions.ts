import type { BetStatistics, BetUserContext, CreateBetRequest } from '../../domain/bets';
import { API_BASE } from '../../domain/constants';
import { signedOutError, type ApiClient } from '../data/api-client';
import {
  db as defaultDb,
  TEMP_IDS_KEY,
  type BetRow,
  type HunchDb,
  type WagerRow,
} from '../data/db';
import { localData as defaultLocalData, type LocalData } from '../data/local-data';
import { api as defaultApi, sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';
import {
  cancelBetMutator,
  createBetMutator,
  placeWagerMutator,
  updateWagerMutator,
  resolveBetMutator,
} from '../data/bet-mutators';

// The bet writes (docs/groups-and-bets.md §4) the screens call. Each runs a named mutator through the outbox
// (data/bet-mutators.ts, data/outbox.ts): the change shows at once in the mirror, marked pending,
// and is sent now or when the network returns (the outbox says so when it waits); the pull that
// follows brings the server's rows.
// A refusal rejects with the server's message (the screen shows it). The two loads are
// fallbacks for what the mirror does not hold yet (a link to a bet before the first sync).

export interface BetActionsDeps {
  db?: HunchDb;
  api?: ApiClient;
  session?: Pick<SessionStore, 'user'>;
  local?: Pick<LocalData, 'run' | 'outbox' | 'rebaser'>;
}

/** What cancelling said: the points refunded to everyone (the pool the bet held). */
export interface CancelResult {
  bet: BetRow;
  refundedPoints: number;
  /** Offline: the cancellation is queued and goes out when the network returns. */
  isQueued: boolean;
}

const poolOf = (bet: Pick<BetRow, 'answerTotals'> | undefined) =>
  Object.values(bet?.answerTotals ?? {}).reduce((sum, points) => sum + points, 0);

export function createBetActions({
  db = defaultDb,
  api = defaultApi,
  session = sessionStore,
  local = defaultLocalData,
}: BetActionsDeps = {}) {
  const currentUser = () => {
    const user = session.user;
    if (!user) throw signedOutError();
    return user;
  };

  return {
    /**
     * POST /bets. The bet shows at once under a temporary (negative) id, marked pending; offline
     * it resolves with that row and takes wagers at once (they are sent after it, naming the
     * server's id).
     */
    async createBet(request: CreateBetRequest): Promise<BetRow> {
      currentUser();
      const tempId = local.outbox.tempId();
      const result = await local.run(createBetMutator, { tempId, request });
      if (result.status === 'sent') return result.response;
      const pending = await db.bets.get(tempId);
      return (
        pending ?? ({ id: tempId, ...request, pendingWriteId: result.id } as unknown as BetRow)
      );
    },

    /** POST /bets/wagers, or PUT /bets/wagers/{id} when the player already has one (docs/groups-and-bets.md §4). */
    async placeWager(betId: number, prediction: string, points: number): Promise<WagerRow> {
      const user = currentUser();
      const previous = await db.wagers.where('[betId+userId]').equals([betId, user.id]).first();
      const tempId = previous ? undefined : local.outbox.tempId();
      const result = previous
        ? await local.run(updateWagerMutator, { betId, prediction, points, wagerId: previous.id })
        : await local.run(placeWagerMutator, { betId, prediction, points, tempId });
      if (result.status === 'sent') return result.response;
      const pending = await db.wagers.where('[betId+userId]').equals([betId, user.id]).first();
      return (
        pending ?? {
          id: tempId ?? previous!.id,
          betId,
          userId: user.id,
          prediction,
          points,
          createdAt: '',
          updatedAt: '',
          pendingWriteId: result.id,
        }
      );
    },

    /** PUT /bets/{id}/resolve: the bet shows resolved at once; the payout comes with the pull. */
    async resolveBet(betId: number, correctAnswer: string): Promise<BetRow> {
      currentUser();
      const result = await local.run(resolveBetMutator, { betId, correctAnswer });
      if (result.status === 'sent') return result.response;
      return (await db.bets.get(betId)) ?? ({ id: betId, pendingWriteId: result.id } as BetRow);
    },

    /** POST /bets/{id}/cancel: everyone's stake comes back; the bet shows cancelled at once. */
    async cancelBet(betId: number): Promise<CancelResult> {
      currentUser();
      const before = await db.bets.get(betId);
      const refundedPoints = poolOf(before);
      const result = await local.run(cancelBetMutator, { betId });
      if (result.status === 'sent')
        return { bet: result.response, refundedPoints, isQueued: false };
      const bet =
        (await db.bets.get(betId)) ?? ({ ...before, id: betId, state: 'cancelled' } as BetRow);
      return { bet: { ...bet, pendingWriteId: result.id }, refundedPoints, isQueued: true };
    },

    /**
     * GET /bets/{id}/user-context, for a bet the mirror does not hold (yet): the bet and the
     * player's wager are written without a version, so the next pull replaces them.
     */
    async loadBetContext(betId: number): Promise<BetUserContext> {
      const user = currentUser();
      const context = await api.get<BetUserContext>(`${API_BASE}/bets/${betId}/user-context`);
      await local.rebaser.serverWrite(user.id, async () => {
        if (!(await db.bets.get(betId))) await db.bets.put(context.bet);
        if (context.userWager && !(await db.wagers.get(context.userWager.id)))
          await db.wagers.put(context.userWager);
      });
      return context;
    },

    /** The server's id of a bet created offline (a page opened under its temporary id), once it is numbered. */
    async serverIdOf(tempId: number): Promise<number | undefined> {
      const ids = (await db.meta.get(TEMP_IDS_KEY))?.value as Record<string, number> | undefined;
      return ids?.[String(tempId)];
    },

    /** GET /bets/{id}/statistics, for a resolved bet whose statistics the mirror lacks. */
    async loadBetStatistics(betId: number): Promise<BetStatistics> {
      const user = currentUser();
      const statistics = await api.get<BetStatistics>(`${API_BASE}/bets/${betId}/statistics`);
      await local.rebaser.serverWrite(user.id, async () => {
        if (!(await db.betStatistics.get(betId))) await db.betStatistics.put({ betId, statistics });
      });
      return statistics;
    },
  };
}

const actions = createBetActions();
export const {
  createBet,
  placeWager,
  resolveBet,
  cancelBet,
  loadBetContext,
  loadBetStatistics,
  serverIdOf,
} = actions;
