import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { DatabaseConnection } from '../../src/server/db/connect';
import { groups, ledger, memberships } from '../../src/server/db/schema';

// The ledger invariant of docs/architecture.md §4, checked straight in the database after every
// test of a feature that moves points (groups, bets):
// - each membership's points are the sums of its ledger rows' deltas;
// - each membership got exactly one join grant, of its group's defaultPoints;
// - a group's total points equal its join grants plus its floor top-ups and season resets (wagers
//   only set points aside, and payouts share exactly the pool, so nothing else changes the sum of
//   totals).

export async function assertLedgerMatchesMemberships({ db }: DatabaseConnection): Promise<void> {
  const sums = await db
    .select({
      groupId: memberships.groupId,
      userId: memberships.userId,
      totalPoints: memberships.totalPoints,
      availablePoints: memberships.availablePoints,
      defaultPoints: groups.defaultPoints,
      ledgerTotal: sql<number>`coalesce(sum(${ledger.totalDelta}), 0)::int`,
      ledgerAvailable: sql<number>`coalesce(sum(${ledger.availableDelta}), 0)::int`,
      grants: sql<number>`count(*) filter (where ${ledger.kind} = 'join_grant')::int`,
      granted: sql<number>`coalesce(sum(${ledger.totalDelta}) filter (where ${ledger.kind} = 'join_grant'), 0)::int`,
      toppedUp: sql<number>`coalesce(sum(${ledger.totalDelta}) filter (where ${ledger.kind} in ('floor_top_up', 'season_reset')), 0)::int`,
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(
      ledger,
      sql`${ledger.groupId} = ${memberships.groupId} and ${ledger.userId} = ${memberships.userId}`,
    )
    .groupBy(memberships.groupId, memberships.userId, groups.defaultPoints);

  const mismatches = sums.filter(
    (row) =>
      Number(row.ledgerTotal) !== row.totalPoints ||
      Number(row.ledgerAvailable) !== row.availablePoints ||
      Number(row.grants) !== 1 ||
      Number(row.granted) !== row.defaultPoints,
  );
  expect(
    mismatches,
    'memberships whose points differ from their ledger, or not granted exactly once',
  ).toEqual([]);

  const byGroup = new Map<number, { totals: number; grants: number }>();
  for (const row of sums) {
    const entry = byGroup.get(row.groupId) ?? { totals: 0, grants: 0 };
    entry.totals += row.totalPoints;
    entry.grants += Number(row.granted) + Number(row.toppedUp);
    byGroup.set(row.groupId, entry);
  }
  const unbalanced = [...byGroup]
    .filter(([, entry]) => entry.totals !== entry.grants)
    .map(([groupId, entry]) => ({ groupId, ...entry }));
  expect(
    unbalanced,
    'groups whose total points differ from their join grants, top-ups and resets',
  ).toEqual([]);
}
