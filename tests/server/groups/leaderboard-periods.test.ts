import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import {
  rankPeriodResults,
  RESULT_LEDGER_KINDS,
  type PeriodLeaderboard,
} from '../../../src/domain/leaderboard-periods';
import { ledger } from '../../../src/server/db/schema';
import {
  cancel,
  createBet,
  DAY,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from '../bets/bet.factories';
import { useTestServer } from '../harness';
import { createGroup, createPlayer, joinGroup } from './group.factories';

// This week / This month. A member's points in a period are the sum of their
// result entries in the ledger (payouts, refunds) created in it, the ledger being the one
// source of the points; the previous period's sums give the rank movement.

const server = useTestServer(NO_EXPIRY_TIMER);

function periodBoard(user: AuthResponse, group: Group, from: Date, previousFrom: Date) {
  return server.request<PeriodLeaderboard>(
    'GET',
    `/api/groups/${group.id}/leaderboard/period?${new URLSearchParams({
      from: from.toISOString(),
      previousFrom: previousFrom.toISOString(),
    })}`,
    { token: user.accessToken },
  );
}

/** Moves a bet's ledger rows back in time, as if it had settled then. */
async function settledAgo(betId: number, ms: number) {
  await server.database.db
    .update(ledger)
    .set({ createdAt: sql`${ledger.createdAt} - ${`${ms} milliseconds`}::interval` })
    .where(eq(ledger.betId, betId));
}

/** A group of three that played three bets: settled 10 days ago, 3 days ago, and just now. */
async function playedGroup() {
  const ana = await createPlayer(server, 'Ana');
  const ben = await createPlayer(server, 'Ben');
  const cy = await createPlayer(server, 'Cy');
  const group = await createGroup(server, ana, { defaultPoints: 100 });
  await joinGroup(server, ben, group);
  await joinGroup(server, cy, group);
  const old = await createBet(server, ana, group, { baseWagerAmount: 3 });
  await placeWager(server, ana, old, 'yes', 9);
  await placeWager(server, ben, old, 'no', 3);
  await resolve(server, ana, old, 'no');
  await settledAgo(old.id, 10 * DAY);
  const recent = await createBet(server, ben, group, { baseWagerAmount: 3 });
  await placeWager(server, ben, recent, 'yes', 6);
  await placeWager(server, cy, recent, 'no', 9);
  await placeWager(server, ana, recent, 'yes', 3);
  await resolve(server, ben, recent, 'yes');
  await settledAgo(recent.id, 3 * DAY);
  const today = await createBet(server, cy, group, { baseWagerAmount: 3 });
  await placeWager(server, cy, today, 'yes', 3);
  await placeWager(server, ana, today, 'no', 6);
  await resolve(server, cy, today, 'yes');
  const cancelled = await createBet(server, ana, group, { baseWagerAmount: 3 });
  await placeWager(server, ben, cancelled, 'yes', 3);
  await cancel(server, ana, cancelled);
  return { ana, ben, cy, group };
}

/** The ledger's own answer: each member's result entries in [from, until). */
async function ledgerSums(group: Group, from: Date, until: Date) {
  const rows = await server.database.db
    .select({
      userId: ledger.userId,
      kind: ledger.kind,
      delta: ledger.totalDelta,
      at: ledger.createdAt,
    })
    .from(ledger)
    .where(eq(ledger.groupId, group.id));
  const sums = new Map<number, number>();
  for (const row of rows) {
    if (!(RESULT_LEDGER_KINDS as readonly string[]).includes(row.kind)) continue;
    if (row.at < from || row.at >= until) continue;
    sums.set(row.userId, (sums.get(row.userId) ?? 0) + row.delta);
  }
  return sums;
}

describe('GET /api/groups/{id}/leaderboard/period', () => {
  it('sums equal the ledger for any period, and the period before it', async () => {
    const { ana, group } = await playedGroup();
    const now = server.clock.now().getTime();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 15 * 24 * 60 }),
        fc.integer({ min: 1, max: 31 * 24 * 60 }),
        async (minutesAgo, lengthMinutes) => {
          const from = new Date(now - minutesAgo * 60_000);
          const previousFrom = new Date(from.getTime() - lengthMinutes * 60_000);
          const response = await periodBoard(ana, group, from, previousFrom);
          expect(response.status).toBe(200);
          const current = await ledgerSums(group, from, new Date(now + DAY));
          const previous = await ledgerSums(group, previousFrom, from);
          expect(response.body.members).toHaveLength(3);
          for (const member of response.body.members) {
            expect(member.points).toBe(current.get(member.userId) ?? 0);
            expect(member.previousPoints).toBe(previous.get(member.userId) ?? 0);
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('ranks this week by what was won or lost, with the movement since last week', async () => {
    const { ana, ben, cy, group } = await playedGroup();
    const now = server.clock.now().getTime();
    const from = new Date(now - 5 * DAY);
    const response = await periodBoard(ana, group, from, new Date(from.getTime() - 7 * DAY));
    const ranked = rankPeriodResults(response.body.members);
    // This week: the 3-day-old bet (pool 18: Ben 12 for 6, Ana 6 for 3, Cy lost 9) and
    // today's (pool 9: Cy 9 for 3, Ana lost 6). Join grants are not won: nobody has 100.
    // Cy had no result before this week: no earlier place, so no movement; Ana and Ben keep
    // their places among those who had one.
    expect(
      ranked.map(({ userId, points, rank, movement, hasEarlierResults }) => ({
        userId,
        points,
        rank,
        movement,
        hasEarlierResults,
      })),
    ).toEqual([
      { userId: ben.user.id, points: 6, rank: 1, movement: 0, hasEarlierResults: true },
      { userId: ana.user.id, points: -3, rank: 2, movement: 0, hasEarlierResults: true },
      { userId: cy.user.id, points: -3, rank: 2, movement: null, hasEarlierResults: false },
    ]);
    // The week before: only the 10-day-old bet, where Ben took Ana's 9.
    const before = new Map(response.body.members.map((m) => [m.userId, m.previousPoints]));
    expect([before.get(ben.user.id), before.get(ana.user.id), before.get(cy.user.id)]).toEqual([
      9, -9, 0,
    ]);
  });

  it('counts the bets each member wagered on in the period, cancelled ones too (played)', async () => {
    const { ana, ben, cy, group } = await playedGroup();
    const now = server.clock.now().getTime();
    const playedSince = async (daysAgo: number) => {
      const from = new Date(now - daysAgo * DAY);
      const response = await periodBoard(cy, group, from, new Date(from.getTime() - 7 * DAY));
      const played = new Map(response.body.members.map((m) => [m.userId, m.played]));
      return [played.get(ana.user.id), played.get(ben.user.id), played.get(cy.user.id)];
    };
    // Today: Ana and Cy on today's bet, Ben on the cancelled one.
    expect(await playedSince(1)).toEqual([1, 1, 1]);
    // Five days: and the 3-day-old bet, which all three played.
    expect(await playedSince(5)).toEqual([2, 2, 2]);
    // Twelve days: and the 10-day-old bet, Ana's and Ben's.
    expect(await playedSince(12)).toEqual([3, 3, 2]);
    const quiet = await createGroup(server, cy);
    const none = await periodBoard(cy, quiet, new Date(now - DAY), new Date(now - 8 * DAY));
    expect(none.body.members).toEqual([
      expect.objectContaining({ userId: cy.user.id, points: 0, played: 0 }),
    ]);
  });

  it('follows the leaderboard’s read rule, and answers 400 for a bad period', async () => {
    const owner = await createPlayer(server, 'Owner');
    const hidden = await createGroup(server, owner, { privacy: 'private' });
    const outsider = await createPlayer(server, 'Outsider');
    const now = server.clock.now();
    const weekAgo = new Date(now.getTime() - 7 * DAY);
    expect((await periodBoard(outsider, hidden, now, weekAgo)).status).toBe(403);
    const { group } = await playedGroup();
    const backwards = await server.request(
      'GET',
      `/api/groups/${group.id}/leaderboard/period?from=${weekAgo.toISOString()}&previousFrom=${now.toISOString()}`,
      { token: outsider.accessToken },
    );
    expect(backwards.status).toBe(400);
    const missing = await server.request('GET', `/api/groups/${group.id}/leaderboard/period`, {
      token: outsider.accessToken,
    });
    expect(missing.status).toBe(400);
  });
});
