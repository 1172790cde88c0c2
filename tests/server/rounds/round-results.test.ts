import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { runRoundResults } from '../../../src/server/jobs/round-results.job';
import { footballDataProvider, isSameTeam } from '../../../src/server/rounds/football-data';
import { HOUR, NO_EXPIRY_TIMER, resolve } from '../bets/bet.factories';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { startFootballDataStandIn, type FootballDataStandIn } from '../../football-data-stand-in';
import { createRound, csvLine, getRound, tip } from './round.factories';

// Results from football-data.org through the local stand-in of its v4 API: asked only 110
// minutes after kick-off, linked by id or by teams and day, filled through the bets' own
// resolution (history "Result from football-data.org", undoable by the round's creator), never
// over a result an admin typed. Two pollers at once: db/round-results-races.ts (PostgreSQL).

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, RESULTS_INTERVAL_MS: '0' } });
let standIn: FootballDataStandIn;
beforeAll(async () => {
  standIn = await startFootballDataStandIn();
});
afterAll(() => standIn.close());

const deps = () => ({
  db: server.database.db,
  events: server.app.events,
  provider: footballDataProvider({ url: standIn.url, token: standIn.token }),
});
const at = (ms: number) => new Date(server.clock.now().getTime() + ms);

describe('the football-data.org results job', () => {
  it('fills a finished match once, 110 minutes after kick-off, through the resolution path', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const round = await createRound(server, admin, group, {
      name: 'Matchday 3',
      csv: ['date,time,home,away,id', csvLine(server, HOUR, 'Bayern', 'Dortmund', 9001)].join('\n'),
    });
    const match = round.matches[0]!;
    expect(match.providerMatchId).toBe(9001);
    await tip(server, member, match.betId, '2-1');
    standIn.matches = [
      {
        id: 9001,
        utcDate: match.kickoff,
        status: 'FINISHED',
        home: 'FC Bayern München',
        away: 'Borussia Dortmund',
        fullTime: { home: 2, away: 1 },
      },
    ];
    const requestsBefore = standIn.requests.length;
    // 100 minutes after kick-off: not asked yet.
    expect(await runRoundResults(deps(), at(HOUR + 100 * 60_000))).toEqual([]);
    expect(standIn.requests.length).toBe(requestsBefore);
    const filled = await runRoundResults(deps(), at(HOUR + 111 * 60_000));
    expect(filled).toEqual([match.betId]);
    expect(standIn.requests.at(-1)).toBe('/v4/matches?ids=9001');
    // Asked again later: already resolved, nothing more.
    expect(await runRoundResults(deps(), at(HOUR + 200 * 60_000))).toEqual([]);

    const read = await getRound(server, member, round);
    expect(read.matches[0]).toMatchObject({ state: 'resolved', result: '2-1' });
    expect(read.table.find((line) => line.userId === member.user.id)).toMatchObject({
      points: 4,
      exact: 1,
    });
    const history = await server.request('GET', `/api/bets/${match.betId}/history`, {
      token: member.accessToken,
    });
    expect(history.body.at(-1)).toMatchObject({
      kind: 'resolved',
      correctAnswer: '2-1',
      reason: 'Result from football-data.org',
      actorId: null,
    });
    // The round's creator may undo it and set another.
    server.clock.advance(HOUR + 112 * 60_000);
    try {
      const undone = await server.request('POST', `/api/bets/${match.betId}/undo-resolution`, {
        token: admin.accessToken,
      });
      expect(undone.status).toBe(200);
      expect((await resolve(server, admin, { id: match.betId }, '2-2')).status).toBe(200);
      expect((await getRound(server, member, round)).matches[0]!.result).toBe('2-2');
    } finally {
      server.clock.advance(-(HOUR + 112 * 60_000));
    }
  });

  it('waits as long after kick-off as the operator set (ROUND_RESULTS_AFTER_KICKOFF_MINUTES)', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const round = await createRound(server, admin, group, {
      name: 'Matchday 5',
      csv: csvLine(server, HOUR, 'Leipzig', 'Freiburg', 9005),
    });
    const match = round.matches[0]!;
    standIn.matches = [
      {
        id: 9005,
        utcDate: match.kickoff,
        status: 'FINISHED',
        home: 'RB Leipzig',
        away: 'SC Freiburg',
        fullTime: { home: 0, away: 0 },
      },
    ];
    const later = { ...deps(), afterKickoffMs: 130 * 60_000 };
    expect(await runRoundResults(later, at(HOUR + 120 * 60_000))).toEqual([]);
    expect(await runRoundResults(later, at(HOUR + 131 * 60_000))).toEqual([match.betId]);
  });

  it('links a match without an id by its teams and day, and leaves unfinished ones for later', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const round = await createRound(server, admin, group, {
      name: 'Matchday 4',
      csv: [csvLine(server, HOUR, 'Köln', 'Mainz'), csvLine(server, HOUR, 'Union', 'Werder')].join(
        '\n',
      ),
    });
    const [cologne, union] = round.matches as [
      (typeof round.matches)[0],
      (typeof round.matches)[0],
    ];
    standIn.matches = [
      {
        id: 7001,
        utcDate: cologne.kickoff,
        status: 'FINISHED',
        home: '1. FC Köln',
        away: '1. FSV Mainz 05',
        fullTime: { home: 0, away: 3 },
      },
      {
        id: 7002,
        utcDate: union.kickoff,
        status: 'IN_PLAY',
        home: '1. FC Union Berlin',
        away: 'SV Werder Bremen',
      },
    ];
    const later = at(HOUR + 2 * HOUR);
    expect(await runRoundResults(deps(), later)).toEqual([cologne.betId]);
    expect(standIn.requests.at(-1)).toMatch(/^\/v4\/matches\?dateFrom=\d{4}-\d{2}-\d{2}&dateTo=/);
    const read = await getRound(server, admin, round);
    expect(read.matches.map((match) => [match.providerMatchId, match.result])).toEqual([
      [7001, '0-3'],
      [7002, null],
    ]);
    // Not asked again within ten minutes; after that, by its id now.
    standIn.matches[1] = {
      ...standIn.matches[1]!,
      status: 'FINISHED',
      fullTime: { home: 1, away: 1 },
    };
    expect(await runRoundResults(deps(), new Date(later.getTime() + 60_000))).toEqual([]);
    expect(await runRoundResults(deps(), new Date(later.getTime() + 11 * 60_000))).toEqual([
      union.betId,
    ]);
    expect(standIn.requests.at(-1)).toBe('/v4/matches?ids=7002');
  });

  it('never overwrites a result an admin typed', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const round = await createRound(server, admin, group, {
      name: 'Typed',
      csv: ['date,time,home,away,id', csvLine(server, HOUR, 'A', 'B', 5001)].join('\n'),
    });
    const betId = round.matches[0]!.betId;
    expect((await resolve(server, admin, { id: betId }, '1-0')).status).toBe(200);
    standIn.matches = [
      {
        id: 5001,
        utcDate: round.matches[0]!.kickoff,
        status: 'FINISHED',
        home: 'A',
        away: 'B',
        fullTime: { home: 0, away: 0 },
      },
    ];
    expect(await runRoundResults(deps(), at(3 * HOUR))).toEqual([]);
    expect((await getRound(server, admin, round)).matches[0]!.result).toBe('1-0');
  });

  it('stops a pass the provider refuses (a wrong token), filling nothing', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    await createRound(server, admin, group, {
      name: 'Refused',
      csv: ['date,time,home,away,id', csvLine(server, HOUR, 'A', 'B', 6001)].join('\n'),
    });
    const wrong = {
      ...deps(),
      provider: footballDataProvider({ url: standIn.url, token: 'wrong' }),
    };
    await expect(runRoundResults(wrong, at(3 * HOUR))).rejects.toThrow('answered 403');
  });
});

describe('its settings', () => {
  it('polls nothing without a token, and refuses a provider URL that is not http(s)', () => {
    expect(loadConfig({}).roundResults).toEqual({
      token: undefined,
      url: 'https://api.football-data.org',
      intervalMs: 300_000,
      afterKickoffMs: 110 * 60_000,
    });
    expect(() => loadConfig({ FOOTBALL_DATA_URL: 'ftp://example.org' })).toThrow(
      'FOOTBALL_DATA_URL',
    );
  });

  it('takes club names with and without their prefixes as one club', () => {
    expect(isSameTeam('Bayern', 'FC Bayern München')).toBe(true);
    expect(isSameTeam('Köln', '1. FC Köln')).toBe(true);
    expect(isSameTeam('Bayern', 'Borussia Dortmund')).toBe(false);
    expect(isSameTeam('FC', 'FC Köln')).toBe(false);
  });
});
