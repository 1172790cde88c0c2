import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import type { Season } from '../../../src/domain/seasons';
import {
  cancel,
  createBet,
  DAY,
  expiresIn,
  NO_EXPIRY_TIMER,
  pointsOf,
  postWager,
  resolve,
} from '../bets/bet.factories';
import { createGroupWithRoles, createPlayer, joinGroup } from '../groups/group.factories';
import { useTestServer } from '../harness';

// A rejoin gets what the member would have had by staying. Two twins play the same wagers on
// the same bets, so their points stay equal; one of them leaves and comes back at random moments
// while seasons that reset points end. Whatever happened while the twin was away (resets, bets
// they had wagered on settling), once back they hold exactly what the twin who stayed holds.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, SEASONS_INTERVAL_MS: '0' } });

const betStep = fc.record({
  op: fc.constant('bet' as const),
  points: fc.integer({ min: 1, max: 3 }),
  pick: fc.constantFrom('yes', 'no'),
  settle: fc.constantFrom('yes', 'no', 'cancel', 'later'),
});
const settleStep = fc.record({
  op: fc.constant('settleOldest' as const),
  answer: fc.constantFrom('yes', 'no'),
});
const endStep = fc.constant({ op: 'endSeason' as const });
/** A round: the twins play together, then one of them is away while bets settle and seasons end. */
const roundArb = fc.record({
  together: fc.array(fc.oneof(betStep, betStep, settleStep, endStep), { maxLength: 4 }),
  away: fc.array(fc.oneof(settleStep, endStep), { minLength: 1, maxLength: 3 }),
});
type Round = typeof roundArb extends fc.Arbitrary<infer Value> ? Value : never;
type Step = Round['together'][number];

describe('leaving and rejoining around seasons that reset points', () => {
  it('gives the returning twin exactly what the twin who stayed has (property test)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 20, max: 120 }),
        fc.array(roundArb, { minLength: 1, maxLength: 3 }),
        async (defaultPoints, rounds) => {
          const { group, creator, admin, member } = await createGroupWithRoles(server, {
            defaultPoints,
          });
          const leaver = member;
          const stayer = await createPlayer(server, 'Stayer');
          await joinGroup(server, stayer, group);
          const startSeason = async () => {
            const started = await server.request<Season>(
              'POST',
              `/api/groups/${group.id}/seasons`,
              {
                token: creator.accessToken,
                body: { name: 'Twin cup', endsAt: expiresIn(server, 5 * DAY), resetPoints: true },
              },
            );
            expect(started.status, started.text).toBe(201);
            return started.body.id;
          };
          let seasonId = await startSeason();
          const open: Bet[] = [];
          const settle = async (bet: Bet, how: string) => {
            const response =
              how === 'cancel'
                ? await cancel(server, creator, bet)
                : await resolve(server, creator, bet, how);
            expect(response.status, response.text).toBe(200);
          };
          /** Both twins wager alike (or neither can); the opponent takes the other side, twice as much. */
          const wagerAlike = async (
            bet: Bet,
            pick: string,
            points: number,
            opponent: AuthResponse,
          ) => {
            const [one, two] = [
              await postWager(server, leaver, bet, pick, points),
              await postWager(server, stayer, bet, pick, points),
            ];
            expect(one.status, one.text).toBe(two.status);
            expect(one.status).toBeLessThan(500);
            const other = await postWager(
              server,
              opponent,
              bet,
              pick === 'yes' ? 'no' : 'yes',
              2 * points,
            );
            expect(other.status).toBeLessThan(500);
          };

          const play = async (step: Step) => {
            if (step.op === 'bet') {
              const bet = await createBet(server, creator, group, { baseWagerAmount: 1 });
              await wagerAlike(bet, step.pick, step.points, admin);
              if (step.settle === 'later') open.push(bet);
              else await settle(bet, step.settle);
            } else if (step.op === 'settleOldest') {
              const bet = open.shift();
              if (bet) await settle(bet, step.answer);
            } else {
              const ended = await server.request(
                'POST',
                `/api/groups/${group.id}/seasons/${seasonId}/end`,
                { token: creator.accessToken },
              );
              expect(ended.status, ended.text).toBe(200);
              seasonId = await startSeason();
            }
          };
          const expectTwinsAlike = async () =>
            expect(await pointsOf(server, leaver, group)).toEqual(
              await pointsOf(server, stayer, group),
            );

          for (const round of rounds) {
            for (const step of round.together) await play(step);
            await expectTwinsAlike();
            const left = await server.request('POST', `/api/groups/${group.id}/leave`, {
              token: leaver.accessToken,
            });
            expect(left.status, left.text).toBe(200);
            // Away: their open bets settle, seasons end (the stayer plays no bet meanwhile).
            for (const step of round.away) await play(step);
            await joinGroup(server, leaver, group);
            await expectTwinsAlike();
          }
        },
      ),
      { numRuns: 25 },
    );
    // A hang guard, not a time limit: 21-57 s on a quiet machine, past 120 s at load 15-20.
  }, 300_000);
});
