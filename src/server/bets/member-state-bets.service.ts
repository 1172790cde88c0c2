import { and, asc, eq, gt, isNull, notExists, sql } from 'drizzle-orm';
import type { Bet } from '../../domain/bets';
import type { Database } from '../db/connect';
import { prepared } from '../db/prepared';
import { bets, wagers, type BetRow } from '../db/schema';
import { presentBet } from './bet.presenter';

// The bet maps of GET /member/state, handed to the groups feature's member state (which never
// reads bets itself). Every app start and reconnect asks, so both statements are prepared once.

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
          // Picks shown (a resolution before the expiry, since undone): closed for good.
          isNull(bets.picksRevealedAt),
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

export interface MemberStateBets {
  unwageredBets: Record<string, Bet>;
  betsToResolve: Record<string, Bet>;
}

/**
 * Reads the bet maps for `userId` in their current `groupIds`: unwagered = active bets whose
 * wagering is still open (fair-resolution.ts isBettingOpen) and that the caller has not wagered on; to resolve = every active bet
 * the caller created there, whatever its expiry (they resolve it after it closes).
 */
export function createMemberStateBetsReader({
  db,
  now = () => new Date(),
}: {
  db: Database;
  now?: () => Date;
}) {
  return async function readMemberStateBets(
    userId: number,
    groupIds: readonly number[],
  ): Promise<MemberStateBets> {
    const at = now();
    const unwagered =
      groupIds.length === 0
        ? []
        : await unwageredBets(db, { groupIds: [...groupIds], at: at.toISOString(), userId });
    const toResolve =
      groupIds.length === 0 ? [] : await betsToResolve(db, { userId, groupIds: [...groupIds] });
    return {
      unwageredBets: Object.fromEntries(unwagered.map((row) => [String(row.id), presentBet(row)])),
      betsToResolve: Object.fromEntries(toResolve.map((row) => [String(row.id), presentBet(row)])),
    };
  };
}
