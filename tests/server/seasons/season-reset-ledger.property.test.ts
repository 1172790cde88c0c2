import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import type { Season } from '../../../src/domain/seasons';
import { bets, memberships, wagers } from '../../../src/server/db/schema';
import { runSeasonsJob } from '../../../src/server/jobs/seasons.job';
import {
  cancel,
  createBet,
  DAY,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  resolve,
} from '../bets/bet.factories';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { assertLedgerMatchesMemberships } from '../ledger-assertions';

// A season that resets points ends while bets are open: over random groups, bets, wagers and
// settlements before and after the end, points are never created or lost beyond the reset's own
// ledger entries. After every step each membership equals its ledger and the group's totals equal
// its grants and resets; right after the reset each member has the starting points available and
// still holds exactly their open wagers, which then settle as usual.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, SEASONS_INTERVAL_MS: '0' } });

const wagerArb = fc.record({
  by: fc.nat(2),
  prediction: fc.constantFrom('yes', 'no'),
  multiple: fc.integer({ min: 1, max: 3 }),
});
const betArb = fc.record({
  base: fc.integer({ min: 1, max: 3 }),
  wagers: fc.array(wagerArb, { maxLength: 4 }),
  /** How it settles, and whether before the season ends. */
  settle: fc.constantFrom('yes', 'no', 'cancel', 'open'),
  beforeEnd: fc.boolean(),
});

/** Points each member holds in wagers on the group's active bets. */
async function heldByMember(groupId: number): Promise<Map<number, number>> {
  const rows = await server.database.db
    .select({ userId: wagers.userId, held: sql<number>`sum(${wagers.points})::int` })
    .from(wagers)
    .innerJoin(bets, eq(bets.id, wagers.betId))
    .where(and(eq(bets.groupId, groupId), eq(bets.state, 'active')))
    .groupBy(wagers.userId);
  return new Map(rows.map((row) => [row.userId, Number(row.held)]));
}

async function settle(bet: Bet, how: string, player: AuthResponse) {
  const response =
    how === 'cancel' ? await cancel(server, player, bet) : await resolve(server, player, bet, how);
  expect(response.status, response.text).toBeLessThan(500);
}

describe('a season reset with open bets', () => {
  it('keeps every ledger invariant (property test)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 20, max: 200 }),
        fc.array(betArb, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (defaultPoints, plan, byJob) => {
          const { group, creator, admin, member } = await createGroupWithRoles(server, {
            defaultPoints,
          });
          const players = [creator, admin, member];
          const started = await server.request<Season>('POST', `/api/groups/${group.id}/seasons`, {
            token: admin.accessToken,
            body: { name: 'Property cup', endsAt: expiresIn(server, 2 * DAY), resetPoints: true },
          });
          expect(started.status, started.text).toBe(201);

          const made: Array<{ bet: Bet; settle: string; beforeEnd: boolean }> = [];
          for (const item of plan) {
            const bet = await createBet(server, creator, group, {
              baseWagerAmount: item.base,
              expiresAt: expiresIn(server, DAY),
            });
            for (const wager of item.wagers) {
              // A second wager by the same player, or one beyond their points, is refused by a rule.
              const response = await server.request('POST', '/api/bets/wagers', {
                token: players[wager.by]!.accessToken,
                body: {
                  betId: bet.id,
                  prediction: wager.prediction,
                  points: item.base * wager.multiple,
                },
              });
              expect(response.status, response.text).toBeLessThan(500);
            }
            made.push({ bet, settle: item.settle, beforeEnd: item.beforeEnd });
            await assertLedgerMatchesMemberships(server.database);
          }
          for (const { bet, settle: how, beforeEnd } of made)
            if (beforeEnd && how !== 'open') {
              await settle(bet, how, creator);
              await assertLedgerMatchesMemberships(server.database);
            }

          const heldBefore = await heldByMember(group.id);
          if (byJob) {
            server.clock.advance(2 * DAY + HOUR);
            const ended = await runSeasonsJob(
              { db: server.database.db, events: server.app.events },
              server.clock.now(),
            );
            expect(ended.map((season) => season.id)).toContain(started.body.id);
          } else {
            const ended = await server.request(
              'POST',
              `/api/groups/${group.id}/seasons/${started.body.id}/end`,
              { token: admin.accessToken },
            );
            expect(ended.status, ended.text).toBe(200);
          }
          await assertLedgerMatchesMemberships(server.database);
          const after = await server.database.db
            .select()
            .from(memberships)
            .where(eq(memberships.groupId, group.id));
          for (const row of after) {
            expect(row.availablePoints).toBe(defaultPoints);
            expect(row.totalPoints - row.availablePoints).toBe(heldBefore.get(row.userId) ?? 0);
          }
          expect(await heldByMember(group.id)).toEqual(heldBefore);

          // The rest settle after the season, as usual (an expired bet is still resolvable by its creator).
          for (const { bet, settle: how, beforeEnd } of made)
            if (!beforeEnd || how === 'open') {
              await settle(bet, how === 'open' ? 'cancel' : how, creator);
              await assertLedgerMatchesMemberships(server.database);
            }
          expect(await heldByMember(group.id)).toEqual(new Map());
        },
      ),
      { numRuns: 10 },
    );
    // Ten random runs of many requests each: seconds when quiet, far more on a busy machine.
  }, 120_000);
});
