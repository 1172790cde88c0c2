import { useLiveQuery } from 'dexie-react-hooks';
import type { BetStatistics } from '../../domain/bets';
import { isWageringOpen, nextActionableBet, nextBetToResolve } from '../../domain/bet-lists';
import { isAbandoned } from '../../domain/fair-resolution';
import { db, type BetRow, type HunchDb, type WagerRow } from '../data/db';

// The bet views' reads: live queries on the Dexie mirror (ARCHITECTURE.md §8), so a sync, an
// action or a socket event shows up on screen by itself. Each returns undefined while the
// first answer is pending and null when the thing is absent.

/** One bet as this device knows it. */
export function useBet(betId: number | undefined): BetRow | null | undefined {
  return useLiveQuery(
    async () => (betId === undefined ? null : ((await db.bets.get(betId)) ?? null)),
    [betId],
  );
}

/** The player's wager on a bet. */
export function useMyWager(
  betId: number | undefined,
  userId: number | undefined,
): WagerRow | null | undefined {
  return useLiveQuery(
    async () =>
      betId === undefined || userId === undefined
        ? null
        : ((await db.wagers.where('[betId+userId]').equals([betId, userId]).first()) ?? null),
    [betId, userId],
  );
}

export interface GroupBets {
  bets: BetRow[];
  /** The player's wagers in the group, by bet id. */
  wagers: Map<number, WagerRow>;
}

/** A group's bets (in no particular order: the list sorts them per tab) and the player's wagers on them. */
export function useGroupBets(
  groupId: number | undefined,
  userId: number | undefined,
): GroupBets | undefined {
  return useLiveQuery(async () => {
    if (groupId === undefined) return { bets: [], wagers: new Map() };
    const bets = await db.bets.where('groupId').equals(groupId).toArray();
    const ids = new Set(bets.map((bet) => bet.id));
    const wagers =
      userId === undefined
        ? []
        : await db.wagers
            .where('userId')
            .equals(userId)
            .filter((wager) => ids.has(wager.betId))
            .toArray();
    return { bets, wagers: new Map(wagers.map((wager) => [wager.betId, wager])) };
  }, [groupId, userId]);
}

/** The player's memberships keyed by group id, as nextActionableBet wants them. */
async function myPointsByGroup(database: HunchDb, userId: number) {
  const memberships = await database.memberships.where('userId').equals(userId).toArray();
  return Object.fromEntries(
    memberships.map((membership) => [String(membership.groupId), membership]),
  );
}

/**
 * The unwagered bets (spec 02 §4), derived from the mirror: active bets of the player's groups
 * whose wagering is open and that carry no wager of theirs.
 */
async function readUnwageredBets(
  database: HunchDb,
  userId: number,
  now: number,
): Promise<BetRow[]> {
  const points = await myPointsByGroup(database, userId);
  const wagered = new Set(
    (await database.wagers.where('userId').equals(userId).toArray()).map((wager) => wager.betId),
  );
  return (await database.bets.where('state').equals('active').toArray()).filter(
    (bet) =>
      points[String(bet.groupId)] !== undefined && !wagered.has(bet.id) && isWageringOpen(bet, now),
  );
}

/** The bet queue's head: the earliest-expiring unwagered bet the player can afford; null when none. */
export async function readNextActionableBet(
  database: HunchDb,
  userId: number,
  now: number,
): Promise<BetRow | null> {
  return nextActionableBet(
    await readUnwageredBets(database, userId, now),
    await myPointsByGroup(database, userId),
    now,
  );
}

/**
 * The resolve queue's head (spec 02 §4): the player's own bet still active that expires first,
 * or, in a group the player administers, a bet abandoned by its creator (closed a day without
 * a result: admins may resolve it too); null when none.
 */
export async function readNextBetToResolve(
  database: HunchDb,
  userId: number,
  now: number = Date.now(),
): Promise<BetRow | null> {
  const adminOf = (await database.memberships.where('userId').equals(userId).toArray())
    .filter((membership) => membership.role === 'admin' || membership.role === 'creator')
    .map((membership) => membership.groupId);
  const abandoned =
    adminOf.length === 0
      ? []
      : await database.bets
          .where('groupId')
          .anyOf(adminOf)
          .filter((bet) => bet.createdBy !== userId && isAbandoned(bet, now))
          .toArray();
  return nextBetToResolve([
    ...(await database.bets
      .where('createdBy')
      .equals(userId)
      .filter((bet) => bet.state === 'active')
      .toArray()),
    ...abandoned,
  ]);
}

/** "Your Bet Queue" (spec 02 §4) across the player's groups. */
export function useNextActionableBet(
  userId: number | undefined,
  now: number,
): BetRow | null | undefined {
  // The clock only moves the answer when a bet closes; rounding it to the minute keeps the
  // query from re-running every render.
  const minute = Math.floor(now / 60_000);
  return useLiveQuery(
    async () => (userId === undefined ? null : readNextActionableBet(db, userId, minute * 60_000)),
    [userId, minute],
  );
}

/** "Your Resolve Queue" (spec 02 §4), with the abandoned bets of the groups the player administers. */
export function useNextBetToResolve(
  userId: number | undefined,
  now: number,
): BetRow | null | undefined {
  // A bet becomes abandoned as time passes: the minute moves the answer, not every render.
  const minute = Math.floor(now / 60_000);
  return useLiveQuery(
    async () => (userId === undefined ? null : readNextBetToResolve(db, userId, minute * 60_000)),
    [userId, minute],
  );
}

/** A resolved bet's statistics from the mirror; null when none are stored. */
export function useBetStatistics(betId: number | undefined): BetStatistics | null | undefined {
  return useLiveQuery(
    async () =>
      betId === undefined ? null : ((await db.betStatistics.get(betId))?.statistics ?? null),
    [betId],
  );
}
