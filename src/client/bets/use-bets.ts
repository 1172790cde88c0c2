import { Dexie } from 'dexie';
import { isAdminRole } from '../../domain/policies/group-policy';
import { useLiveQuery } from 'dexie-react-hooks';
import { isPoolBet } from '../../domain/bet-types';
import type { BetStatistics } from '../../domain/bets';
import {
  isWageringOpen,
  nextActionableBet,
  nextBetToResolve,
  openBets,
} from '../../domain/bet-lists';
import { ABANDONED_AFTER_MS } from '../../domain/fair-resolution';
import { db, type BetRow, type GroupRow, type HunchDb, type WagerRow } from '../data/db';
import { mirrorRole } from '../groups/use-groups';
import { mirrorPolicy } from './mirror-policy';
import { readCommentCountsOfBets } from './use-comments';

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
    // A tipping round's matches are its round's, not the bet lists' (isPoolBet).
    const bets = await db.bets.where('groupId').equals(groupId).filter(isPoolBet).toArray();
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

// The dashboard's reads walk the active bets by close time (the `[state+expiresAt]` index) and
// stop at what they need, so their cost follows what is shown, not how many bets the mirror
// holds: a player in fifty busy groups has tens of thousands, and a first sync re-runs every
// live query after each page it writes. The index's order is the active list's order
// (expiresAt, then id) for the ISO times the server and the mutators write.

/** Active bets closing after `from` (ms), soonest first; a tipping round's matches are not among them (isPoolBet). */
function activeBetsClosingAfter(database: HunchDb, from: number) {
  return database.bets
    .where('[state+expiresAt]')
    .between(['active', new Date(from).toISOString()], ['active', Dexie.maxKey], false, true)
    .filter(isPoolBet);
}

/** The bet queue's head (docs/groups-and-bets.md §4): the earliest-expiring unwagered bet the player can afford; null when none. */
export async function readNextActionableBet(
  database: HunchDb,
  userId: number,
  now: number,
): Promise<BetRow | null> {
  const points = await myPointsByGroup(database, userId);
  const wagered = new Set(
    (await database.wagers.where('userId').equals(userId).toArray()).map((wager) => wager.betId),
  );
  // The first bet the domain's rule would pick on its own is the head.
  const head = await activeBetsClosingAfter(database, now)
    .filter((bet) => !wagered.has(bet.id) && nextActionableBet([bet], points, now) !== null)
    .first();
  return head ?? null;
}

/**
 * The active bets `userId` might settle: their own, and in the groups they administer, the
 * abandoned ones and those of creators no longer members. A superset: the bet policy decides.
 */
async function readResolveCandidates(
  database: HunchDb,
  userId: number,
  groups: Map<number, GroupRow>,
  adminGroupIds: readonly number[],
  now: number,
): Promise<BetRow[]> {
  const own = await database.bets
    .where('createdBy')
    .equals(userId)
    .filter((bet) => bet.state === 'active')
    .toArray();
  if (adminGroupIds.length === 0) return own;
  const administered = new Set(adminGroupIds);
  const abandoned = await database.bets
    .where('[state+expiresAt]')
    .between(
      ['active', Dexie.minKey],
      ['active', new Date(now - ABANDONED_AFTER_MS).toISOString()],
      true,
      true,
    )
    .filter((bet) => administered.has(bet.groupId))
    .toArray();
  // Each group's creators are read as distinct keys: a step per creator, not per bet.
  const departed: BetRow[] = [];
  for (const groupId of adminGroupIds) {
    const group = groups.get(groupId);
    if (!group?.memberUserIds) continue;
    const members = new Set([...group.memberUserIds, ...(group.admins ?? [])]);
    const creators = (await database.bets
      .where('[groupId+createdBy]')
      .between([groupId, Dexie.minKey], [groupId, Dexie.maxKey])
      .uniqueKeys()) as unknown as [number, number][];
    for (const [, creatorId] of creators) {
      if (members.has(creatorId)) continue;
      departed.push(
        ...(await database.bets
          .where('[groupId+createdBy]')
          .equals([groupId, creatorId])
          .filter((bet) => bet.state === 'active')
          .toArray()),
      );
    }
  }
  return [...own, ...abandoned, ...departed];
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
  if (memberships.length === 0) return null;
  const groups = new Map(
    (await database.groups.bulkGet(memberships.map((membership) => membership.groupId))).flatMap(
      (group) => (group ? [[group.id, group]] : []),
    ),
  );
  const byGroup = new Map(memberships.map((membership) => [membership.groupId, membership]));
  const adminGroupIds = memberships
    .filter((membership) =>
      isAdminRole(mirrorRole({ userId, membership, group: groups.get(membership.groupId) })),
    )
    .map((membership) => membership.groupId);
  const candidates = await readResolveCandidates(database, userId, groups, adminGroupIds, now);
  return nextBetToResolve(
    candidates.filter(
      (bet) =>
        isPoolBet(bet) &&
        byGroup.has(bet.groupId) &&
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

/**
 * An open bet as the dashboard lists it: with its group's name as it is now (empty while the
 * player is in one group only) and the player's wager, if any.
 */
export interface OpenBet {
  bet: BetRow;
  groupName: string;
  wager: WagerRow | undefined;
  commentCount: number;
}

/**
 * The first `limit` bets still taking wagers in the player's groups, soonest close first (the
 * domain's openBets order): wagered on or not, affordable or not, so a wager never hides the
 * others.
 */
export async function readOpenBets(
  database: HunchDb,
  userId: number,
  now: number,
  limit = Infinity,
): Promise<OpenBet[]> {
  const groupIds = (await database.memberships.where('userId').equals(userId).toArray()).map(
    (membership) => membership.groupId,
  );
  if (groupIds.length === 0) return [];
  const mine = new Set(groupIds);
  // The index's walk already keeps the domain's order; openBets states it.
  const bets = openBets(
    await activeBetsClosingAfter(database, now)
      .filter((bet) => mine.has(bet.groupId) && isWageringOpen(bet, now))
      .limit(limit)
      .toArray(),
    now,
  );
  const groups = await database.groups.bulkGet(groupIds);
  const names = new Map(groups.flatMap((group) => (group ? [[group.id, group.name]] : [])));
  const betIds = bets.map((bet) => bet.id);
  const wagers = new Map(
    (
      await database.wagers
        .where('[betId+userId]')
        .anyOf(betIds.map((betId) => [betId, userId]))
        .toArray()
    ).map((wager) => [wager.betId, wager]),
  );
  // Every card's comment count in this one read: a live query per card cost the dashboard's
  // first draw a query each (tests/perf cold-start).
  const commentCounts = await readCommentCountsOfBets(database, betIds);
  return bets.map((bet) => ({
    bet,
    // A player in one group needs no card to say which.
    groupName: groupIds.length > 1 ? (names.get(bet.groupId) ?? '') : '',
    wager: wagers.get(bet.id),
    commentCount: commentCounts.get(bet.id) ?? 0,
  }));
}

/**
 * The first `limit` open bets across the player's groups, live from the mirror (re-read each
 * minute as bets close).
 */
export function useOpenBets(
  userId: number | undefined,
  now: number,
  limit: number,
): OpenBet[] | undefined {
  const minute = Math.floor(now / 60_000);
  return useLiveQuery(
    async () => (userId === undefined ? [] : readOpenBets(db, userId, minute * 60_000, limit)),
    [userId, minute, limit],
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
