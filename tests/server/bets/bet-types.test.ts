import { describe, expect, it } from 'vitest';
import { createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { createBet, NO_EXPIRY_TIMER, placeWager, pointsOf, resolve } from './bet.factories';

// Each bet type from creation through wagers to payout, with the pari-mutuel arithmetic of
// docs/architecture.md §5 checked to the point.

const server = useTestServer(NO_EXPIRY_TIMER);

async function table(size: number) {
  const players = await Promise.all(
    Array.from({ length: size }, (_, index) => createPlayer(server, `P${index}`)),
  );
  const group = await createGroup(server, players[0]!, { defaultPoints: 100 });
  for (const player of players.slice(1)) await joinGroup(server, player, group);
  return { players, group };
}

describe('yes_no', () => {
  it('pays the pool to the winners in proportion to their points, leftovers to the largest remainder', async () => {
    const { players, group } = await table(4);
    const [a, b, c, d] = players as [
      (typeof players)[number],
      (typeof players)[number],
      (typeof players)[number],
      (typeof players)[number],
    ];
    const bet = await createBet(server, a, group, {
      baseWagerAmount: 2,
      betTypeConfig: { yesLabel: 'Rain', noLabel: 'Dry' },
    });
    expect(bet).toMatchObject({
      state: 'active',
      betType: 'yes_no',
      betTypeConfig: { yesLabel: 'Rain', noLabel: 'Dry' },
      createdBy: a.user.id,
    });
    await placeWager(server, a, bet, 'yes', 2);
    await placeWager(server, b, bet, 'yes', 4);
    await placeWager(server, c, bet, 'no', 6);
    await placeWager(server, d, bet, 'no', 2);
    expect(await pointsOf(server, b, group)).toEqual({ total: 100, available: 96 });

    const resolved = await resolve(server, a, bet, 'yes');
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      state: 'resolved',
      correctAnswer: 'yes',
      resolvedBy: a.user.id,
    });
    // Pool 14, winning stake 6: a gets floor(14×2/6)=4 (rem 4), b floor(14×4/6)=9 (rem 2); 1 left goes to a.
    expect(await pointsOf(server, a, group)).toEqual({ total: 103, available: 103 });
    expect(await pointsOf(server, b, group)).toEqual({ total: 105, available: 105 });
    expect(await pointsOf(server, c, group)).toEqual({ total: 94, available: 94 });
    expect(await pointsOf(server, d, group)).toEqual({ total: 98, available: 98 });
  });

  it('refunds every wager when nobody picked the answer', async () => {
    const { players, group } = await table(2);
    const bet = await createBet(server, players[0]!, group);
    await placeWager(server, players[0]!, bet, 'yes', 3);
    await placeWager(server, players[1]!, bet, 'yes', 1);
    expect((await resolve(server, players[0]!, bet, 'no')).status).toBe(200);
    expect(await pointsOf(server, players[0]!, group)).toEqual({ total: 100, available: 100 });
    expect(await pointsOf(server, players[1]!, group)).toEqual({ total: 100, available: 100 });
  });
});

describe('multiple_choice', () => {
  it('pays those who picked the option', async () => {
    const { players, group } = await table(3);
    const [a, b, c] = players as [
      (typeof players)[number],
      (typeof players)[number],
      (typeof players)[number],
    ];
    const bet = await createBet(server, a, group, {
      betType: 'multiple_choice',
      betTypeConfig: { options: ['Red', ' Blue ', '', 'Green'] },
      baseWagerAmount: 3,
    });
    expect(bet.betTypeConfig.options).toEqual(['Red', 'Blue', 'Green']);
    await placeWager(server, a, bet, 'Red', 3);
    await placeWager(server, b, bet, 'Blue', 9);
    await placeWager(server, c, bet, 'Green', 6);
    expect((await resolve(server, a, bet, 'Blue')).status).toBe(200);
    expect(await pointsOf(server, a, group)).toEqual({ total: 97, available: 97 });
    expect(await pointsOf(server, b, group)).toEqual({ total: 109, available: 109 });
    expect(await pointsOf(server, c, group)).toEqual({ total: 94, available: 94 });
  });
});

describe('numeric', () => {
  it('pays the closest guess', async () => {
    const { players, group } = await table(3);
    const [a, b, c] = players as [
      (typeof players)[number],
      (typeof players)[number],
      (typeof players)[number],
    ];
    const bet = await createBet(server, a, group, { betType: 'numeric', baseWagerAmount: 1 });
    await placeWager(server, a, bet, '10', 1);
    const stored = await placeWager(server, b, bet, '007.50', 2);
    expect(stored.prediction).toBe('7.5');
    await placeWager(server, c, bet, '3', 3);
    expect((await resolve(server, a, bet, '8')).status).toBe(200);
    expect(await pointsOf(server, b, group)).toEqual({ total: 104, available: 104 });
    expect(await pointsOf(server, a, group)).toEqual({ total: 99, available: 99 });
    expect(await pointsOf(server, c, group)).toEqual({ total: 97, available: 97 });
  });

  it('shares the pool among tied closest guesses in proportion to their points', async () => {
    const { players, group } = await table(3);
    const [a, b, c] = players as [
      (typeof players)[number],
      (typeof players)[number],
      (typeof players)[number],
    ];
    const bet = await createBet(server, a, group, { betType: 'numeric', baseWagerAmount: 1 });
    await placeWager(server, a, bet, '9', 1);
    await placeWager(server, b, bet, '11', 2);
    await placeWager(server, c, bet, '20', 3);
    expect((await resolve(server, a, bet, '10')).status).toBe(200);
    // Pool 6 over winning stake 3: a 2, b 4; c loses 3.
    expect(await pointsOf(server, a, group)).toEqual({ total: 101, available: 101 });
    expect(await pointsOf(server, b, group)).toEqual({ total: 102, available: 102 });
    expect(await pointsOf(server, c, group)).toEqual({ total: 97, available: 97 });
  });
});

describe('over_under', () => {
  it('pays over when the actual number is above the line', async () => {
    const { players, group } = await table(2);
    const [a, b] = players as [(typeof players)[number], (typeof players)[number]];
    const bet = await createBet(server, a, group, {
      betType: 'over_under',
      betTypeConfig: { line: 2.5 },
      baseWagerAmount: 2,
    });
    expect(bet.betTypeConfig.line).toBe(2.5);
    await placeWager(server, a, bet, 'over', 4);
    await placeWager(server, b, bet, 'under', 6);
    const resolved = await resolve(server, a, bet, '3');
    expect(resolved.body.correctAnswer).toBe('3');
    expect(await pointsOf(server, a, group)).toEqual({ total: 106, available: 106 });
    expect(await pointsOf(server, b, group)).toEqual({ total: 94, available: 94 });
  });

  it('refunds everyone when the actual number lands on the line (a push)', async () => {
    const { players, group } = await table(2);
    const [a, b] = players as [(typeof players)[number], (typeof players)[number]];
    const bet = await createBet(server, a, group, {
      betType: 'over_under',
      betTypeConfig: { line: 3 },
    });
    await placeWager(server, a, bet, 'over', 2);
    await placeWager(server, b, bet, 'under', 3);
    expect((await resolve(server, a, bet, '3.0')).status).toBe(200);
    expect(await pointsOf(server, a, group)).toEqual({ total: 100, available: 100 });
    expect(await pointsOf(server, b, group)).toEqual({ total: 100, available: 100 });
  });
});
