import { describe, expect, it } from 'vitest';
import { betComments } from '../../../src/server/db/schema';
import { runBetExpiry, startBetExpiryJob } from '../../../src/server/jobs/bet-expiry.job';
import { createGroupWithRoles, recordEvents } from '../groups/group.factories';
import { useTestServer } from '../harness';
import {
  createBet,
  DAY,
  expireDueBets,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  postWager,
  resolve,
} from './bet.factories';

// The expiry job (docs/architecture.md §5): a bet still active 7 days after its expiresAt becomes
// expired and every wager is refunded, once, however many runs overlap.

const server = useTestServer(NO_EXPIRY_TIMER);

const WEEK = 7 * DAY;

async function betWithWagers() {
  const { group, creator, admin, member } = await createGroupWithRoles(server);
  const bet = await createBet(server, creator, group, {
    expiresAt: new Date(server.clock.now().getTime() + HOUR).toISOString(),
    baseWagerAmount: 2,
  });
  await placeWager(server, admin, bet, 'yes', 4);
  await placeWager(server, member, bet, 'no', 6);
  return { group, creator, admin, member, bet };
}

describe('runBetExpiry', () => {
  it('leaves a bet alone until 7 days after its expiry, then expires it and refunds everyone', async () => {
    const { group, creator, admin, member, bet } = await betWithWagers();
    const expiry = new Date(bet.expiresAt).getTime();
    expect(await expireDueBets(server, new Date(expiry + WEEK - 1000))).not.toContain(bet.id);
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 94 });

    const recorder = recordEvents(server);
    expect(await expireDueBets(server, new Date(expiry + WEEK))).toContain(bet.id);
    recorder.stop();
    const response = await server.request('GET', `/api/bets/${bet.id}`, {
      token: creator.accessToken,
    });
    expect(response.body.state).toBe('expired');
    expect(await pointsOf(server, admin, group)).toEqual({ total: 100, available: 100 });
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 100 });
    const mine = recorder.events.filter(
      (published) => 'betId' in published.payload && published.payload.betId === bet.id,
    );
    expect(mine).toEqual([
      {
        event: 'betExpired',
        payload: { betId: bet.id, groupId: group.id, version: expect.any(Number) },
        audience: { groupId: group.id },
      },
      {
        event: 'pointsRefunded',
        payload: { betId: bet.id, groupId: group.id, totalRefunded: 10, refundedParticipants: 2 },
        audience: { groupId: group.id },
      },
    ]);
    // Expired is final: no wager, resolve or second expiry.
    expect((await resolve(server, creator, bet, 'yes')).body.code).toBe('bet_not_active');
    expect(await expireDueBets(server, new Date(expiry + 2 * WEEK))).not.toContain(bet.id);
  });

  it('never touches resolved or cancelled bets', async () => {
    const { group, creator, member, bet } = await betWithWagers();
    await resolve(server, creator, bet, 'no');
    const after = await pointsOf(server, member, group);
    expect(
      await expireDueBets(server, new Date(new Date(bet.expiresAt).getTime() + 2 * WEEK)),
    ).not.toContain(bet.id);
    expect(await pointsOf(server, member, group)).toEqual(after);
  });

  it('processes each bet once when runs overlap, across batches', async () => {
    const setups = [];
    for (let index = 0; index < 4; index += 1) setups.push(await betWithWagers());
    const due = new Date(server.clock.now().getTime() + HOUR + WEEK + 1000);
    const recorder = recordEvents(server);
    const deps = { db: server.database.db, events: server.app.events };
    const runs = await Promise.all([
      runBetExpiry(deps, due, { batchSize: 1 }),
      runBetExpiry(deps, due, { batchSize: 2 }),
      runBetExpiry(deps, due),
    ]);
    recorder.stop();
    const ids = setups.map((setup) => setup.bet.id);
    const processed = runs.flat().filter((id) => ids.includes(id));
    expect(processed.sort()).toEqual([...ids].sort());
    const expiredEvents = recorder.events.filter(
      (published) => published.event === 'betExpired' && ids.includes(published.payload.betId),
    );
    expect(expiredEvents).toHaveLength(4);
    for (const setup of setups)
      expect(await pointsOf(server, setup.member, setup.group)).toEqual({
        total: 100,
        available: 100,
      });
  });

  // A row written elsewhere that references the bet (a comment, an inbox entry, an odds notice)
  // holds a KEY SHARE lock on it until its transaction commits. The job's lock must not clash
  // with that, or SKIP LOCKED passes the bet over. PGlite has one connection, so only PostgreSQL
  // can hold the two transactions at once.
  it.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
    'expires a bet while another transaction is writing a row that references it',
    async () => {
      const { group, member, bet } = await betWithWagers();
      const due = new Date(new Date(bet.expiresAt).getTime() + WEEK);
      const deps = { db: server.database.db, events: server.app.events };
      const expired = await server.database.db.transaction(async (tx) => {
        await tx
          .insert(betComments)
          .values({ betId: bet.id, groupId: group.id, userId: member.user.id, text: 'Still here' });
        return runBetExpiry(deps, due);
      });
      expect(expired).toContain(bet.id);
    },
  );

  it('runs on its interval when started, and stops', async () => {
    const { bet, creator } = await betWithWagers();
    const at = new Date(new Date(bet.expiresAt).getTime() + WEEK + 1);
    const job = startBetExpiryJob({
      db: server.database.db,
      events: server.app.events,
      intervalMs: 20,
      now: () => at,
    });
    try {
      await expect
        .poll(
          async () =>
            (await server.request('GET', `/api/bets/${bet.id}`, { token: creator.accessToken }))
              .body.state,
          { timeout: 5000 },
        )
        .toBe('expired');
    } finally {
      await job.stop();
    }
  });

  it('is not a way round the wager window: an expired-by-time bet refuses wagers before the job runs', async () => {
    const { bet, creator } = await betWithWagers();
    server.clock.advance(2 * HOUR);
    try {
      expect((await postWager(server, creator, bet, 'yes', 2)).body.code).toBe('bet_closed');
    } finally {
      server.clock.advance(-2 * HOUR);
    }
  });
});
