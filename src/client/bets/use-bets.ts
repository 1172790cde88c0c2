import { useLiveQuery } from 'dexie-react-hooks';
import type { BetStatistics } from '../../domain/bets';
import { nextActionableBet, nextBetToResolve } from '../../domain/bet-lists';
import { db, type BetRow, type WagerRow } from '../data/db';

// The bet views' reads: live queries on the Dexie mirror (ARCHITECTURE.md §8), so a sync, an
// action or a socket event shows up on screen by itself. Each returns undefined while the
// first answer is pending and null when the thing is absent.

/** One bet as this device knows it. */
export function useBet(betId: number | undefined): BetRow | null | undefined {
  return useLiveQuery(async () => (betId === undefined ? null : ((await db.bets.get(betId)) ?? null)), [betId]);
}

/** The player's wager on a bet. */
export function useMyWager(betId: number | undefined, userId: number | undefined): WagerRow | null | undefined {
  return useLiveQuery(
    async () => (betId === undefined || userId === undefined ? null : ((await db.wagers.where('[betId+userId]').equals([betId, userId]).first()) ?? null)),
    [betId, userId],
  );
}

export interface GroupBets {
  bets: BetRow[];
  /** The player's wagers in the group, by bet id. */
  wagers: Map<number, WagerRow>;
}

/** A group's bets (in no particular order: the list sorts them per tab) and the player's wagers on them. */
export function useGroupBets(groupId: number | undefined, userId: number | undefined): GroupBets | undefined {
  return useLiveQuery(async () => {
    if (groupId === undefined) return { bets: [], wagers: new Map() };
    const bets = await db.bets.where('groupId').equals(groupId).toArray();
    const ids = new Set(bets.map((bet) => bet.id));
    const wagers = userId === undefined ? [] : await db.wagers.where('userId').equals(userId).filter((wager) => ids.has(wager.betId)).toArray();
    return { bets, wagers: new Map(wagers.map((wager) => [wager.betId, wager])) };
  }, [groupId, userId]);
}

/** The player's memberships keyed by group id, as nextActionableBet wants them. */
async function myPointsByGroup(userId: number) {
  const memberships = await db.memberships.where('userId').equals(userId).toArray();
  return Object.fromEntries(memberships.map((membership) => [String(membership.groupId), membership]));
}

/** "Your Bet Queue" (spec 02 §4): the earliest-expiring unwagered bet the player can afford, across their groups; null when none. */
export function useNextActionableBet(userId: number | undefined, now: number): BetRow | null | undefined {
  // The clock only moves the answer when a bet closes; rounding it to the minute keeps the
  // query from re-running every render.
  const minute = Math.floor(now / 60_000);
  return useLiveQuery(async () => {
    if (userId === undefined) return null;
    const unwagered = await db.bets.filter((bet) => bet.isUnwagered === true).toArray();
    return nextActionableBet(unwagered, await myPointsByGroup(userId), minute * 60_000);
  }, [userId, minute]);
}

/** "Your Resolve Queue" (spec 02 §4): the player's earliest-expiring bet awaiting resolution; null when none. */
export function useNextBetToResolve(userId: number | undefined): BetRow | null | undefined {
  return useLiveQuery(async () => {
    if (userId === undefined) return null;
    const mine = await db.bets.where('createdBy').equals(userId).filter((bet) => bet.isToResolve === true).toArray();
    return nextBetToResolve(mine);
  }, [userId]);
}

/** The cached statistics of a bet (GET /bets/{id}/statistics); null when none are stored. */
export function useBetStatistics(betId: number | undefined): BetStatistics | null | undefined {
  return useLiveQuery(async () => (betId === undefined ? null : ((await db.betStatistics.get(betId))?.statistics ?? null)), [betId]);
}
