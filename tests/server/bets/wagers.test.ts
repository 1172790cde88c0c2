import { describe, expect, it } from 'vitest';
import { BET_MESSAGES } from '../../../src/domain/bet-limits';
import {
  createGroup,
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  recordEvents,
} from '../groups/group.factories';
import { useTestServer } from '../harness';
import {
  createBet,
  DAY,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  postWager,
  resolve,
} from './bet.factories';

// Wagers (docs/groups-and-bets.md §4, docs/architecture.md §4): members only, while the bet is open, one per bet,
// points of 1–3× the base; placing debits and changing debits or credits the difference,
// atomically, so nothing running at the same time can overspend.

const server = useTestServer(NO_EXPIRY_TIMER);

describe('placing a wager', () => {
  it('debits available points, keeps total, and stores the wager', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
    const response = await postWager(server, member, bet, ' yes ', 6);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      betId: bet.id,
      userId: member.user.id,
      prediction: 'yes',
      points: 6,
    });
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 94 });
  });

  it('refuses a second wager on the same bet with 409, saying to update it', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const first = await placeWager(server, creator, bet, 'yes', 1);
    const second = await postWager(server, creator, bet, 'no', 2);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('wager_exists');
    expect(second.body.message).toContain('Update it instead');
    expect(second.body.message).toContain(String(first.id));
    expect(await pointsOf(server, creator, group)).toEqual({ total: 100, available: 99 });
  });

  it('refuses a non-member with 403 not_member', async () => {
    const { group, creator, outsider } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const response = await postWager(server, outsider, bet, 'yes', 1);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      code: 'not_member',
      message: "You're not a member of this group",
    });
  });

  it('refuses a wager after expiry with 422 bet_closed', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, {
      expiresAt: new Date(server.clock.now().getTime() + HOUR).toISOString(),
    });
    server.clock.advance(HOUR + 1000);
    try {
      const response = await postWager(server, member, bet, 'yes', 1);
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({
        code: 'bet_closed',
        message: 'This bet has expired: wagers are no longer accepted.',
      });
    } finally {
      server.clock.advance(-(HOUR + 1000));
    }
  });

  it('refuses a wager on a resolved bet', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    const response = await postWager(server, member, bet, 'yes', 1);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('bet_closed');
  });

  it.each([0, 1, 3, 5, 8, 12])(
    'refuses %i points on a bet of base 2 with a message naming the allowed amounts',
    async (points) => {
      const { group, creator, member } = await createGroupWithRoles(server);
      const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
      const response = await postWager(server, member, bet, 'yes', points);
      expect(response.status).toBe(400);
      if (points === 0) {
        expect(response.body.fieldErrors).toEqual({ points: BET_MESSAGES.pointsMin });
      } else {
        expect(response.body).toMatchObject({
          code: 'invalid_wager_points',
          message: 'Points must be 1, 2 or 3 times the base wager amount: 2, 4 or 6.',
          fieldErrors: { points: 'Points must be 2, 4 or 6' },
        });
      }
      expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 100 });
    },
  );

  it.each([
    ['yes_no', {}, 'maybe', BET_MESSAGES.yesNo],
    ['yes_no', {}, 'Yes', BET_MESSAGES.yesNo],
    ['multiple_choice', { options: ['A', 'B'] }, 'C', BET_MESSAGES.notAnOption],
    ['numeric', {}, 'ten', BET_MESSAGES.numberInvalid],
    ['numeric', {}, '1e3', BET_MESSAGES.numberInvalid],
    ['over_under', { line: 1.5 }, 'above', BET_MESSAGES.overUnder],
  ] as const)(
    'refuses a %s prediction that does not fit (%j, %s)',
    async (betType, betTypeConfig, prediction, message) => {
      const { group, creator, member } = await createGroupWithRoles(server);
      const bet = await createBet(server, creator, group, { betType, betTypeConfig });
      const response = await postWager(server, member, bet, prediction, 1);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'invalid_prediction',
        message,
        fieldErrors: { prediction: message },
      });
    },
  );

  it('answers the schema messages of docs/groups-and-bets.md §5 for a missing prediction, points and bet', async () => {
    const { member } = await createGroupWithRoles(server);
    const response = await server.request('POST', '/api/bets/wagers', {
      token: member.accessToken,
      body: { prediction: '  ' },
    });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors).toEqual({
      betId: BET_MESSAGES.betRequired,
      prediction: BET_MESSAGES.predictionRequired,
      points: BET_MESSAGES.pointsRequired,
    });
  });

  it('answers 404 bet_not_found for an unknown bet', async () => {
    const { member } = await createGroupWithRoles(server);
    const response = await postWager(server, member, { id: 999_999 }, 'yes', 1);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('bet_not_found');
  });

  it('refuses with 422 insufficient_points when available points do not cover the wager', async () => {
    const owner = await createPlayer(server);
    const group = await createGroup(server, owner, { defaultPoints: 2 });
    const bet = await createBet(server, owner, group, { baseWagerAmount: 3 });
    const response = await postWager(server, owner, bet, 'yes', 3);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      code: 'insufficient_points',
      message: 'Not enough points: this needs 3 and you have 2 available.',
    });
    expect(await pointsOf(server, owner, group)).toEqual({ total: 2, available: 2 });
    // The wager is inserted in the debit's statement: the refusal takes it back with the rest.
    const mine = await server.request('GET', `/api/bets/user/wagers?group=${group.id}`, {
      token: owner.accessToken,
    });
    expect(mine.body).toEqual([]);
    const after = await server.request('GET', `/api/bets/${bet.id}`, { token: owner.accessToken });
    expect(after.body).toEqual(bet);
  });

  it('tells the group only the new totals, gathered and without the wagerer; the wagerer hears their own at once', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
    const earlier = recordEvents(server);
    await placeWager(server, creator, bet, 'no', 2);
    // The first wager's announcement goes out before the one under test starts.
    await expect
      .poll(() =>
        earlier.events.some(
          (published) => published.event === 'wagerPlaced' && published.payload.betId === bet.id,
        ),
      )
      .toBe(true);
    earlier.stop();
    const recorder = recordEvents(server);
    try {
      await placeWager(server, member, bet, 'yes', 6);
      expect(await postWager(server, member, bet, 'yes', 2)).toMatchObject({ status: 409 });
      await expect
        .poll(() =>
          recorder.events.some(
            (published) => published.event === 'wagerPlaced' && published.payload.betId === bet.id,
          ),
        )
        .toBe(true);
    } finally {
      recorder.stop();
    }
    // Other tests' bets are announced on the same server meanwhile.
    expect(
      recorder.events.filter(
        (published) => 'betId' in published.payload && published.payload.betId === bet.id,
      ),
    ).toEqual([
      {
        event: 'wagerSaved',
        payload: {
          groupId: group.id,
          userId: member.user.id,
          betId: bet.id,
          points: 6,
          previousPoints: 0,
          answerTotals: { no: 2, yes: 6 },
          pool: 8,
          wagerCount: 2,
          version: expect.any(Number),
        },
        audience: { groupId: group.id },
      },
      {
        event: 'wagerPlaced',
        payload: {
          groupId: group.id,
          betId: bet.id,
          answerTotals: { no: 2, yes: 6 },
          pool: 8,
          wagerCount: 2,
          version: expect.any(Number),
        },
        audience: { groupId: group.id },
      },
    ]);
    expect(JSON.stringify(recorder.events)).not.toContain('prediction');
  });
});

describe('changing a wager', () => {
  it('debits a raise and credits a cut, by the difference', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { baseWagerAmount: 3 });
    const wager = await placeWager(server, member, bet, 'yes', 3);
    const recorder = recordEvents(server);
    const raised = await server.request('PUT', `/api/bets/wagers/${wager.id}`, {
      token: member.accessToken,
      body: { prediction: 'no', points: 9 },
    });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ id: wager.id, prediction: 'no', points: 9 });
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 91 });
    const cut = await server.request('PUT', `/api/bets/wagers/${wager.id}`, {
      token: member.accessToken,
      body: { prediction: 'no', points: 6 },
    });
    expect(cut.status).toBe(200);
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 94 });
    recorder.stop();
    expect(
      recorder.events
        .filter((published) => published.event === 'wagerSaved')
        .map((published) => published.payload),
    ).toEqual([
      {
        groupId: group.id,
        userId: member.user.id,
        betId: bet.id,
        points: 9,
        previousPoints: 3,
        answerTotals: { no: 9 },
        pool: 9,
        wagerCount: 1,
        version: expect.any(Number),
      },
      {
        groupId: group.id,
        userId: member.user.id,
        betId: bet.id,
        points: 6,
        previousPoints: 9,
        answerTotals: { no: 6 },
        pool: 6,
        wagerCount: 1,
        version: expect.any(Number),
      },
    ]);
    const context = await server.request('GET', `/api/bets/${bet.id}/user-context`, {
      token: member.accessToken,
    });
    expect(context.body.userWager).toMatchObject({ id: wager.id, prediction: 'no', points: 6 });
  });

  it('refuses a raise the available points cannot cover and changes nothing', async () => {
    const owner = await createPlayer(server);
    const group = await createGroup(server, owner, { defaultPoints: 4 });
    const bet = await createBet(server, owner, group, { baseWagerAmount: 2 });
    const wager = await placeWager(server, owner, bet, 'yes', 2);
    const response = await server.request('PUT', `/api/bets/wagers/${wager.id}`, {
      token: owner.accessToken,
      body: { prediction: 'yes', points: 6 },
    });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('insufficient_points');
    expect(await pointsOf(server, owner, group)).toEqual({ total: 4, available: 2 });
  });

  it("refuses another user's wager, an unknown wager, and a change after expiry", async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, {
      expiresAt: new Date(server.clock.now().getTime() + DAY).toISOString(),
    });
    const wager = await placeWager(server, member, bet, 'yes', 1);
    const other = await server.request('PUT', `/api/bets/wagers/${wager.id}`, {
      token: creator.accessToken,
      body: { prediction: 'no', points: 1 },
    });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('not_wager_owner');
    const unknown = await server.request('PUT', '/api/bets/wagers/999999', {
      token: member.accessToken,
      body: { prediction: 'no', points: 1 },
    });
    expect(unknown.status).toBe(404);
    server.clock.advance(DAY + 1);
    try {
      const late = await server.request('PUT', `/api/bets/wagers/${wager.id}`, {
        token: member.accessToken,
        body: { prediction: 'no', points: 2 },
      });
      expect(late.status).toBe(422);
      expect(late.body.code).toBe('bet_closed');
    } finally {
      server.clock.advance(-(DAY + 1));
    }
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 99 });
  });
});

describe('GET /bets/user/wagers', () => {
  it("lists only the caller's wagers, optionally in one group", async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const other = await createGroup(server, member);
    const bet = await createBet(server, creator, group);
    const elsewhere = await createBet(server, member, other);
    await placeWager(server, member, bet, 'yes', 1);
    await placeWager(server, member, elsewhere, 'no', 1);
    await placeWager(server, creator, bet, 'no', 1);
    const all = await server.request('GET', '/api/bets/user/wagers', { token: member.accessToken });
    expect(all.body.map((wager: { betId: number }) => wager.betId).sort()).toEqual(
      [bet.id, elsewhere.id].sort(),
    );
    const one = await server.request('GET', `/api/bets/user/wagers?group=${other.id}`, {
      token: member.accessToken,
    });
    expect(one.body).toHaveLength(1);
    expect(one.body[0]).toMatchObject({ betId: elsewhere.id, userId: member.user.id });
    await joinGroup(server, creator, other);
  });
});
