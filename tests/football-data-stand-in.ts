import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for football-data.org's v4 API: GET /v4/matches with the X-Auth-Token
// header, by `ids` or by `dateFrom`/`dateTo`, answering the recorded shape of the real answer
// (its fields the results job reads, and some it does not). Tests set its matches.

export interface StandInMatch {
  id: number;
  utcDate: string;
  status: 'SCHEDULED' | 'IN_PLAY' | 'FINISHED' | 'POSTPONED';
  home: string;
  away: string;
  fullTime?: { home: number | null; away: number | null };
}

export interface FootballDataStandIn {
  url: string;
  token: string;
  matches: StandInMatch[];
  /** Each request's path and query, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** The recorded shape of one match of a v4 /matches answer. */
function recorded(match: StandInMatch) {
  return {
    area: { id: 2088, name: 'Germany', code: 'DEU' },
    competition: { id: 2002, name: 'Bundesliga', code: 'BL1', type: 'LEAGUE' },
    season: { id: 2290, startDate: '2026-08-21', endDate: '2027-05-22', currentMatchday: 12 },
    id: match.id,
    utcDate: match.utcDate,
    status: match.status,
    matchday: 12,
    stage: 'REGULAR_SEASON',
    lastUpdated: match.utcDate,
    homeTeam: { id: match.id * 10, name: match.home, shortName: match.home, tla: 'HOM' },
    awayTeam: { id: match.id * 10 + 1, name: match.away, shortName: match.away, tla: 'AWA' },
    score: {
      winner: null,
      duration: 'REGULAR',
      fullTime: match.fullTime ?? { home: null, away: null },
      halfTime: { home: null, away: null },
    },
    referees: [],
  };
}

export async function startFootballDataStandIn(
  token = 'stand-in-token',
): Promise<FootballDataStandIn> {
  const standIn = { matches: [] as StandInMatch[], requests: [] as string[] };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    standIn.requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers['x-auth-token'] !== token)
      return send(403, {
        message: 'The resource you are looking for is restricted.',
        errorCode: 403,
      });
    if (request.method !== 'GET' || url.pathname !== '/v4/matches')
      return send(404, { message: 'Not found', errorCode: 404 });
    const ids = url.searchParams.get('ids');
    const from = url.searchParams.get('dateFrom');
    const to = url.searchParams.get('dateTo');
    const matches = standIn.matches.filter((match) =>
      ids
        ? ids.split(',').map(Number).includes(match.id)
        : from && to
          ? match.utcDate.slice(0, 10) >= from && match.utcDate.slice(0, 10) <= to
          : true,
    );
    send(200, {
      filters: Object.fromEntries(url.searchParams),
      resultSet: { count: matches.length },
      matches: matches.map(recorded),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    get matches() {
      return standIn.matches;
    },
    set matches(value) {
      standIn.matches = value;
    },
    requests: standIn.requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
