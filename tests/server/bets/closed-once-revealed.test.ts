import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import { createGroupWithRoles, createPlayer, joinGroup } from '../groups/group.factories';
import { useTestServer } from '../harness';
import {
  createBet,
  DAY,
  expiresIn,
  NO_EXPIRY_TIMER,
  placeWager,
  postWager,
  resolve,
} from './bet.factories';

// Once any pick of a bet has been visible to another member (its resolution showed them, or
// its close), the bet never accepts a wager again: an undone resolution leaves it active but
// closed, waiting for its result, however far its expiry lies ahead.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, PICKS_REVEAL_INTERVAL_MS: '0' } });

const undo = (user: AuthResponse, bet: Pick<Bet, 'id'>) =>
  server.request('POST', `/api/bets/${bet.id}/undo-resolution`, { token: user.accessToken });
const picksSeenBy = (user: AuthResponse, bet: Pick<Bet, 'id'>) =>
  server.request('GET', `/api/bets/${bet.id}/picks`, { token: user.accessToken });
const changeWager = (user: AuthResponse, wagerId: number, prediction: string, points: number) =>
  server.request('PUT', `/api/bets/wagers/${wagerId}`, {
    token: user.accessToken,
    body: { prediction, points },
  });

/** `member` created a bet closing in a day; `admin` picked yes, `creator` no; `observer` has not picked. */
async function openBet() {
  const roles = await createGroupWithRoles(server);
  const observer = await createPlayer(server, 'Observer');
  await joinGroup(server, observer, roles.group);
  const bet = await createBet(server, roles.member, roles.group, {
    expiresAt: expiresIn(server, DAY),
  });
  const yes = await placeWager(server, roles.admin, bet, 'yes', 2);
  await placeWager(server, roles.creator, bet, 'no', 3);
  return { ...roles, observer, bet, yes };
}

function expectClosed(response: { status: number; body: { code?: string } }) {
  expect(response.status).toBe(422);
  expect(response.body.code).toBe('bet_closed');
}

describe('a bet resolved before its expiry, then undone', () => {
  it('stays closed: no new wager, no change, and it waits for its result', async () => {
    const { member, admin, observer, bet, yes } = await openBet();
    expect((await picksSeenBy(observer, bet)).status).toBe(403);
    expect((await resolve(server, member, bet, 'yes')).status).toBe(200);
    expect((await picksSeenBy(observer, bet)).body.picks).toHaveLength(2);

    const undone = await undo(member, bet);
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ state: 'active', correctAnswer: null });

    expectClosed(await postWager(server, observer, bet, 'no', 1));
    expectClosed(await changeWager(admin, yes.id, 'no', 2));
    expect(undone.body.picksRevealedAt).toEqual(expect.any(String));
    // The picks were seen: they stay readable, and the bet is closed everywhere.
    expect((await picksSeenBy(observer, bet)).body.picks).toHaveLength(2);
    const state = await server.request('GET', '/api/member/state', {
      token: observer.accessToken,
    });
    expect(Object.keys(state.body.unwageredBets)).not.toContain(String(bet.id));
    const mirrored = (
      await server.request<MirrorPullResponse>(
        'GET',
        `/api/member/state?cursor=${MIRROR_START_CURSOR}`,
        { token: observer.accessToken },
      )
    ).body.bets.find((row) => row.id === bet.id);
    expect(mirrored).toMatchObject({ state: 'active', picksRevealedAt: expect.any(String) });
    const creatorState = await server.request('GET', '/api/member/state', {
      token: member.accessToken,
    });
    expect(Object.keys(creatorState.body.betsToResolve)).toContain(String(bet.id));

    // Its result can still be given, once.
    expect((await resolve(server, member, bet, 'no')).status).toBe(200);
  });
});

type Step =
  | { op: 'resolve'; answer: 'yes' | 'no' }
  | { op: 'undo' }
  | { op: 'dispute'; by: number }
  | { op: 'reResolve'; answer: 'yes' | 'no' }
  | { op: 'dismiss' }
  | { op: 'wager'; by: number; answer: 'yes' | 'no' };

const answer = fc.constantFrom('yes' as const, 'no' as const);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('resolve' as const), answer }),
  fc.record({ op: fc.constant('undo' as const) }),
  fc.record({ op: fc.constant('dispute' as const), by: fc.nat(1) }),
  fc.record({ op: fc.constant('reResolve' as const), answer }),
  fc.record({ op: fc.constant('dismiss' as const) }),
  fc.record({ op: fc.constant('wager' as const), by: fc.nat(2), answer }),
);

describe('whatever happens to a bet after its picks were seen', () => {
  it('never accepts a wager again', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const { member, admin, creator, observer, bet, yes } = await openBet();
        const wagerIds = new Map<number, number>([[admin.user.id, yes.id]]);
        // Who may place or change a wager: the two who picked and one who has not.
        const players = [admin, creator, observer];
        let seen = false;
        for (const action of steps) {
          const path = `/api/bets/${bet.id}`;
          if (action.op === 'wager') {
            const player = players[action.by]!;
            const existing = wagerIds.get(player.user.id);
            const response =
              existing === undefined
                ? await postWager(server, player, bet, action.answer, 1)
                : await changeWager(player, existing, action.answer, 2);
            if (seen) expectClosed(response);
            else if (existing === undefined && response.status === 201)
              wagerIds.set(player.user.id, response.body.id as number);
            expect(response.status, response.text).toBeLessThan(500);
            continue;
          }
          const response =
            action.op === 'resolve'
              ? await resolve(server, member, bet, action.answer)
              : action.op === 'undo'
                ? await undo(member, bet)
                : action.op === 'dispute'
                  ? await server.request('POST', `${path}/dispute`, {
                      token: players[action.by]!.accessToken,
                      body: { reason: 'Looks wrong' },
                    })
                  : action.op === 'reResolve'
                    ? await server.request('PUT', `${path}/re-resolve`, {
                        token: creator.accessToken,
                        body: { correctAnswer: action.answer },
                      })
                    : await server.request('POST', `${path}/dispute/dismiss`, {
                        token: admin.accessToken,
                      });
          expect(response.status, response.text).toBeLessThan(500);
          // Once the observer has been able to read the picks, they count as seen for good.
          if ((await picksSeenBy(observer, bet)).status === 200) seen = true;
        }
        // Whoever tries last: refused once the picks were seen, accepted while they never were.
        const last = await postWager(server, await latecomer(bet), bet, 'yes', 1);
        if (seen) expectClosed(last);
        else expect(last.status, last.text).toBe(201);
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});

/** A member who joins the bet's group now and has never wagered on it. */
async function latecomer(bet: Bet): Promise<AuthResponse> {
  const user = await createPlayer(server, 'Latecomer');
  const group = await server.request('GET', `/api/groups/${bet.groupId}`, {
    token: user.accessToken,
  });
  await joinGroup(server, user, group.body);
  return user;
}
