import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betHistory } from '../../../src/server/db/schema';
import { runRoundResults } from '../../../src/server/jobs/round-results.job';
import { footballDataProvider } from '../../../src/server/rounds/football-data';
import { HOUR, resolve } from '../bets/bet.factories';
import { createGroupWithRoles } from '../groups/group.factories';
import type { TestServer } from '../harness';
import { startFootballDataStandIn, type FootballDataStandIn } from '../../football-data-stand-in';
import { createRound, csvLine } from '../rounds/round.factories';

// The round results job on two instances at once (src/server/jobs/round-results.job.ts), run
// by db/concurrency.test.ts on PGlite and on PostgreSQL: each match is asked about by one
// poller, and each result is filled once, also when an admin types one at the same moment.

export function describeRoundResultsRaces(server: TestServer): void {
  let standIn: FootballDataStandIn;
  beforeAll(async () => {
    standIn = await startFootballDataStandIn();
  });
  afterAll(() => standIn.close());

  /** One poller, as an instance of its own runs it. */
  const poller = () => ({
    db: server.database.db,
    events: server.app.events,
    provider: footballDataProvider({ url: standIn.url, token: standIn.token }),
  });

  describe('results pollers racing', () => {
    it('fills each finished match once when two pollers and an admin race', async () => {
      const { group, admin } = await createGroupWithRoles(server);
      const lines = Array.from({ length: 6 }, (_, index) =>
        csvLine(server, HOUR, `Home ${index}`, `Away ${index}`, 8100 + index),
      );
      const round = await createRound(server, admin, group, {
        name: 'Race day',
        csv: ['date,time,home,away,id', ...lines].join('\n'),
      });
      standIn.matches = round.matches.map((match, index) => ({
        id: match.providerMatchId!,
        utcDate: match.kickoff,
        status: 'FINISHED',
        home: match.home,
        away: match.away,
        fullTime: { home: index % 3, away: 1 },
      }));
      const asked = standIn.requests.length;
      const later = new Date(server.clock.now().getTime() + 3 * HOUR);
      const [first, second, typed] = await Promise.all([
        runRoundResults(poller(), later),
        runRoundResults(poller(), later),
        resolve(server, admin, { id: round.matches[0]!.betId }, '5-5'),
      ]);
      const filled = [...first, ...second];
      const betIds = round.matches.map((match) => match.betId);
      // Every match resolved once: by a poller, or (the first) by the admin.
      expect(new Set(filled).size).toBe(filled.length);
      expect(filled.length + (typed.status === 200 ? 1 : 0)).toBe(betIds.length);
      const [resolutions] = await server.database.db
        .select({ count: count() })
        .from(betHistory)
        .where(and(inArray(betHistory.betId, betIds), eq(betHistory.kind, 'resolved')));
      expect(resolutions!.count).toBe(betIds.length);
      // Each match was asked about by one poller only.
      const askedIds = standIn.requests
        .slice(asked)
        .flatMap((request) => new URLSearchParams(request.split('?')[1]).get('ids')!.split(','));
      expect(askedIds.sort()).toEqual(
        round.matches.map((match) => String(match.providerMatchId)).sort(),
      );
    });
  });
}
