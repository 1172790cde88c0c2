import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Membership } from '../../domain/groups';
import type { MemberStateResponse } from '../../domain/member-state';
import type { MirrorBet, MirrorStatistics, MirrorWager } from '../../domain/mirror';
import { mayResolve, mayWager } from '../../domain/policies/bet-policy';
import { isAdminRole } from '../../domain/policies/group-policy';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { prepared } from '../db/prepared';
import { bets, wagers, type BetRow } from '../db/schema';
import { activeGroupIdsSql, type MirrorScope } from '../groups/group-mirror';
import { listActiveMemberIds } from '../groups/membership-queries';
import { policyBetOf } from './bet-access';
import { presentBet, presentWager } from './bet.presenter';
import { loadPicks, loadWagers, statisticsOf } from './bet-queries';

// The bets feature's part of a mirror pull (src/server/mirror): every bet of the scope's groups
// in every state with its live totals, the viewer's own wagers, and resolved bets' statistics as
// the viewer sees them (never another member's pick while betting is open: docs/architecture.md §5).
// A wager stamps its bet (wagers.service.ts), so a bet whose totals moved counts as changed.
// Once betting has closed the bet carries who picked what; jobs/picks-reveal.job.ts
// stamps a bet when its expiry passes, so a device that pulled before the close gets them too.
// Without a cursor the same route answers the viewer's two queues (readBetQueues).

export interface BetMirrorRows {
  bets: MirrorBet[];
  wagers: MirrorWager[];
  statistics: MirrorStatistics[];
}

/** Whether a bet of the groups `ids` (an integer[] value), or one of the viewer's wagers, changed since the snapshot. */
export function betChangesExistSql(viewerId: SQL, ids: SQL, snapshot: SQL): SQL {
  return sql`(exists (select 1 from ${bets} where ${bets.groupId} = any(${ids}) and ${changedSince(bets.changeTxid, snapshot)})
    or exists (select 1 from ${wagers} where ${wagers.userId} = ${viewerId} and ${changedSince(wagers.changeTxid, snapshot)}))`;
}

/** How many bets each group has (a page of a first sync is sized by rows). */
export async function countBets(
  tx: Executor,
  groupIds: readonly number[],
): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await tx
    .select({ groupId: bets.groupId, count: sql<number>`count(*)::integer` })
    .from(bets)
    .where(inArray(bets.groupId, [...groupIds]))
    .groupBy(bets.groupId);
  return new Map(rows.map((row) => [row.groupId, row.count]));
}

export async function readBetMirror(tx: Executor, scope: MirrorScope): Promise<BetMirrorRows> {
  const { viewerId, fullIds, deltaIds, snapshot, now } = scope;
  const whole = fullIds.length > 0 ? inArray(bets.groupId, [...fullIds]) : undefined;
  const changedBets =
    deltaIds.length > 0
      ? and(inArray(bets.groupId, [...deltaIds]), changedSince(bets.changeTxid, snapshot))
      : undefined;
  const betRows =
    whole || changedBets
      ? await tx.select().from(bets).where(or(whole, changedBets)).orderBy(asc(bets.id))
      : [];

  const changedWagers =
    deltaIds.length > 0
      ? and(inArray(bets.groupId, [...deltaIds]), changedSince(wagers.changeTxid, snapshot))
      : undefined;
  const ownRows =
    whole || changedWagers
      ? await tx
          .select({ wager: wagers })
          .from(wagers)
          .innerJoin(bets, eq(bets.id, wagers.betId))
          .where(and(eq(wagers.userId, viewerId), or(whole, changedWagers)))
          .orderBy(asc(wagers.id))
      : [];

  const wagersByBet = await loadWagers(
    tx,
    betRows.map((row) => row.id),
  );
  const picksByBet = await loadPicks(tx, betRows, now);
  const resolved = betRows.filter((row) => row.state === 'resolved');
  // Only bets resolved before their member count was kept need today's (none since migration 0006).
  const membersByGroup = new Map<number, number[]>();
  for (const row of resolved)
    if (row.membersAtResolution === null && !membersByGroup.has(row.groupId))
      membersByGroup.set(row.groupId, await listActiveMemberIds(tx, row.groupId));

  return {
    bets: betRows.map((row) => {
      const betWagers = wagersByBet.get(row.id) ?? [];
      const bet = presentBet(row, betWagers, picksByBet.get(row.id));
      return {
        ...bet,
        answerTotals: bet.answerTotals ?? {},
        wagerCount: betWagers.length,
        version: row.version,
      };
    }),
    wagers: ownRows.map((row) => ({ ...presentWager(row.wager), version: row.wager.version })),
    statistics: resolved.map((row) => ({
      betId: row.id,
      version: row.version,
      statistics: statisticsOf(
        row,
        wagersByBet.get(row.id) ?? [],
        membersByGroup.get(row.groupId) ?? [],
        viewerId,
      ),
    })),
  };
}

// Both queues are active bets of the viewer's groups, so that is all this reads: every app
// start without a cursor asks it (prepared once, see db/prepared.ts). Which of them the viewer
// may wager on or resolve is the bet policy's to say, with the two facts it weighs here.
const activeBetsOfGroups = prepared<
  Array<{ bet: BetRow; wagered: boolean; creatorIsMember: boolean }>,
  { userId: number; groupIds: number[]; adminGroupIds: number[] }
>('activeBetsOfGroups', (tx) =>
  tx
    .select({
      bet: bets,
      wagered: sql<boolean>`${wagers.id} is not null`,
      // Whether the creator is still here matters only to an admin standing in for them.
      creatorIsMember: sql<boolean>`case when ${bets.groupId} = any(${sql.placeholder('adminGroupIds')}::integer[]) and ${bets.createdBy} <> ${sql.placeholder('userId')}
        then ${bets.groupId} in ${activeGroupIdsSql(sql`${bets.createdBy}`)} else true end`,
    })
    .from(bets)
    // At most one row: one wager per user per bet.
    .leftJoin(wagers, and(eq(wagers.betId, bets.id), eq(wagers.userId, sql.placeholder('userId'))))
    .where(
      and(
        sql`${bets.groupId} = any(${sql.placeholder('groupIds')}::integer[])`,
        eq(bets.state, 'active'),
      ),
    )
    .orderBy(asc(bets.expiresAt), asc(bets.id)),
);

/**
 * The bet maps of GET /member/state (without a cursor) for the viewer's current `memberships`:
 * unwagered = the bets they may wager on (`mayWager`: betting open) and have not; to resolve =
 * those they may resolve (`mayResolve`: their own, and as an admin a departed creator's or an
 * abandoned one), the dashboard's resolve queue.
 */
export async function readBetQueues(
  tx: Executor,
  viewerId: number,
  memberships: readonly Pick<Membership, 'groupId' | 'role'>[],
  now: Date,
): Promise<Pick<MemberStateResponse, 'unwageredBets' | 'betsToResolve'>> {
  const queues: Pick<MemberStateResponse, 'unwageredBets' | 'betsToResolve'> = {
    unwageredBets: {},
    betsToResolve: {},
  };
  if (memberships.length === 0) return queues;
  const roles = new Map(memberships.map((m) => [m.groupId, m.role ?? 'member']));
  const rows = await activeBetsOfGroups(tx, {
    userId: viewerId,
    groupIds: [...roles.keys()],
    adminGroupIds: [...roles].flatMap(([groupId, role]) => (isAdminRole(role) ? [groupId] : [])),
  });
  const at = now.getTime();
  for (const { bet: row, wagered, creatorIsMember } of rows) {
    const viewer = { userId: viewerId, role: roles.get(row.groupId) ?? null };
    const bet = policyBetOf(row);
    const toWager = !wagered && mayWager(viewer, bet, at).allowed;
    const toResolve = mayResolve(viewer, bet, { creatorIsMember }, at).allowed;
    if (!toWager && !toResolve) continue;
    const shown = presentBet(row);
    if (toWager) queues.unwageredBets[String(row.id)] = shown;
    if (toResolve) queues.betsToResolve[String(row.id)] = shown;
  }
  return queues;
}
