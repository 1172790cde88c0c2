import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { mirrorPolicy } from '../../../src/client/bets/mirror-policy';
import {
  readNextActionableBet,
  readNextBetToResolve,
  readOpenBets,
} from '../../../src/client/bets/use-bets';
import { nextActionableBet, nextBetToResolve, openBets } from '../../../src/domain/bet-lists';
import { openHunchDb, type BetRow, type HunchDb } from '../../../src/client/data/db';

// The dashboard's list of what is open, read from the local mirror alone: every bet still
// taking wagers in the player's groups (wagered on or not), soonest close first, each with its
// group's name and the player's own wager.

const NOW = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3_600_000;
const ME = 7;
let database: HunchDb | undefined;

afterEach(async () => {
  await database?.delete();
  database = undefined;
});

function bet(id: number, groupId: number, hours: number, extra: Partial<BetRow> = {}): BetRow {
  return {
    id,
    groupId,
    title: `Bet ${id}`,
    betType: 'yes_no',
    betTypeConfig: {},
    baseWagerAmount: 5,
    state: 'active',
    createdBy: 99,
    expiresAt: new Date(NOW + hours * HOUR).toISOString(),
    ...extra,
  } as BetRow;
}

/** A mirror where the player is in one group, "Thursday Crew" (id 1), with 100 points free. */
async function openWithOneGroup(name: string): Promise<HunchDb> {
  const opened = openHunchDb(name);
  await opened.groups.put({ id: 1, name: 'Thursday Crew' });
  await opened.memberships.put({
    groupId: 1,
    userId: ME,
    userName: 'Me',
    totalPoints: 100,
    availablePoints: 100,
  });
  return opened;
}

it("lists the open bets of the player's groups, soonest close first, with the group and the player's wager", async () => {
  database = openHunchDb('open-bets-test');
  await database.groups.bulkPut([
    { id: 1, name: 'Thursday Crew' },
    { id: 2, name: 'Office' },
    { id: 3, name: 'Left long ago' },
  ]);
  await database.memberships.bulkPut([
    { groupId: 1, userId: ME, userName: 'Me', totalPoints: 100, availablePoints: 0 },
    { groupId: 2, userId: ME, userName: 'Me', totalPoints: 100, availablePoints: 100 },
    { groupId: 1, userId: 8, userName: 'Ana', totalPoints: 100, availablePoints: 100 },
  ]);
  await database.bets.bulkPut([
    bet(10, 1, 30),
    bet(11, 2, 5),
    bet(12, 1, 12),
    bet(13, 2, -1), // expired, waiting for its result
    bet(14, 1, 3, { state: 'resolved' }),
    bet(15, 2, 8, { picksRevealedAt: '2029-12-31T00:00:00Z' }), // a resolution since undone
    bet(16, 3, 1), // a group the player is not in
  ]);
  await database.wagers.bulkPut([
    { id: 100, betId: 12, userId: ME, prediction: 'yes', points: 5 },
    { id: 101, betId: 10, userId: 8, prediction: 'no', points: 5 },
  ] as never);

  const open = await readOpenBets(database, ME, NOW);
  expect(open.map(({ bet: row }) => row.id)).toEqual([11, 12, 10]);
  expect(open.map(({ groupName }) => groupName)).toEqual([
    'Office',
    'Thursday Crew',
    'Thursday Crew',
  ]);
  // The player's own wager only (bet 10 carries another player's), and even with no points
  // left in a group its open bets stay listed.
  expect(open.map(({ wager }) => wager?.id)).toEqual([undefined, 100, undefined]);
});

it("leaves a tipping round's matches out of the bet lists and queues: they are the round's", async () => {
  database = await openWithOneGroup('open-bets-test-rounds');
  const match = { betType: 'score_tip', betTypeConfig: { home: 'A', away: 'B' } } as const;
  await database.bets.bulkPut([
    bet(20, 1, 2, { ...match, createdBy: ME }),
    bet(21, 1, -30, { ...match, createdBy: ME }),
    bet(22, 1, 5),
  ]);
  expect((await readOpenBets(database, ME, NOW)).map(({ bet: row }) => row.id)).toEqual([22]);
  expect((await readNextActionableBet(database, ME, NOW))?.id).toBe(22);
  expect(await readNextBetToResolve(database, ME, NOW)).toBeNull();
});

it('names no group on the cards of a player in one group only, and the current name otherwise', async () => {
  database = openHunchDb('open-bets-test-one-group');
  await database.groups.bulkPut([{ id: 1, name: 'Thursday Crew (renamed)' }]);
  await database.memberships.bulkPut([
    { groupId: 1, userId: ME, userName: 'Me', totalPoints: 100, availablePoints: 100 },
  ]);
  await database.bets.bulkPut([bet(10, 1, 30)]);
  expect((await readOpenBets(database, ME, NOW)).map(({ groupName }) => groupName)).toEqual(['']);

  await database.groups.put({ id: 2, name: 'Office' });
  await database.memberships.put({
    groupId: 2,
    userId: ME,
    userName: 'Me',
    totalPoints: 100,
    availablePoints: 100,
  });
  expect((await readOpenBets(database, ME, NOW)).map(({ groupName }) => groupName)).toEqual([
    'Thursday Crew (renamed)',
  ]);
});

it('counts each listed bet’s comments in the same read, deleted ones left out', async () => {
  database = await openWithOneGroup('open-bets-test-comments');
  await database.bets.bulkPut([bet(10, 1, 30), bet(12, 1, 12)]);
  const comment = (id: number, betId: number, deletedAt: string | null) =>
    ({ id, betId, groupId: 1, userId: 8, text: 'Hm', createdAt: '', deletedAt }) as never;
  await database.comments.bulkPut([
    comment(1, 10, null),
    comment(2, 10, null),
    comment(3, 10, '2029-12-31T00:00:00Z'),
    comment(4, 12, '2029-12-31T00:00:00Z'),
  ]);

  const open = await readOpenBets(database, ME, NOW);
  expect(open.map(({ bet: row, commentCount }) => [row.id, commentCount])).toEqual([
    [12, 0],
    [10, 2],
  ]);
});

it('lists nothing for a player in no group', async () => {
  database = openHunchDb('open-bets-test-empty');
  await database.bets.put(bet(10, 1, 30));
  expect(await readOpenBets(database, ME, NOW)).toEqual([]);
});

// The dashboard's reads walk indexes and stop early (use-bets.ts); each must answer exactly what
// the domain's rule gives over every bet held, for any mix of states, close times (ties
// included), groups, creators and roles.
describe('the index walks answer as the domain rules over every bet', () => {
  const GROUPS = [1, 2, 3]; // the player is an admin in 1, a member in 2, outside 3
  const DEPARTED = 40;

  it('for the open list, the bet queue and the resolve queue (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            id: fc.integer({ min: 1, max: 400 }),
            groupId: fc.constantFrom(...GROUPS),
            // Whole hours apart, so many share a close time; past and future, some a day past.
            hours: fc.integer({ min: -40, max: 30 }),
            state: fc.constantFrom('active', 'active', 'active', 'resolved', 'cancelled'),
            revealed: fc.boolean(),
            createdBy: fc.constantFrom(ME, 8, DEPARTED),
            base: fc.constantFrom(5, 50, 500),
            wagered: fc.boolean(),
          }),
          { selector: (row) => row.id, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 25 }),
        async (rows, limit) => {
          database = openHunchDb(`open-bets-property`);
          const bets = rows.map((row) =>
            bet(row.id, row.groupId, row.hours, {
              state: row.state,
              createdBy: row.createdBy,
              baseWagerAmount: row.base,
              picksRevealedAt: row.revealed ? '2029-12-31T00:00:00.000Z' : null,
            } as Partial<BetRow>),
          );
          await database.groups.bulkPut([
            { id: 1, name: 'Run', privacy: 'private', admins: [ME], memberUserIds: [8] },
            { id: 2, name: 'Office', privacy: 'public', admins: [8], memberUserIds: [ME] },
            { id: 3, name: 'Theirs', privacy: 'public', admins: [8], memberUserIds: [] },
          ]);
          const points = { 1: 60, 2: 10 };
          await database.memberships.bulkPut(
            [1, 2].map((groupId) => ({
              groupId,
              userId: ME,
              userName: 'Me',
              role: groupId === 1 ? ('admin' as const) : ('member' as const),
              totalPoints: 100,
              availablePoints: points[groupId as 1 | 2],
            })),
          );
          await database.bets.bulkPut(bets);
          const wagered = rows.filter((row) => row.wagered).map((row) => row.id);
          await database.wagers.bulkPut(
            wagered.map((betId) => ({
              id: 1000 + betId,
              betId,
              userId: ME,
              prediction: 'yes',
              points: 5,
            })) as never,
          );

          const mine = bets.filter((row) => row.groupId !== 3);
          expect(
            (await readOpenBets(database, ME, NOW, limit)).map(({ bet: row }) => row.id),
          ).toEqual(
            openBets(mine, NOW)
              .slice(0, limit)
              .map((row) => row.id),
          );

          const memberships = Object.fromEntries(
            Object.entries(points).map(([groupId, availablePoints]) => [
              groupId,
              { availablePoints },
            ]),
          );
          expect((await readNextActionableBet(database, ME, NOW))?.id ?? null).toBe(
            nextActionableBet(
              mine.filter((row) => !wagered.includes(row.id)),
              memberships,
              NOW,
            )?.id ?? null,
          );

          const groups = new Map(
            (await database.groups.toArray()).map((group) => [group.id, group]),
          );
          const resolvable = mine.filter(
            (row) =>
              mirrorPolicy(
                row,
                {
                  userId: ME,
                  membership: { role: row.groupId === 1 ? 'admin' : 'member' },
                  group: groups.get(row.groupId),
                  hasWagered: false,
                },
                NOW,
              ).resolve.allowed,
          );
          expect((await readNextBetToResolve(database, ME, NOW))?.id ?? null).toBe(
            nextBetToResolve(resolvable)?.id ?? null,
          );
          await database.delete();
          database = undefined;
        },
      ),
      { numRuns: 40 },
    );
  });
});
