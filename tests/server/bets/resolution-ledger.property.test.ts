import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import {
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  makeAdmin,
} from '../groups/group.factories';
import { useTestServer } from '../harness';
import { assertLedgerMatchesMemberships } from '../ledger-assertions';
import { createBet, expiresIn, HOUR, NO_EXPIRY_TIMER, placeWager, pointsOf } from './bet.factories';

// Fair resolution's property: over random wagers and random sequences of resolve, undo, dispute and
// re-resolve (each call allowed or refused by the rules), points are never created or lost:
// every membership equals its ledger, the group's totals equal its grants, and whenever the bet
// is back to unresolved, every player holds exactly what they held before it was settled.

const server = useTestServer(NO_EXPIRY_TIMER);

const step = fc.oneof(
  fc.record({ op: fc.constant('resolve' as const), answer: fc.constantFrom('yes', 'no') }),
  fc.record({ op: fc.constant('undo' as const) }),
  fc.record({ op: fc.constant('dispute' as const), by: fc.nat(2) }),
  fc.record({ op: fc.constant('reResolve' as const), answer: fc.constantFrom('yes', 'no') }),
  fc.record({ op: fc.constant('dismiss' as const) }),
);
const wagerArb = fc.record({
  prediction: fc.constantFrom('yes', 'no'),
  multiple: fc.integer({ min: 1, max: 3 }),
});

describe('resolve, undo and re-resolve', () => {
  it('keep the ledger invariants and restore every player exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.option(wagerArb, { nil: null }), { minLength: 3, maxLength: 3 }),
        fc.array(step, { minLength: 1, maxLength: 7 }),
        async (base, wagerPlan, steps) => {
          const { group, creator, admin, member } = await createGroupWithRoles(server);
          const players: AuthResponse[] = [creator, admin, member];
          // Disputes are judged by an admin without a stake (whoever wagered may not).
          const referee = await createPlayer(server, 'Referee');
          await joinGroup(server, referee, group);
          await makeAdmin(server, creator, group, referee);
          const bet = await createBet(server, member, group, {
            baseWagerAmount: base,
            expiresAt: expiresIn(server, HOUR),
          });
          for (const [index, plan] of wagerPlan.entries())
            if (plan)
              await placeWager(server, players[index]!, bet, plan.prediction, base * plan.multiple);
          const open = await Promise.all(players.map((player) => pointsOf(server, player, group)));

          for (const action of steps) {
            const path = `/api/bets/${bet.id}`;
            const response =
              action.op === 'resolve'
                ? await server.request('PUT', `${path}/resolve`, {
                    token: member.accessToken,
                    body: { correctAnswer: action.answer },
                  })
                : action.op === 'undo'
                  ? await server.request('POST', `${path}/undo-resolution`, {
                      token: member.accessToken,
                    })
                  : action.op === 'dispute'
                    ? await server.request('POST', `${path}/dispute`, {
                        token: players[action.by]!.accessToken,
                        body: { reason: 'Looks wrong' },
                      })
                    : action.op === 'reResolve'
                      ? await server.request('PUT', `${path}/re-resolve`, {
                          token: referee.accessToken,
                          body: { correctAnswer: action.answer },
                        })
                      : await server.request('POST', `${path}/dispute/dismiss`, {
                          token: referee.accessToken,
                        });
            // Allowed or refused by a rule, never a server error.
            expect(response.status, response.text).toBeLessThan(500);
          }
          await assertLedgerMatchesMemberships(server.database);
          const state = (
            await server.request('GET', `/api/bets/${bet.id}`, { token: member.accessToken })
          ).body.state;
          if (state === 'active') {
            const now = await Promise.all(players.map((player) => pointsOf(server, player, group)));
            expect(now).toEqual(open);
          }
        },
      ),
      { numRuns: 12 },
    );
    // Twelve random runs of many requests each: seconds when quiet, far more on a busy machine.
  }, 120_000);
});
