import { describe, expect, it } from 'vitest';
import { BET_MESSAGES } from '../../../src/domain/bet-limits';
import { ABANDONED_AFTER_MS } from '../../../src/domain/fair-resolution';
import {
  betStatisticsSchema,
  betSchema,
  betUserContextSchema,
  groupBetsResponseSchema,
} from '../../../src/domain/schemas/bets';
import { memberStateResponseSchema } from '../../../src/domain/schemas/member-state';
import {
  createGroup,
  createGroupWithRoles,
  createPlayer,
  recordEvents,
} from '../groups/group.factories';
import { useTestServer } from '../harness';
import {
  cancel,
  createBet,
  DAY,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from './bet.factories';

// Creating and reading bets: validation (docs/groups-and-bets.md §5), who may read what (docs/groups-and-bets.md §6), the
// group lists, statistics that hide others' predictions until resolution, and the
// dashboard maps of /member/state.

const server = useTestServer(NO_EXPIRY_TIMER);

describe('POST /bets', () => {
  it('creates an active bet for a member and publishes betCreated to the group', async () => {
    const { group, member } = await createGroupWithRoles(server);
    const recorder = recordEvents(server);
    const expiresAt = expiresIn(server, DAY);
    const response = await server.request('POST', '/api/bets', {
      token: member.accessToken,
      body: {
        title: '  Who wins the final? ',
        description: 'Sunday',
        betType: 'multiple_choice',
        betTypeConfig: { options: ['Us', 'Them'] },
        baseWagerAmount: 3,
        expiresAt,
        groupId: group.id,
      },
    });
    recorder.stop();
    expect(response.status).toBe(201);
    expect(betSchema.strict().parse(response.body)).toMatchObject({
      title: 'Who wins the final?',
      description: 'Sunday',
      state: 'active',
      groupId: group.id,
      createdBy: member.user.id,
      expiresAt,
      correctAnswer: null,
      resolvedAt: null,
      resolvedBy: null,
      answerTotals: {},
      wagerCount: 0,
    });
    expect(recorder.events).toEqual([
      {
        event: 'betCreated',
        payload: {
          betId: response.body.id,
          title: 'Who wins the final?',
          betType: 'multiple_choice',
          betTypeConfig: { options: ['Us', 'Them'] },
          baseWagerAmount: 3,
          createdBy: member.user.id,
          expiresAt,
          groupId: group.id,
          version: expect.any(Number),
        },
        audience: { groupId: group.id },
      },
    ]);
  });

  it('fills yes/no labels with their defaults', async () => {
    const { group, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, member, group, {
      betTypeConfig: { yesLabel: ' ', noLabel: 'Nope' },
    });
    expect(bet.betTypeConfig).toEqual({ yesLabel: 'Yes', noLabel: 'Nope' });
  });

  it('answers the validation messages of docs/groups-and-bets.md §5', async () => {
    const { member } = await createGroupWithRoles(server);
    const empty = await server.request('POST', '/api/bets', {
      token: member.accessToken,
      body: {},
    });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toEqual({
      title: BET_MESSAGES.titleRequired,
      expiresAt: BET_MESSAGES.expiryRequired,
      baseWagerAmount: BET_MESSAGES.baseWagerRequired,
      betType: BET_MESSAGES.betTypeRequired,
      groupId: BET_MESSAGES.groupRequired,
    });
    const bad = await server.request('POST', '/api/bets', {
      token: member.accessToken,
      body: {
        title: 'x'.repeat(101),
        expiresAt: 'soon',
        baseWagerAmount: 0,
        betType: 'poker',
        groupId: 1,
      },
    });
    expect(bad.body.fieldErrors).toMatchObject({
      title: BET_MESSAGES.titleMax,
      expiresAt: BET_MESSAGES.expiryInvalid,
      baseWagerAmount: BET_MESSAGES.baseWagerMin,
      betType: BET_MESSAGES.betTypeUnknown,
    });
  });

  it.each([
    [
      'multiple_choice',
      { options: ['Only one', ' '] },
      'betTypeConfig.options',
      BET_MESSAGES.optionsMin,
    ],
    [
      'multiple_choice',
      { options: Array.from({ length: 11 }, (_, index) => `O${index}`) },
      'betTypeConfig.options',
      BET_MESSAGES.optionsMax,
    ],
    ['over_under', {}, 'betTypeConfig.line', BET_MESSAGES.lineRequired],
    ['over_under', { line: 'high' }, 'betTypeConfig.line', BET_MESSAGES.lineInvalid],
  ] as const)('refuses a %s config %j', async (betType, betTypeConfig, field, message) => {
    const { group, member } = await createGroupWithRoles(server);
    const response = await server.request('POST', '/api/bets', {
      token: member.accessToken,
      body: {
        title: 'T',
        betType,
        betTypeConfig,
        baseWagerAmount: 1,
        expiresAt: expiresIn(server, DAY),
        groupId: group.id,
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors).toEqual({ [field]: message });
  });

  it('refuses an expiry more than a year ahead (the year 9999 among them)', async () => {
    const { group, member } = await createGroupWithRoles(server);
    const body = { title: 'T', betType: 'yes_no', baseWagerAmount: 1, groupId: group.id };
    for (const expiresAt of [expiresIn(server, 366 * 24 * HOUR), '9999-12-31T23:59:59.000Z']) {
      const response = await server.request('POST', '/api/bets', {
        token: member.accessToken,
        body: { ...body, expiresAt },
      });
      expect(response.status, expiresAt).toBe(400);
      expect(response.body.fieldErrors).toEqual({ expiresAt: BET_MESSAGES.expiryTooFar });
    }
    const withinAYear = await server.request('POST', '/api/bets', {
      token: member.accessToken,
      body: { ...body, expiresAt: expiresIn(server, 364 * 24 * HOUR) },
    });
    expect(withinAYear.status).toBe(201);
  });

  it('refuses an expiry in the past, a non-member and an unknown group', async () => {
    const { group, member, outsider } = await createGroupWithRoles(server);
    const body = {
      title: 'T',
      betType: 'yes_no',
      baseWagerAmount: 1,
      expiresAt: expiresIn(server, -1000),
      groupId: group.id,
    };
    const past = await server.request('POST', '/api/bets', { token: member.accessToken, body });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({
      code: 'validation_failed',
      message: BET_MESSAGES.expiryInPast,
      fieldErrors: { expiresAt: BET_MESSAGES.expiryInPast },
    });
    const future = { ...body, expiresAt: expiresIn(server, HOUR) };
    expect(
      (await server.request('POST', '/api/bets', { token: outsider.accessToken, body: future }))
        .body.code,
    ).toBe('not_member');
    const unknown = await server.request('POST', '/api/bets', {
      token: member.accessToken,
      body: { ...future, groupId: 999_999 },
    });
    expect(unknown.status).toBe(404);
  });

  it('needs a session', async () => {
    expect((await server.request('POST', '/api/bets', { body: {} })).status).toBe(401);
    expect((await server.request('GET', '/api/bets/1')).status).toBe(401);
  });
});

describe('reading bets', () => {
  it('shows a public group bet to any signed-in user, a private one to members only', async () => {
    const publicSide = await createGroupWithRoles(server);
    const privateSide = await createGroupWithRoles(server, { privacy: 'private' });
    const open = await createBet(server, publicSide.creator, publicSide.group);
    const closed = await createBet(server, privateSide.creator, privateSide.group);
    const stranger = await createPlayer(server);
    expect(
      (await server.request('GET', `/api/bets/${open.id}`, { token: stranger.accessToken })).status,
    ).toBe(200);
    for (const path of [
      `/api/bets/${closed.id}`,
      `/api/bets/${closed.id}/user-context`,
      `/api/bets/${closed.id}/statistics`,
      `/api/bets/group/${privateSide.group.id}`,
      `/api/groups/${privateSide.group.id}/bets`,
    ]) {
      const response = await server.request('GET', path, { token: stranger.accessToken });
      expect(response.status, path).toBe(403);
      expect(response.body.code).toBe('not_member');
    }
    expect(
      (
        await server.request('GET', `/api/bets/${closed.id}`, {
          token: privateSide.member.accessToken,
        })
      ).status,
    ).toBe(200);
    expect(
      (await server.request('GET', '/api/bets/999999', { token: stranger.accessToken })).body.code,
    ).toBe('bet_not_found');
  });

  it('gives the user context: the bet, the membership (null for a non-member) and the wager', async () => {
    const { group, creator, member, outsider } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
    const wager = await placeWager(server, member, bet, 'no', 4);
    const mine = await server.request('GET', `/api/bets/${bet.id}/user-context`, {
      token: member.accessToken,
    });
    expect(betUserContextSchema.parse(mine.body)).toMatchObject({
      bet: { id: bet.id, answerTotals: { no: 4 }, wagerCount: 1 },
      membership: {
        groupId: group.id,
        userId: member.user.id,
        availablePoints: 96,
        totalPoints: 100,
      },
      userWager: { id: wager.id, prediction: 'no', points: 4 },
    });
    const theirs = await server.request('GET', `/api/bets/${bet.id}/user-context`, {
      token: outsider.accessToken,
    });
    expect(theirs.body).toMatchObject({ membership: null, userWager: null });
  });

  it('lists a group’s bets newest first, and with statistics under /groups/{id}/bets', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const first = await createBet(server, creator, group, { title: 'First' });
    const second = await createBet(server, member, group, { title: 'Second', betType: 'numeric' });
    await placeWager(server, member, first, 'yes', 1);
    const plain = await server.request('GET', `/api/bets/group/${group.id}`, {
      token: creator.accessToken,
    });
    expect(plain.body.map((bet: { id: number }) => bet.id)).toEqual([second.id, first.id]);
    const withStats = await server.request('GET', `/api/groups/${group.id}/bets`, {
      token: member.accessToken,
    });
    const parsed = groupBetsResponseSchema.parse(withStats.body);
    expect(parsed.map((bet) => bet.id)).toEqual([second.id, first.id]);
    expect(parsed[1]!.statistics).toMatchObject({
      totalParticipants: 1,
      totalMembers: 3,
      userWager: { prediction: 'yes', points: 1 },
    });
    expect(parsed[0]!.statistics).toMatchObject({
      totalParticipants: 0,
      userWager: null,
      answerDistribution: [],
    });
  });

  it('shows in both lists who picked what once betting has closed, as the bet itself does (the bet policy’s seePicks)', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const closing = await createBet(server, creator, group, {
      title: 'Closing',
      expiresAt: expiresIn(server, HOUR),
    });
    const open = await createBet(server, creator, group, { title: 'Open' });
    await placeWager(server, member, closing, 'yes', 1);
    await placeWager(server, member, open, 'no', 1);
    server.clock.advance(2 * HOUR);
    try {
      const single = await server.request('GET', `/api/bets/${closing.id}`, {
        token: creator.accessToken,
      });
      expect(single.body.picks).toMatchObject([
        { userId: member.user.id, prediction: 'yes', points: 1 },
      ]);
      for (const path of [`/api/bets/group/${group.id}`, `/api/groups/${group.id}/bets`]) {
        const listed = await server.request('GET', path, { token: creator.accessToken });
        const byId = new Map(
          betSchema
            .array()
            .parse(listed.body)
            .map((bet) => [bet.id, bet]),
        );
        expect(byId.get(closing.id)?.picks, path).toEqual(single.body.picks);
        expect(byId.get(open.id)?.picks, path).toBeUndefined();
      }
    } finally {
      server.clock.advance(-2 * HOUR);
    }
  });
});

describe('GET /bets/{id}/statistics', () => {
  it('shows per-answer totals but never who picked what before resolution, then winners and losers', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
    await placeWager(server, admin, bet, 'yes', 2);
    await placeWager(server, member, bet, 'no', 6);
    const before = await server.request('GET', `/api/bets/${bet.id}/statistics`, {
      token: creator.accessToken,
    });
    const stats = betStatisticsSchema.strict().parse(before.body);
    expect(stats).toMatchObject({
      isResolved: false,
      correctAnswer: null,
      totalParticipants: 2,
      totalMembers: 3,
      participationRate: 66.7,
      totalPoints: 8,
      averagePoints: 4,
      userWager: null,
      winnerLoserBreakdown: { totalWinners: 0, totalLosers: 0 },
      answerDistribution: [
        { answer: 'yes', participantCount: 1, percentage: 50, totalPoints: 2 },
        { answer: 'no', participantCount: 1, percentage: 50, totalPoints: 6 },
      ],
    });
    // The strict parse above rules out extra fields; nothing in it names a user.
    expect(JSON.stringify(before.body)).not.toMatch(/userId|"user"/);
    const own = await server.request('GET', `/api/bets/${bet.id}/statistics`, {
      token: member.accessToken,
    });
    expect(own.body.userWager).toEqual({ prediction: 'no', points: 6 });

    await resolve(server, creator, bet, 'no');
    const after = await server.request('GET', `/api/bets/${bet.id}/statistics`, {
      token: creator.accessToken,
    });
    expect(after.body).toMatchObject({
      isResolved: true,
      correctAnswer: 'no',
      winnerLoserBreakdown: {
        totalWinners: 1,
        winnerPercentage: 50,
        winnersPoints: 6,
        totalLosers: 1,
        loserPercentage: 50,
        losersPoints: 2,
      },
    });
    // The viewer's line says what the payout gave back, so the results screens can word it.
    const settled = await server.request('GET', `/api/bets/${bet.id}/statistics`, {
      token: member.accessToken,
    });
    expect(betStatisticsSchema.strict().parse(settled.body)).toMatchObject({
      userWager: { prediction: 'no', points: 6, winnings: 8 },
      refundReason: null,
    });
  });
});

describe('GET /member/state', () => {
  it('lists unwagered open bets of my groups and the active bets I created', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const otherGroup = await createGroup(server, creator);
    const wagered = await createBet(server, creator, group, { title: 'Wagered' });
    const open = await createBet(server, creator, group, { title: 'Open' });
    const closing = await createBet(server, member, group, {
      title: 'Closing',
      expiresAt: expiresIn(server, HOUR),
    });
    const elsewhere = await createBet(server, creator, otherGroup, { title: 'Not my group' });
    const done = await createBet(server, member, group, { title: 'Done' });
    const dropped = await createBet(server, member, group, { title: 'Dropped' });
    await placeWager(server, member, wagered, 'yes', 1);
    await resolve(server, member, done, 'yes');
    await cancel(server, member, dropped);

    const state = memberStateResponseSchema.parse(
      (await server.request('GET', '/api/member/state', { token: member.accessToken })).body,
    );
    expect(Object.keys(state.unwageredBets).map(Number).sort()).toEqual(
      [open.id, closing.id].sort(),
    );
    expect(state.unwageredBets[String(open.id)]).toMatchObject({
      title: 'Open',
      groupId: group.id,
      betType: 'yes_no',
      createdBy: creator.user.id,
    });
    expect(Object.keys(state.betsToResolve).map(Number)).toEqual([closing.id]);
    expect(state.unwageredBets[String(elsewhere.id)]).toBeUndefined();

    // Past its expiry a bet leaves the wager queue but stays in its creator's resolve queue.
    server.clock.advance(2 * HOUR);
    try {
      const later = memberStateResponseSchema.parse(
        (await server.request('GET', '/api/member/state', { token: member.accessToken })).body,
      );
      expect(Object.keys(later.unwageredBets).map(Number)).toEqual([open.id]);
      expect(Object.keys(later.betsToResolve).map(Number)).toEqual([closing.id]);
    } finally {
      server.clock.advance(-2 * HOUR);
    }
  });

  it("lists to resolve what the bet policy lets me resolve: as an admin, a departed creator's bet and an abandoned one too", async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const own = await createBet(server, admin, group, { title: 'Mine' });
    const others = await createBet(server, creator, group, {
      title: "The creator's",
      expiresAt: expiresIn(server, HOUR),
    });
    const departed = await createBet(server, member, group, { title: 'Left behind' });
    await server.request('POST', `/api/groups/${group.id}/leave`, { token: member.accessToken });
    const toResolve = async () =>
      Object.keys(
        memberStateResponseSchema.parse(
          (await server.request('GET', '/api/member/state', { token: admin.accessToken })).body,
        ).betsToResolve,
      )
        .map(Number)
        .sort((a, b) => a - b);

    expect(await toResolve()).toEqual([own.id, departed.id]);
    // A day after its close without a result, the creator's bet is abandoned: admins resolve it too.
    server.clock.advance(HOUR + ABANDONED_AFTER_MS);
    try {
      expect(await toResolve()).toEqual([own.id, others.id, departed.id]);
    } finally {
      server.clock.advance(-(HOUR + ABANDONED_AFTER_MS));
    }
  });
});
