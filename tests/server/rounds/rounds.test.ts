import { describe, expect, it } from 'vitest';
import { HOUR, NO_EXPIRY_TIMER, createBet, pointsOf, resolve } from '../bets/bet.factories';
import { createGroupWithRoles, createPlayer, joinGroup } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { inboxOf, sendReminders } from '../notifications/notification.factories';
import { createRound, csvLine, getRound, postRound, tip } from './round.factories';

// Tipping rounds through the API: creation from a fixture list (admins only, all or nothing,
// a bad line named), score tips as 0-point wagers hidden until the close, results by hand,
// the round's table by the scoring table, and the scoring's edits before the first kick-off.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, RESULTS_INTERVAL_MS: '0' } });

describe('creating a round', () => {
  it('makes one score-tip bet per line of a pasted CSV, for admins only', async () => {
    const { group, admin, member, outsider } = await createGroupWithRoles(server);
    const csv = [
      'Date,Time,HomeTeam,AwayTeam',
      csvLine(server, 2 * HOUR, 'Bayern', 'Dortmund'),
      csvLine(server, 3 * HOUR, 'Köln', 'Mainz'),
    ].join('\n');
    const round = await createRound(server, admin, group, { name: 'Matchday 12', csv });
    expect(round).toMatchObject({
      name: 'Matchday 12',
      scoring: { exact: 4, difference: 3, tendency: 2 },
      matches: [
        { home: 'Bayern', away: 'Dortmund', state: 'active', result: null },
        { home: 'Köln', away: 'Mainz', state: 'active', result: null },
      ],
      matchdayWinners: [],
    });
    const bet = await server.request('GET', `/api/bets/${round.matches[0]!.betId}`, {
      token: member.accessToken,
    });
    expect(bet.body).toMatchObject({ betType: 'score_tip', title: 'Bayern – Dortmund' });
    expect(bet.body.expiresAt).toBe(round.matches[0]!.kickoff);

    const byMember = await postRound(server, member, group, { name: 'Mine', csv });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe('not_group_admin');
    const byOutsider = await postRound(server, outsider, group, { name: 'Mine', csv });
    expect(byOutsider.status).toBe(403);
  });

  it('refuses a list with a bad line whole, naming the line and the field', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const before = await server.request('GET', `/api/groups/${group.id}/bets`, {
      token: admin.accessToken,
    });
    const cases: Array<[string, string]> = [
      [`${csvLine(server, HOUR, 'A', 'B')}\n31/02/2027,15:30,C,D`, 'Line 2, date'],
      [
        `${csvLine(server, HOUR, 'A', 'B')}\n${csvLine(server, HOUR, 'C', '')}`,
        'Line 2, away team',
      ],
      [
        `${csvLine(server, HOUR, 'A', 'B')}\n${csvLine(server, -HOUR, 'C', 'D')}`,
        'Line 2, kick-off',
      ],
      [
        `${csvLine(server, HOUR, 'A', 'B')}\n${csvLine(server, 2 * HOUR, 'A', 'B')}`,
        'Line 2, home team',
      ],
    ];
    for (const [csv, named] of cases) {
      const response = await postRound(server, admin, group, { name: 'Bad', csv });
      expect(response.status, csv).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.message).toContain(named);
      expect(response.body.fieldErrors?.csv).toContain(named);
    }
    const typed = await postRound(server, admin, group, {
      name: 'Typed',
      matches: [
        {
          home: 'A',
          away: 'B',
          kickoff: new Date(server.clock.now().getTime() + HOUR).toISOString(),
        },
        { home: 'C', away: 'D', kickoff: 'tomorrow' },
      ],
    });
    expect(typed.status).toBe(400);
    expect(typed.body.fieldErrors).toHaveProperty(['matches.1.kickoff']);
    const both = await postRound(server, admin, group, { name: 'Both', csv: 'x', ics: 'y' });
    expect(both.status).toBe(400);

    const list = await server.request('GET', `/api/groups/${group.id}/rounds`, {
      token: admin.accessToken,
    });
    expect(list.body.rounds).toEqual([]);
    const after = await server.request('GET', `/api/groups/${group.id}/bets`, {
      token: admin.accessToken,
    });
    expect(after.body).toHaveLength(before.body.length);
  });

  it('reads an iCalendar file in its own zones', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const start = new Date(server.clock.now().getTime() + 5 * HOUR);
    const stamp = start.toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
    const ics = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      `DTSTART:${stamp}`,
      'SUMMARY:Arsenal vs Chelsea',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const round = await createRound(server, admin, group, {
      name: 'Calendar',
      ics,
      closeMinutesBefore: 15,
    });
    expect(round.matches).toMatchObject([{ home: 'Arsenal', away: 'Chelsea' }]);
    expect(Date.parse(round.matches[0]!.kickoff) - Date.parse(round.matches[0]!.closesAt)).toBe(
      15 * 60_000,
    );
  });
});

describe("a round's news", () => {
  it('tells nobody of each match as a new bet, nor reminds of each match closing', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const round = await createRound(server, admin, group, {
      name: 'Quiet',
      csv: [csvLine(server, HOUR, 'A', 'B'), csvLine(server, HOUR, 'C', 'D')].join('\n'),
    });
    // A bet of the pool game made after it: its news is the witness that the inbox has caught up.
    await createBet(server, admin, group, { title: 'Witness' });
    await sendReminders(server, new Date(Date.parse(round.matches[0]!.closesAt) - 60_000));
    const { notifications } = await inboxOf(server, member);
    const matchIds = new Set(round.matches.map((match) => match.betId));
    expect(notifications.filter((entry) => entry.kind === 'betCreated')).toHaveLength(1);
    expect(
      notifications.filter((entry) => entry.betId !== null && matchIds.has(entry.betId)),
    ).toEqual([]);
  });
});

describe('tipping and scoring', () => {
  it('takes score tips as 0-point wagers and refuses what is not a score', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const round = await createRound(server, admin, group, {
      name: 'Tips',
      csv: csvLine(server, 2 * HOUR, 'A', 'B'),
    });
    const betId = round.matches[0]!.betId;
    const points = await pointsOf(server, member, group);
    for (const bad of ['two-one', '-1-0', '99-99', '31-0'])
      expect((await tip(server, member, betId, bad)).body.code, bad).toBe('invalid_prediction');
    const staked = await tip(server, member, betId, '2-1', 1);
    expect(staked.status).toBe(400);
    expect(staked.body.fieldErrors).toEqual({
      points: 'A score tip stakes no points: send points 0',
    });
    const placed = await tip(server, member, betId, ' 2:1 ');
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ prediction: '2-1', points: 0 });
    expect(await pointsOf(server, member, group)).toEqual(points);

    const direct = await createBet(server, admin, group).catch((error: Error) => error);
    expect(direct).not.toBeInstanceOf(Error);
    const scoreTipBet = await server.request('POST', '/api/bets', {
      token: admin.accessToken,
      body: {
        title: 'A - B',
        betType: 'score_tip',
        betTypeConfig: { home: 'A', away: 'B' },
        baseWagerAmount: 1,
        expiresAt: new Date(server.clock.now().getTime() + HOUR).toISOString(),
        groupId: group.id,
      },
    });
    expect(scoreTipBet.status).toBe(400);
  });

  it('keeps tips hidden until the close and refuses tips after it', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const round = await createRound(server, admin, group, {
      name: 'Hidden',
      csv: csvLine(server, HOUR, 'A', 'B'),
    });
    const betId = round.matches[0]!.betId;
    await tip(server, member, betId, '1-0');
    const before = await server.request('GET', `/api/bets/${betId}`, { token: admin.accessToken });
    expect(before.body.picks ?? null).toBeNull();
    server.clock.advance(2 * HOUR);
    try {
      const after = await server.request('GET', `/api/bets/${betId}`, { token: admin.accessToken });
      expect(after.body.picks).toMatchObject([{ userId: member.user.id, prediction: '1-0' }]);
      const late = await tip(server, admin, betId, '0-0');
      expect(late.status).toBe(422);
      expect(late.body.code).toBe('bet_closed');
    } finally {
      server.clock.advance(-2 * HOUR);
    }
  });

  it('scores 4 / 3 / 2 / 0 by the table, a skipped match 0, and names the Matchday winner', async () => {
    const { group, admin, member, creator } = await createGroupWithRoles(server);
    const late = await createPlayer(server, 'Skipper');
    await joinGroup(server, late, group);
    const round = await createRound(server, admin, group, {
      name: 'Matchday 1',
      csv: [csvLine(server, HOUR, 'A', 'B'), csvLine(server, HOUR, 'C', 'D')].join('\n'),
    });
    const [first, second] = round.matches.map((match) => match.betId) as [number, number];
    const tips: Array<[typeof admin, number, string]> = [
      [admin, first, '2-1'], // exact: 4
      [member, first, '3-2'], // difference: 3
      [creator, first, '3-0'], // tendency: 2
      [late, first, '0-2'], // wrong: 0
      [admin, second, '1-1'], // a draw on 0-0: the right difference, 3
      [member, second, '0-3'], // wrong tendency: 0
      // creator skips the second match: 0
      [late, second, '2-2'], // draw on 0-0: difference 3
    ];
    for (const [user, betId, prediction] of tips)
      expect((await tip(server, user, betId, prediction)).status).toBe(201);
    const points = await Promise.all(
      [admin, member, creator, late].map((u) => pointsOf(server, u, group)),
    );
    server.clock.advance(2 * HOUR);
    try {
      expect((await resolve(server, admin, { id: first }, 'two-one')).status).toBe(400);
      expect((await resolve(server, admin, { id: first }, '2-1')).status).toBe(200);
      const half = await getRound(server, member, round);
      expect(half.matchdayWinners).toEqual([]);
      expect((await resolve(server, admin, { id: second }, '0-0')).status).toBe(200);
      const done = await getRound(server, member, round);
      expect(done.matches.map((match) => match.result)).toEqual(['2-1', '0-0']);
      const byUser = new Map(done.table.map((line) => [line.userId, line]));
      expect(byUser.get(admin.user.id)).toMatchObject({ points: 7, exact: 1, difference: 1 });
      expect(byUser.get(member.user.id)).toMatchObject({
        points: 3,
        exact: 0,
        difference: 1,
        tendency: 0,
      });
      expect(byUser.get(creator.user.id)).toMatchObject({ points: 2, tendency: 1, difference: 0 });
      expect(byUser.get(late.user.id)).toMatchObject({ points: 3, difference: 1 });
      expect(done.table[0]!.userId).toBe(admin.user.id);
      expect(done.matchdayWinners).toEqual([admin.user.id]);
      // The pool game's points never moved.
      expect(
        await Promise.all([admin, member, creator, late].map((u) => pointsOf(server, u, group))),
      ).toEqual(points);
      const list = await server.request('GET', `/api/groups/${group.id}/rounds`, {
        token: member.accessToken,
      });
      expect(list.body.rounds).toMatchObject([
        { id: round.id, matchCount: 2, matchdayWinners: [admin.user.id] },
      ]);
      expect(list.body.totals[0]).toMatchObject({ userId: admin.user.id, points: 7 });
    } finally {
      server.clock.advance(-2 * HOUR);
    }
  });

  it('lets an admin change the scoring before the first kick-off, and not after', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const round = await createRound(server, admin, group, {
      name: 'Scoring',
      csv: csvLine(server, HOUR, 'A', 'B'),
    });
    const path = `/api/groups/${group.id}/rounds/${round.id}`;
    const scoring = { exact: 5, difference: 3, tendency: 1 };
    const byMember = await server.request('PATCH', path, {
      token: member.accessToken,
      body: { scoring },
    });
    expect(byMember.status).toBe(403);
    const disordered = await server.request('PATCH', path, {
      token: admin.accessToken,
      body: { scoring: { exact: 1, difference: 3, tendency: 2 } },
    });
    expect(disordered.status).toBe(400);
    const changed = await server.request('PATCH', path, {
      token: admin.accessToken,
      body: { scoring },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.scoring).toEqual(scoring);
    // The group's next round starts from it.
    const next = await createRound(server, admin, group, {
      name: 'Next',
      csv: csvLine(server, 2 * HOUR, 'C', 'D'),
    });
    expect(next.scoring).toEqual(scoring);
    server.clock.advance(2 * HOUR);
    try {
      const late = await server.request('PATCH', path, {
        token: admin.accessToken,
        body: { scoring: { exact: 4, difference: 3, tendency: 2 } },
      });
      expect(late.status).toBe(422);
      expect(late.body.code).toBe('round_started');
    } finally {
      server.clock.advance(-2 * HOUR);
    }
  });
});
