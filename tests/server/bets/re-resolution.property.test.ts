import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Wager } from '../../../src/domain/bets';
import { computeResolution } from '../../../src/domain/payout';
import {
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  makeAdmin,
} from '../groups/group.factories';
import { useTestServer } from '../harness';
import { createBet, NO_EXPIRY_TIMER, placeWager, pointsOf, resolve } from './bet.factories';

// A re-resolution always goes through. Whatever the winners of the first answer did with their
// winnings meanwhile (wagered them again on other bets), the judge's answer is paid as if it had
// been the first one: each player's total points are what that answer pays them, and the points
// already wagered elsewhere stay held there, so available points may go below zero until
// refilled. The harness checks the ledger after the test.

const server = useTestServer(NO_EXPIRY_TIMER);

const wagerArb = fc.option(
  fc.record({ prediction: fc.constantFrom('yes', 'no'), multiple: fc.integer({ min: 1, max: 3 }) }),
  { nil: null },
);

/** Wagers as much of `player`'s available points as 9-point (or smaller) wagers on new bets take, up to `times` bets. */
async function spendWinnings(
  player: AuthResponse,
  host: AuthResponse,
  group: Parameters<typeof createBet>[2],
  times: number,
): Promise<number> {
  let spent = 0;
  for (let time = 0; time < times; time += 1) {
    const { available } = await pointsOf(server, player, group);
    const points = Math.min(9, Math.floor(available / 3) * 3);
    if (points < 3) break;
    const elsewhere = await createBet(server, host, group, {
      title: `Spend ${time}`,
      baseWagerAmount: 3,
    });
    await placeWager(server, player, elsewhere, 'yes', points);
    spent += points;
  }
  return spent;
}

describe('re-resolving a disputed bet', () => {
  it('always goes through, paying the new answer as if it had been the first (property test)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 9, max: 30 }),
        fc.array(wagerArb, { minLength: 3, maxLength: 3 }),
        fc.constantFrom('yes', 'no'),
        fc.constantFrom('yes', 'no'),
        fc.array(fc.nat(3), { minLength: 3, maxLength: 3 }),
        async (defaultPoints, plan, firstAnswer, finalAnswer, spending) => {
          if (plan.every((wager) => wager === null)) return;
          const { group, creator, admin, member } = await createGroupWithRoles(server, {
            defaultPoints,
          });
          // A referee without a stake judges: an admin who never wagers.
          const referee = await createPlayer(server, 'Referee');
          await joinGroup(server, referee, group);
          await makeAdmin(server, creator, group, referee);
          const players = [creator, admin, member];
          const bet = await createBet(server, referee, group, { baseWagerAmount: 3 });
          const wagers: Wager[] = [];
          for (const [index, wager] of plan.entries())
            if (wager)
              wagers.push(
                await placeWager(
                  server,
                  players[index]!,
                  bet,
                  wager.prediction,
                  3 * wager.multiple,
                ),
              );
          const open = await Promise.all(players.map((player) => pointsOf(server, player, group)));

          expect((await resolve(server, referee, bet, firstAnswer)).status).toBe(200);
          const disputer = players.find((player) =>
            wagers.some((wager) => wager.userId === player.user.id),
          )!;
          const disputed = await server.request('POST', `/api/bets/${bet.id}/dispute`, {
            token: disputer.accessToken,
            body: { reason: 'That is not what happened.' },
          });
          expect(disputed.status, disputed.text).toBe(200);
          const spent = [];
          for (const [index, player] of players.entries())
            spent.push(await spendWinnings(player, referee, group, spending[index]!));

          const reResolved = await server.request('PUT', `/api/bets/${bet.id}/re-resolve`, {
            token: referee.accessToken,
            body: { correctAnswer: finalAnswer },
          });
          expect(reResolved.status, reResolved.text).toBe(200);

          const paid = computeResolution(
            { betType: 'yes_no', betTypeConfig: {} },
            wagers,
            finalAnswer,
          );
          for (const [index, player] of players.entries()) {
            const share = paid.distributions.find((entry) => entry.userId === player.user.id);
            const result =
              share && paid.outcome === 'paid' ? share.winnings - share.wagerAmount : 0;
            const total = open[index]!.total + result;
            expect(await pointsOf(server, player, group)).toEqual({
              total,
              available: total - spent[index]!,
            });
          }
        },
      ),
      { numRuns: 15 },
    );
    // A hang guard, not a time limit: 105 s at load 15-20 on 2 cores.
  }, 300_000);
});
