import { describe, expect, it } from 'vitest';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { createBet, NO_EXPIRY_TIMER, placeWager, pointsOf, resolve } from './bet.factories';

// Tallies keyed by players' text (audit item 3): an option named like a property of
// Object.prototype must count like any other, in every answer that carries totals.

const server = useTestServer(NO_EXPIRY_TIMER);

const NASTY_SETS = [
  ['constructor', 'toString', '__proto__'],
  ['hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'],
];

describe('options named after Object.prototype properties', () => {
  it.each(NASTY_SETS)(
    'lists, reads and resolves a bet whose options are %s, …',
    async (...options) => {
      const { group, creator, admin, member } = await createGroupWithRoles(server);
      const bet = await createBet(server, creator, group, {
        betType: 'multiple_choice',
        betTypeConfig: { options },
        baseWagerAmount: 1,
      });
      await placeWager(server, member, bet, options[0]!, 3);
      await placeWager(server, admin, bet, options[1]!, 2);
      await placeWager(server, creator, bet, options[2]!, 1);
      const expectedTotals = { [options[0]!]: 3, [options[1]!]: 2, [options[2]!]: 1 };
      const totalsOf = (body: { answerTotals: Record<string, number> }) =>
        Object.fromEntries(Object.entries(body.answerTotals));

      const one = await server.request('GET', `/api/bets/${bet.id}`, { token: member.accessToken });
      expect(one.status, one.text).toBe(200);
      expect(totalsOf(one.body)).toEqual(expectedTotals);
      for (const path of [`/api/bets/group/${group.id}`, `/api/groups/${group.id}/bets`]) {
        const list = await server.request('GET', path, { token: member.accessToken });
        expect(list.status, `${path} ${list.text}`).toBe(200);
        expect(totalsOf(list.body[0])).toEqual(expectedTotals);
      }
      const context = await server.request('GET', `/api/bets/${bet.id}/user-context`, {
        token: member.accessToken,
      });
      expect(context.status, context.text).toBe(200);
      expect(totalsOf(context.body.bet)).toEqual(expectedTotals);
      expect(
        (await server.request('GET', '/api/member/state', { token: member.accessToken })).status,
      ).toBe(200);
      expect(
        (await server.request('GET', '/api/member/state?cursor=', { token: member.accessToken }))
          .status,
      ).toBeLessThan(500);

      const resolved = await resolve(server, creator, bet, options[0]!);
      expect(resolved.status, resolved.text).toBe(200);
      // The member alone picked the winner: the whole pool of 6.
      expect(await pointsOf(server, member, group)).toEqual({ total: 103, available: 103 });
      const statistics = await server.request('GET', `/api/bets/${bet.id}/statistics`, {
        token: member.accessToken,
      });
      expect(statistics.status, statistics.text).toBe(200);
      expect(
        statistics.body.answerDistribution.map((entry: { answer: string; totalPoints: number }) => [
          entry.answer,
          entry.totalPoints,
        ]),
      ).toEqual(
        options.map((option) => [
          option,
          Object.hasOwn(expectedTotals, option) ? expectedTotals[option] : 0,
        ]),
      );
    },
  );
});
