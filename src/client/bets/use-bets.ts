import { useLiveQuery } from 'dexie-react-hooks';
import type { BetStatistics } from '../../domain/bets';
import {
  isWageringOpen,
  nextActionableBet,
  nextBetToResolve,
  openBets,
} from '../../domain/bet-lists';
import { db, type BetRow, type HunchDb, type WagerRow } from '../data/db';
import { mirrorPolicy } from './mirror-policy';
import { readCommentCounts } from './use-comments';

// The bet views' reads: live queries on the Dexie mirror (docs/architecture.md §8), so a sync, an
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
 * The unwagered bets (docs/groups-and-bets.md §4), derived from the mirror: active bets of the player's groups
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
 * The resolve queue's head (docs/groups-and-bets.md §4): among the active bets of the player's groups, those
 * the bet policy lets them settle (their own; as an admin, those whose creator left or that
 * closed a day ago without a result) that expires first; null when none.
 */
export async function readNextBetToResolve(
  database: HunchDb,
  userId: number,
  now: number = Date.now(),
): Promise<BetRow | null> {
  const memberships = await database.memberships.where('userId').equals(userId).toArray();
  const groupIds = memberships.map((membership) => membership.groupId);
  if (groupIds.length === 0) return null;
  const groups = new Map(
    (await database.groups.bulkGet(groupIds)).flatMap((group) =>
      group ? [[group.id, group]] : [],
    ),
  );
  const byGroup = new Map(memberships.map((membership) => [membership.groupId, membership]));
  const active = await database.bets
    .where('groupId')
    .anyOf(groupIds)
    .filter((bet) => bet.state === 'active')
    .toArray();
  return nextBetToResolve(
    active.filter(
      (bet) =>
        mirrorPolicy(
          bet,
          {
            userId,
            membership: byGroup.get(bet.groupId),
            group: groups.get(bet.groupId),
            hasWagered: false,
          },
          now,
        ).resolve.allowed,
    ),
  );
}

/** "Your Bet Queue" (docs/groups-and-bets.md §4) across the player's groups. */
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

/** "Your Resolve Queue" (docs/groups-and-bets.md §4), with the abandoned bets of the groups the player administers. */
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

/** An open bet as the dashboard lists it: with its group's name and the player's wager, if any. */
export interface OpenBet {
  bet: BetRow;
  groupName: string;
  wager: WagerRow | undefined;
  commentCount: number;
}

/**
 * Every bet still taking wagers in the player's groups, soonest close first (the domain's
 * openBets): wagered on or not, affordable or not, so a wager never hides the others.
 */
export async function readOpenBets(
  database: HunchDb,
  userId: number,
  now: number,
): Promise<OpenBet[]> {
  const groupIds = (await database.memberships.where('userId').equals(userId).toArray()).map(
    (membership) => membership.groupId,
  );
  if (groupIds.length === 0) return [];
  const bets = openBets(
    await database.bets
      .where('groupId')
      .anyOf(groupIds)
      .filter((bet) => bet.state === 'active')
      .toArray(),
    now,
  );
  const groups = await database.groups.bulkGet(groupIds);
  const names = new Map(groups.flatMap((group) => (group ? [[group.id, group.name]] : [])));
  const wagers = new Map(
    (await database.wagers.where('userId').equals(userId).toArray()).map((wager) => [
      wager.betId,
      wager,
    ]),
  );
  // Every card's comment count in this one read: a live query per card cost the dashboard's
  // first draw a query each (tests/perf cold-start).
  const commentCounts = await readCommentCounts(database, groupIds);
  return bets.map((bet) => ({
    bet,
    groupName: names.get(bet.groupId) ?? '',
    wager: wagers.get(bet.id),
    commentCount: commentCounts.get(bet.id) ?? 0,
  }));
}

/** What is open across the player's groups, live from the mirror (re-read each minute as bets close). */
export function useOpenBets(userId: number | undefined, now: number): OpenBet[] | undefined {
  const minute = Math.floor(now / 60_000);
  return useLiveQuery(
    async () => (userId === undefined ? [] : readOpenBets(db, userId, minute * 60_000)),
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
