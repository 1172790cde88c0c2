import { and, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import {
  RESULT_LEDGER_KINDS,
  sumPeriodResults,
  type PeriodLeaderboard,
  type ResultEntry,
} from '../../../src/domain/leaderboard-periods';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import { seasonStandingsOf } from '../../../src/domain/seasons';
import { settlementEntries } from '../../../src/domain/settlement-entries';
import { betHistory, ledger } from '../../../src/server/db/schema';
import {
  cancel,
  createBet,
  DAY,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from '../bets/bet.factories';
import { useTestServer } from '../harness';
import { createGroup, createPlayer, joinGroup } from './group.factories';

// Offline, a device works out the week, the month and a running season from its mirror alone:
// the bets, their picks and their history give back the ledger's result entries. Whatever was
// settled, undone, re-resolved or called off, and whenever, the mirror's sums are the server's.

const server = useTestServer(NO_EXPIRY_TIMER);

const SETTLEMENTS = ['paid', 'undone', 'reResolved', 'cancelled'] as const;
const betPlan = fc.record({
  wagers: fc.array(
    fc.option(
      fc.record({
        prediction: fc.constantFrom('yes', 'no'),
        multiple: fc.integer({ min: 1, max: 3 }),
      }),
      { nil: null },
    ),
    { minLength: 3, maxLength: 3 },
  ),
  settlement: fc.constantFrom(...SETTLEMENTS),
  answers: fc.tuple(fc.constantFrom('yes', 'no'), fc.constantFrom('yes', 'no')),
  daysAgo: fc.integer({ min: 0, max: 60 }),
  /** Days between the first resolution and what undid or corrected it. */
  gapDays: fc.integer({ min: 0, max: 20 }),
});

/** Moves a bet's ledger rows and history lines back in time together, as if it had settled then. */
async function settledAgo(betId: number, ms: number) {
  const back = sql`${`${ms} milliseconds`}::interval`;
  await server.database.db
    .update(ledger)
    .set({ createdAt: sql`${ledger.createdAt} - ${back}` })
    .where(eq(ledger.betId, betId));
  await server.database.db
    .update(betHistory)
    .set({ createdAt: sql`${betHistory.createdAt} - ${back}` })
    .where(eq(betHistory.betId, betId));
}

async function settle(
  referee: AuthResponse,
  players: AuthResponse[],
  bet: Bet,
  plan: { settlement: (typeof SETTLEMENTS)[number]; answers: [string, string]; gapDays: number },
) {
  const request = (method: string, path: string, user: AuthResponse, body?: object) =>
    server.request(method, path, { token: user.accessToken, ...(body ? { body } : {}) });
  if (plan.settlement === 'cancelled') {
    expect((await cancel(server, referee, bet)).status).toBe(200);
    return;
  }
  expect((await resolve(server, referee, bet, plan.answers[0])).status).toBe(200);
  await settledAgo(bet.id, plan.gapDays * DAY);
  if (plan.settlement === 'undone') {
    const undone = await request('POST', `/api/bets/${bet.id}/undo-resolution`, referee);
    expect(undone.status, undone.text).toBe(200);
    expect((await resolve(server, referee, bet, plan.answers[1])).status).toBe(200);
  } else if (plan.settlement === 'reResolved') {
    const disputed = await request('POST', `/api/bets/${bet.id}/dispute`, players[0]!, {
      reason: 'That is not what happened.',
    });
    expect(disputed.status, disputed.text).toBe(200);
    const reResolved = await request('PUT', `/api/bets/${bet.id}/re-resolve`, referee, {
      correctAnswer: plan.answers[1],
    });
    expect(reResolved.status, reResolved.text).toBe(200);
  }
}

/** Every page of a first pull, merged. */
async function pullMirror(user: AuthResponse) {
  const bets: MirrorPullResponse['bets'] = [];
  const history: MirrorPullResponse['betHistory'] = [];
  const memberships: MirrorPullResponse['memberships'] = [];
  for (let cursor = MIRROR_START_CURSOR; ;) {
    const response = await server.request<MirrorPullResponse>(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(cursor)}`,
      { token: user.accessToken },
    );
    expect(response.status, response.text).toBe(200);
    bets.push(...response.body.bets);
    history.push(...response.body.betHistory);
    memberships.push(...response.body.memberships);
    cursor = response.body.cursor;
    if (!response.body.hasMore) return { bets, history, memberships };
  }
}

describe('the week, the month and a season from the mirror', () => {
  it('sum what the server sums from its ledger (property test)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(betPlan, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 31 })), {
          minLength: 3,
          maxLength: 3,
        }),
        async (plans, windows) => {
          // A referee without a stake settles every bet; three players wager.
          const referee = await createPlayer(server, 'Referee');
          const group = await createGroup(server, referee, { defaultPoints: 100 });
          const players = [
            await createPlayer(server, 'Ana'),
            await createPlayer(server, 'Ben'),
            await createPlayer(server, 'Cy'),
          ];
          for (const player of players) await joinGroup(server, player, group);
          for (const plan of plans) {
            if (plan.wagers.every((wager) => wager === null)) continue;
            const bet = await createBet(server, referee, group, { baseWagerAmount: 3 });
            for (const [index, wager] of plan.wagers.entries())
              if (wager)
                await placeWager(
                  server,
                  players[index]!,
                  bet,
                  wager.prediction,
                  3 * wager.multiple,
                );
            const bettor = plan.wagers.findIndex((wager) => wager !== null);
            await settle(referee, [players[bettor]!], bet, plan);
            await settledAgo(bet.id, plan.daysAgo * DAY);
          }

          const mirror = await pullMirror(players[0]!);
          const lines = mirror.history.filter((line) => line.groupId === group.id);
          const entries: ResultEntry[] = mirror.bets
            .filter((bet) => bet.groupId === group.id)
            .flatMap((bet) =>
              settlementEntries(
                bet,
                bet.picks ?? [],
                lines.filter((line) => line.betId === bet.id),
              ),
            );
          const members = mirror.memberships
            .filter((member) => member.groupId === group.id)
            .map((member) => ({ userId: member.userId, name: member.userName }));

          // Entry for entry, the ledger's result entries of the group are the mirror's.
          const ledgerEntries = await server.database.db
            .select({ userId: ledger.userId, totalDelta: ledger.totalDelta, at: ledger.createdAt })
            .from(ledger)
            .where(
              and(eq(ledger.groupId, group.id), inArray(ledger.kind, [...RESULT_LEDGER_KINDS])),
            );
          const sorted = (list: ResultEntry[]) =>
            list
              .map(
                (entry) =>
                  `${new Date(entry.at).toISOString()} ${entry.userId} ${entry.totalDelta}`,
              )
              .sort();
          expect(sorted(entries)).toEqual(sorted(ledgerEntries));

          const now = server.clock.now().getTime();
          for (const [daysAgo, length] of windows) {
            const from = new Date(now - daysAgo * DAY);
            const previousFrom = new Date(from.getTime() - length * DAY);
            const response = await server.request<PeriodLeaderboard>(
              'GET',
              `/api/groups/${group.id}/leaderboard/period?${new URLSearchParams({
                from: from.toISOString(),
                previousFrom: previousFrom.toISOString(),
              })}`,
              { token: players[0]!.accessToken },
            );
            expect(response.status, response.text).toBe(200);
            // The mirror's sums are the server's; `played` is the server's alone.
            expect(sumPeriodResults(members, entries, { from, previousFrom })).toEqual(
              response.body.members.map(({ played: _played, ...sums }) => sums),
            );
          }

          // A season that started 20 days ago and ends now: its archived standings are the mirror's.
          const started = await server.request<{ id: number }>(
            'POST',
            `/api/groups/${group.id}/seasons`,
            {
              token: referee.accessToken,
              body: { name: 'Cup', endsAt: new Date(now + DAY).toISOString() },
            },
          );
          expect(started.status, started.text).toBe(201);
          const startsAt = new Date(now - 20 * DAY);
          await server.database.db.execute(
            sql`update seasons set starts_at = ${startsAt} where id = ${started.body.id}`,
          );
          const mirrorStandings = seasonStandingsOf(
            mirror.memberships.filter((member) => member.groupId === group.id),
            entries,
            { startsAt },
          );
          const ended = await server.request<{ standings: unknown[] }>(
            'POST',
            `/api/groups/${group.id}/seasons/${started.body.id}/end`,
            { token: referee.accessToken },
          );
          expect(ended.status, ended.text).toBe(200);
          expect(ended.body.standings).toEqual(mirrorStandings);
        },
      ),
      { numRuns: 8, endOnFailure: true },
    );
  }, 240_000);
});
