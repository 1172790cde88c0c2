import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import type { MemberStats } from '../../../src/domain/member-stats';
import { ledger } from '../../../src/server/db/schema';
import {
  createBet,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from '../bets/bet.factories';
import { useTestServer } from '../harness';
import { createGroupWithRoles, createPlayer, joinGroup } from './group.factories';

// A member's stats and head-to-head, held to a recomputation from the raw rows
// (the wagers as placed, the answers, the ledger), undone resolutions excluded, by the read rule.

const server = useTestServer(NO_EXPIRY_TIMER);

function stats(viewer: AuthResponse, groupId: number, userId: number, vs?: number) {
  const query = vs === undefined ? '' : `?vs=${vs}`;
  return server.request<MemberStats>(
    'GET',
    `/api/groups/${groupId}/members/${userId}/stats${query}`,
    { token: viewer.accessToken },
  );
}

const undo = (user: AuthResponse, bet: Pick<Bet, 'id'>) =>
  server.request('POST', `/api/bets/${bet.id}/undo-resolution`, { token: user.accessToken });

const OPTIONS = ['Red', 'Blue', 'Green'];
const betPlan = fc.record({
  multipleChoice: fc.boolean(),
  picks: fc.array(fc.option(fc.nat(2), { nil: null }), { minLength: 3, maxLength: 3 }),
  multiples: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }),
  answer: fc.nat(2),
  /** Resolved, resolved then undone, or left open. */
  fate: fc.constantFrom('resolved', 'undone', 'open'),
});

describe('GET /api/groups/{id}/members/{userId}/stats', () => {
  it('equals a recomputation from the raw rows, and head-to-head is symmetric', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(betPlan, { minLength: 1, maxLength: 5 }), async (plans) => {
        const { group, creator, admin, member } = await createGroupWithRoles(server);
        const players = [creator, admin, member];
        const expected = players.map(() => ({ played: 0, won: 0, lost: 0 }));
        const resolvedBetIds: number[] = [];
        const undoneBetIds = new Set<number>();
        for (const plan of plans) {
          const choices = plan.multipleChoice ? OPTIONS : ['yes', 'no'];
          const bet = await createBet(server, creator, group, {
            ...(plan.multipleChoice
              ? { betType: 'multiple_choice', betTypeConfig: { options: OPTIONS } }
              : {}),
            baseWagerAmount: 2,
            expiresAt: expiresIn(server, HOUR),
          });
          const predictions = plan.picks.map((pick) =>
            pick === null ? null : choices[pick % choices.length]!,
          );
          for (const [index, prediction] of predictions.entries())
            if (prediction !== null)
              await placeWager(
                server,
                players[index]!,
                bet,
                prediction,
                2 * plan.multiples[index]!,
              );
          if (plan.fate === 'open') continue;
          const answer = choices[plan.answer % choices.length]!;
          expect((await resolve(server, creator, bet, answer)).status).toBe(200);
          if (plan.fate === 'undone') {
            expect((await undo(creator, bet)).status).toBe(200);
            undoneBetIds.add(bet.id);
            continue;
          }
          resolvedBetIds.push(bet.id);
          const someoneWon = predictions.includes(answer);
          for (const [index, prediction] of predictions.entries()) {
            if (prediction === null) continue;
            expected[index]!.played += 1;
            if (!someoneWon) continue;
            if (prediction === answer) expected[index]!.won += 1;
            else expected[index]!.lost += 1;
          }
        }
        for (const [index, player] of players.entries()) {
          const response = await stats(member, group.id, player.user.id);
          expect(response.status).toBe(200);
          const body = response.body;
          const rows =
            resolvedBetIds.length === 0
              ? []
              : await server.database.db
                  .select({ totalDelta: ledger.totalDelta })
                  .from(ledger)
                  .where(
                    and(
                      eq(ledger.groupId, group.id),
                      eq(ledger.userId, player.user.id),
                      inArray(ledger.betId, resolvedBetIds),
                    ),
                  );
          const { played, won, lost } = expected[index]!;
          expect(body).toMatchObject({ betsPlayed: played, won, lost });
          expect(body.netPoints).toBe(rows.reduce((sum, row) => sum + row.totalDelta, 0));
          expect(body.winRate).toBe(won + lost > 0 ? won / (won + lost) : null);
          expect(body.pointsOverTime.at(-1)?.total).toBe(body.totalPoints);
          // The line leaves out undone results: their payout and its reversal draw no step.
          const everyRow = await server.database.db
            .select({ betId: ledger.betId, totalDelta: ledger.totalDelta })
            .from(ledger)
            .where(and(eq(ledger.groupId, group.id), eq(ledger.userId, player.user.id)))
            .orderBy(ledger.id);
          let total = 0;
          const line: number[] = [];
          for (const row of everyRow) {
            total += row.totalDelta;
            if (row.totalDelta !== 0 && !undoneBetIds.has(row.betId ?? -1)) line.push(total);
          }
          expect(body.pointsOverTime.map((step) => step.total)).toEqual(line);
        }
        const [ab, ba] = await Promise.all([
          stats(member, group.id, creator.user.id, admin.user.id),
          stats(member, group.id, admin.user.id, creator.user.id),
        ]);
        const [forward, backward] = [ab.body.headToHead!, ba.body.headToHead!];
        expect(forward.betsTogether).toBe(backward.betsTogether);
        expect([forward.youRight, forward.themRight]).toEqual([
          backward.themRight,
          backward.youRight,
        ]);
        expect([forward.youNet, forward.themNet]).toEqual([backward.themNet, backward.youNet]);
      }),
      { numRuns: 8 },
    );
  }, 180_000);

  it('counts best win, streak and numeric closeness', async () => {
    const { group, creator, admin } = await createGroupWithRoles(server);
    for (const answer of ['yes', 'no', 'yes']) {
      const bet = await createBet(server, creator, group, { baseWagerAmount: 1 });
      await placeWager(server, creator, bet, 'yes', 2);
      await placeWager(server, admin, bet, 'no', 3);
      await resolve(server, creator, bet, answer);
    }
    const numeric = await createBet(server, creator, group, {
      betType: 'numeric',
      title: 'How many goals?',
      baseWagerAmount: 1,
    });
    await placeWager(server, creator, numeric, '8', 1);
    await placeWager(server, admin, numeric, '12', 1); // as close: both win
    await resolve(server, creator, numeric, '10');
    const { body } = await stats(admin, group.id, creator.user.id, admin.user.id);
    expect(body).toMatchObject({ betsPlayed: 4, won: 3, lost: 1, netPoints: 3 - 2 + 3 + 0 });
    expect(body.bestWin).toMatchObject({ points: 3 });
    expect(body.streak).toEqual({ kind: 'won', count: 2 });
    expect(body.accuracy).toEqual([
      { betType: 'yes_no', name: 'Yes / No', played: 3, decided: 3, won: 2, averageMiss: null },
      { betType: 'numeric', name: 'Number', played: 1, decided: 1, won: 1, averageMiss: 0.2 },
    ]);
    expect(body.headToHead).toMatchObject({ betsTogether: 4, youRight: 3, themRight: 2 });
  });

  it('follows the read rule: members of a private group, anyone signed in for a public one', async () => {
    const privateGroup = await createGroupWithRoles(server, { privacy: 'private' });
    const { group, creator, outsider } = privateGroup;
    const refused = await stats(outsider, group.id, creator.user.id);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('not_member');
    const publicGroup = await createGroupWithRoles(server, { privacy: 'public' });
    const stranger = await createPlayer(server, 'Stranger');
    const open = await stats(stranger, publicGroup.group.id, publicGroup.creator.user.id);
    expect(open.status).toBe(200);
    expect((await stats(stranger, publicGroup.group.id, stranger.user.id)).status).toBe(404);
    await joinGroup(server, stranger, publicGroup.group);
    expect((await stats(stranger, publicGroup.group.id, stranger.user.id)).body).toMatchObject({
      betsPlayed: 0,
      winRate: null,
      streak: null,
      bestWin: null,
    });
    expect((await stats(stranger, publicGroup.group.id, 0)).status).toBe(400);
  });
});
