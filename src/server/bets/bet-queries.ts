import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Bet, BetStatistics } from '../../domain/bets';
import { isBettingClosed, type RevealedPick } from '../../domain/fair-resolution';
import { computeBetStatistics } from '../../domain/bet-statistics';
import type { Executor } from '../db/connect';
import { prepared } from '../db/prepared';
import {
  bets,
  memberships,
  users,
  wagers,
  type BetRow,
  type MembershipRow,
  type WagerRow,
} from '../db/schema';
import { betNotFound } from '../errors';
import { presentBet, toPayoutWager } from './bet.presenter';

// The bet reads every bets module shares (the services, settlement, the mirror, push): a bet
// with its row lock, the wagers of bets, a bet's statistics.

/**
 * The bet row; `update` takes a row lock for the rest of the transaction (settling: a wager
 * never lands on a bet being resolved and a resolution never misses a committed wager).
 * Wagers lock it with findBetForWager.
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
  update: prepared<BetRow[], { id: number }>('findBetForUpdate', (tx) => betById(tx).for('update')),
};
// A wager's first statement: the bet locked FOR NO KEY UPDATE (wagers on one bet run one after
// another, since each stamps the bet's version with its new totals, and foreign keys to the bet
// are not blocked), with the caller's membership of its group (what the policy weighs).
const betForWagerOf = prepared<
  Array<{ bet: BetRow; membership: MembershipRow | null }>,
  { id: number; userId: number }
>('findBetForWagerOf', (tx) =>
  tx
    .select({ bet: bets, membership: memberships })
    .from(bets)
    .leftJoin(
      memberships,
      and(eq(memberships.groupId, bets.groupId), eq(memberships.userId, sql.placeholder('userId'))),
    )
    .where(eq(bets.id, sql.placeholder('id')))
    .limit(1)
    .for('no key update', { of: bets }),
);
const wagersOfBet = prepared<WagerRow[], { betId: number }>('wagersOfBet', (tx) =>
  tx
    .select()
    .from(wagers)
    .where(eq(wagers.betId, sql.placeholder('betId')))
    .orderBy(asc(wagers.createdAt), asc(wagers.id)),
);

export async function findBet(tx: Executor, betId: number, lock?: 'update'): Promise<BetRow> {
  const [row] = await findBetStatements[lock ?? 'none'](tx, { id: betId });
  if (!row) throw betNotFound();
  return row;
}

/** The bet locked for a wager and `userId`'s membership of its group (current or not), in one statement. */
export async function findBetForWager(
  tx: Executor,
  betId: number,
  userId: number,
): Promise<{ bet: BetRow; membership: MembershipRow | null }> {
  const [row] = await betForWagerOf(tx, { id: betId, userId });
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
 * A bet's statistics as `viewerId` may see them. A resolved bet counts the members it had when
 * it was resolved; any other the group's members now (`currentMemberIds`).
 */
export function statisticsOf(
  bet: BetRow,
  betWagers: readonly WagerRow[],
  currentMemberIds: readonly number[],
  viewerId: number,
): BetStatistics {
  const totalMembers =
    bet.state === 'resolved' && bet.membersAtResolution !== null
      ? bet.membersAtResolution
      : currentMemberIds.length;
  return computeBetStatistics({
    bet,
    wagers: betWagers.map(toPayoutWager),
    totalMembers,
    viewerId,
  });
}

/** One bet as its readers get it: its totals, and who picked what once betting has closed at `now`. */
export async function presentReadBet(tx: Executor, row: BetRow, now: Date): Promise<Bet> {
  const betWagers = (await loadWagers(tx, [row.id])).get(row.id);
  return presentBet(row, betWagers, (await loadPicks(tx, [row], now)).get(row.id));
}

/**
 * Who picked what on each of `betRows` whose betting has closed at `now`, with the
 * wagerers' names, in wager order. A bet still open is absent: its picks stay hidden.
 */
export async function loadPicks(
  tx: Executor,
  betRows: readonly BetRow[],
  now: Date,
): Promise<Map<number, RevealedPick[]>> {
  const closed = betRows.filter((row) => isBettingClosed(row, now.getTime())).map((row) => row.id);
  const byBet = new Map<number, RevealedPick[]>(closed.map((id) => [id, []]));
  if (closed.length === 0) return byBet;
  const rows = await tx
    .select({
      betId: wagers.betId,
      userId: wagers.userId,
      userName: users.displayName,
      prediction: wagers.prediction,
      points: wagers.points,
    })
    .from(wagers)
    .innerJoin(users, eq(users.id, wagers.userId))
    .where(inArray(wagers.betId, closed))
    .orderBy(asc(wagers.createdAt), asc(wagers.id));
  for (const { betId, ...pick } of rows) byBet.get(betId)?.push(pick);
  return byBet;
}
