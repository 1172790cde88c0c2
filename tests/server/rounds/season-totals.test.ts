import { describe, expect, it } from 'vitest';
import type { RoundList } from '../../../src/domain/schemas/rounds';
import { HOUR, NO_EXPIRY_TIMER, resolve } from '../bets/bet.factories';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { createRound, csvLine, tip } from './round.factories';

// The season's running total on the rounds list (docs/rules.md "Tipping rounds"): each
// player's round points summed over the running season's rounds (a round counts by its first
// kick-off); with no season running, over all the group's rounds.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, RESULTS_INTERVAL_MS: '0' } });
const DAY = 24 * HOUR;

describe("the season's running total", () => {
  it("sums the running season's rounds only, every round while none runs", async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    let advanced = 0;
    const totalsOf = async () => {
      const list = await server.request<RoundList>('GET', `/api/groups/${group.id}/rounds`, {
        token: member.accessToken,
      });
      expect(list.status).toBe(200);
      return new Map(list.body.totals.map((line) => [line.userId, line.points]));
    };
    /** A one-match round kicking off in an hour, tipped, then played and resolved 2-1. */
    const playRound = async (name: string, tips: Array<[typeof admin, string]>) => {
      const round = await createRound(server, admin, group, {
        name,
        csv: csvLine(server, HOUR, 'A', 'B'),
      });
      const betId = round.matches[0]!.betId;
      for (const [user, prediction] of tips)
        expect((await tip(server, user, betId, prediction)).status).toBe(201);
      server.clock.advance(2 * HOUR);
      advanced += 2 * HOUR;
      expect((await resolve(server, admin, { id: betId }, '2-1')).status).toBe(200);
    };
    try {
      await playRound('Matchday 1', [
        [admin, '2-1'],
        [member, '1-0'],
      ]);
      await playRound('Matchday 2', [[member, '2-1']]);
      // No season runs: both rounds count.
      let totals = await totalsOf();
      expect(totals.get(admin.user.id)).toBe(4);
      expect(totals.get(member.user.id)).toBe(3 + 4);

      const season = await server.request('POST', `/api/groups/${group.id}/seasons`, {
        token: admin.accessToken,
        body: {
          name: 'Winter',
          endsAt: new Date(server.clock.now().getTime() + 30 * DAY).toISOString(),
        },
      });
      expect(season.status, season.text).toBe(201);
      // The season just started: no round of it yet, nobody has round points.
      expect((await totalsOf()).size).toBe(0);

      await playRound('Matchday 3', [
        [admin, '3-2'],
        [member, '2-1'],
      ]);
      totals = await totalsOf();
      expect(totals.get(admin.user.id)).toBe(3);
      expect(totals.get(member.user.id)).toBe(4);
    } finally {
      server.clock.advance(-advanced);
    }
  });
});
