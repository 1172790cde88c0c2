import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Bet } from '../../../src/domain/bets';
import type { Group } from '../../../src/domain/groups';
import { groups } from '../../../src/server/db/schema';
import { applyLedgerEvent } from '../../../src/server/groups/ledger-writer';
import { TRANSACTION_ATTEMPTS } from '../../../src/server/db/transaction-retry';
import {
  cancel,
  createBet,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  postWager,
  resolve,
} from '../bets/bet.factories';
import {
  createGroup,
  createGroupWithRoles,
  createPlayer,
  grantsOf,
  joinGroup,
  makeAdmin,
  membershipRow,
  recordEvents,
  uniqueGroupName,
} from '../groups/group.factories';
import { createUser, newAccount, useTestServer } from '../harness';
import { endSeason, failuresOf, groupOf, startSeason, statusesOf } from './race-helpers';
import { describeRandomWrites } from './random-writes';
import { describeRemovalRaces } from './removal-races';
import { describeRoundResultsRaces } from './round-results-races';
import { describeStakeRepeatRaces } from './stake-repeat-races';

// Requests racing each other on the same rows. On PostgreSQL they interleave for real: every
// transaction takes its row locks in one order (src/server/db/README.md), and one that still
// meets a deadlock or a serialization failure is run again before anything is answered, so no
// race ends in a 5xx. On PGlite (one connection) the same races run one after another; they
// must answer the same. This file and the others in vitest.config.ts's POSTGRES_FILES are the
// server tests that run on both engines: a race written elsewhere runs on PGlite only. Three
// suites are written beside it and run here (random-writes.ts, removal-races.ts,
// round-results-races.ts, stake-repeat-races.ts), with the helpers they share (race-helpers.ts), so that no file of
// them passes 400 lines.

// One JWT secret, so a second instance on the same database takes the first one's tokens.
const env = {
  ...NO_EXPIRY_TIMER.env,
  SEASONS_INTERVAL_MS: '0',
  JWT_SECRET: randomBytes(24).toString('hex'),
};
const server = useTestServer({ env });

describe('a transaction PostgreSQL ends as a deadlock victim', () => {
  // Two transactions made to lock two rows crosswise: one of them is always the victim. Only
  // PostgreSQL runs two transactions at once (PGlite would wait for ever at the barrier).
  it.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
    'runs again and commits, so neither caller sees the deadlock',
    async () => {
      const owner = await createPlayer(server, 'Owner');
      const [one, other] = [await groupOf(server, owner, []), await groupOf(server, owner, [])];
      const { db } = server.database;
      const lock = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], group: Group) =>
        tx.select({ id: groups.id }).from(groups).where(eq(groups.id, group.id)).for('update');
      let oneHasLocked!: () => void;
      let otherHasLocked!: () => void;
      const barrier = Promise.all([
        new Promise<void>((resolve) => (oneHasLocked = resolve)),
        new Promise<void>((resolve) => (otherHasLocked = resolve)),
      ]);
      const tries = { first: 0, second: 0 };
      const crosswise = (
        first: Group,
        second: Group,
        hasLocked: () => void,
        name: 'first' | 'second',
      ) =>
        db.transaction(async (tx) => {
          tries[name] += 1;
          await lock(tx, first);
          hasLocked();
          await barrier;
          await lock(tx, second);
          return name;
        });
      const outcomes = await Promise.all([
        crosswise(one, other, oneHasLocked, 'first'),
        crosswise(other, one, otherHasLocked, 'second'),
      ]);
      expect(outcomes).toEqual(['first', 'second']);
      // The victim ran twice, the other once.
      expect([tries.first, tries.second].sort()).toEqual([1, 2]);
    },
  );
});

describe('retrying a transaction', () => {
  it('gives up after its tries, and never retries any other error', async () => {
    const { db } = server.database;
    let calls = 0;
    const conflict = Object.assign(new Error('could not serialize access'), { code: '40001' });
    await expect(
      db.transaction(async () => {
        calls += 1;
        throw conflict;
      }),
    ).rejects.toBe(conflict);
    expect(calls).toBe(TRANSACTION_ATTEMPTS);

    calls = 0;
    const other = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(
      db.transaction(async () => {
        calls += 1;
        throw other;
      }),
    ).rejects.toBe(other);
    expect(calls).toBe(1);
  });
});

describe('resolutions racing each other', () => {
  it('pays every bet when two bets with the same wagerers in opposite order resolve at once', async () => {
    const [creator, first, second] = await Promise.all([
      createPlayer(server, 'Creator'),
      createPlayer(server, 'First'),
      createPlayer(server, 'Second'),
    ]);
    const group = await groupOf(server, creator, [first, second]);
    const pairs = await Promise.all(
      Array.from({ length: 20 }, async (): Promise<[Bet, Bet]> => {
        const one = await createBet(server, creator, group);
        const other = await createBet(server, creator, group);
        // Payouts go in wager order: `first` then `second` on one, the other way round on the other.
        await placeWager(server, first, one, 'yes', 1);
        await placeWager(server, second, one, 'yes', 1);
        await placeWager(server, second, other, 'yes', 1);
        await placeWager(server, first, other, 'yes', 1);
        return [one, other];
      }),
    );
    const responses = await Promise.all(
      pairs.flat().map((bet) => resolve(server, creator, bet, 'yes')),
    );
    expect(failuresOf(responses)).toEqual([]);
    expect(statusesOf(responses).every((status) => status === 200)).toBe(true);
  }, 60_000);
});

describe('season changes racing each other', () => {
  it('ends a season once and starts the next without a 5xx when end, end and start race', async () => {
    const [owner, admin, player] = await Promise.all([
      createPlayer(server, 'Owner'),
      createPlayer(server, 'Admin'),
      createPlayer(server, 'Player'),
    ]);
    const races = await Promise.all(
      Array.from({ length: 15 }, async (_, index) => {
        const group = await groupOf(server, owner, [admin, player]);
        await makeAdmin(server, owner, group, admin);
        const bet = await createBet(server, owner, group);
        await placeWager(server, admin, bet, 'yes', 1);
        await placeWager(server, player, bet, 'no', 1);
        await resolve(server, owner, bet, index % 2 ? 'yes' : 'no');
        const season = await startSeason(server, owner, group, 'Spring cup');
        expect(season.status, season.text).toBe(201);
        return { group, seasonId: season.body.id as number };
      }),
    );
    const responses = await Promise.all(
      races.flatMap(({ group, seasonId }) => [
        endSeason(server, owner, group, seasonId),
        endSeason(server, admin, group, seasonId),
        startSeason(server, admin, group, 'Summer cup'),
      ]),
    );
    expect(failuresOf(responses)).toEqual([]);
    races.forEach((_, index) => {
      const [end, otherEnd, start] = statusesOf(responses.slice(index * 3, index * 3 + 3));
      // One end wins; the other finds it over. The start either found it running or came after.
      expect([end, otherEnd].sort()).toEqual([200, 422]);
      expect([201, 409]).toContain(start);
    });
    // 15 groups set up side by side: seconds on a quiet machine, far more on a busy one.
  }, 60_000);
});

describe('sign-ups, new groups and device transfers racing for one name or code', () => {
  it('gives one of two simultaneous sign-ups with the same email a 409, never a 500', async () => {
    const email = newAccount().email;
    const [a, b] = await Promise.all([
      server.request('POST', '/auth/register', { body: newAccount({ email }) }),
      server.request('POST', '/auth/register', { body: newAccount({ email }) }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
  });

  it('answers the same 409 when two creators race for one public name', async () => {
    const [first, second] = [await createPlayer(server), await createPlayer(server)];
    const name = uniqueGroupName('Race');
    const responses = await Promise.all(
      [first, second].map((user) =>
        server.request('POST', '/api/groups', { token: user.accessToken, body: { name } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(responses.find((response) => response.status === 409)!.body.code).toBe(
      'group_name_taken',
    );
  });
  it('redeems a device-transfer code once when two devices redeem it at once', async () => {
    const user = await createUser(server);
    const made = await server.request('POST', '/auth/device-transfers', {
      token: user.accessToken,
    });
    expect(made.status).toBe(201);
    const redeem = () =>
      server.request('POST', '/auth/device-transfers/redeem', {
        body: { transferCode: made.body.transferCode, appName: 'hunch' },
      });
    const answers = await Promise.all([redeem(), redeem()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const again = await redeem();
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_transfer_code');
  });
});

describe('joins and debits racing on one membership', () => {
  it('gives two concurrent joins of the same user one membership and one grant', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner, { privacy: 'private' });
    const { events, stop } = recordEvents(server);
    const responses = await Promise.all([
      server.request('POST', '/api/groups/join-private', {
        token: joiner.accessToken,
        body: { groupId: group.id, inviteCode: group.inviteCode },
      }),
      server.request('POST', '/api/groups/join-private', {
        token: joiner.accessToken,
        body: { groupId: group.id, inviteCode: group.inviteCode },
      }),
      server.request('POST', '/api/groups/join-private', {
        token: joiner.accessToken,
        body: { groupId: group.id, inviteCode: group.inviteCode },
      }),
    ]);
    stop();
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(await grantsOf(server, group, joiner.user.id)).toBe(1);
    expect(await membershipRow(server, group, joiner.user.id)).toMatchObject({
      totalPoints: 100,
      availablePoints: 100,
    });
    expect(events.filter((event) => event.event === 'userJoinedGroup')).toHaveLength(1);
  });

  it('gives concurrent rejoins of a former member one restored membership and no new grant', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner);
    await joinGroup(server, joiner, group);
    await server.request('POST', `/api/groups/${group.id}/leave`, { token: joiner.accessToken });
    const { events, stop } = recordEvents(server);
    await Promise.all([joinGroup(server, joiner, group), joinGroup(server, joiner, group)]);
    stop();
    expect(await grantsOf(server, group, joiner.user.id)).toBe(1);
    expect(events.filter((event) => event.event === 'userJoinedGroup')).toHaveLength(1);
  });

  it('adds a removed player back once when two admins add them back at once', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    await server.request('DELETE', `/api/groups/${group.id}/members/${member.user.id}`, {
      token: creator.accessToken,
    });
    const addBack = (by: typeof admin) =>
      server.request('POST', `/api/groups/${group.id}/members/${member.user.id}/add-back`, {
        token: by.accessToken,
      });
    const { events, stop } = recordEvents(server);
    const answers = await Promise.all([addBack(creator), addBack(admin)]);
    stop();
    // Decided under the group's row lock: the second sees them back already.
    expect(statusesOf(answers).sort((a, b) => a - b)).toEqual([200, 409]);
    expect(events.filter((event) => event.event === 'userJoinedGroup')).toHaveLength(1);
    expect(await grantsOf(server, group, member.user.id)).toBe(1);
  });

  it('never overspends under concurrent debits', async () => {
    const [owner, player] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner, { defaultPoints: 100 });
    await joinGroup(server, player, group);
    const userId = player.user.id;
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        server.database.db.transaction((tx) =>
          applyLedgerEvent(tx, {
            groupId: group.id,
            userId,
            event: { kind: 'wager_placed', points: 30 },
          }),
        ),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(await membershipRow(server, group, userId)).toMatchObject({
      totalPoints: 100,
      availablePoints: 10,
    });
  });
});

describe('wagers racing for one balance or one bet', () => {
  it('lets exactly the affordable ones of 40 concurrent wagers through, never below zero', async () => {
    const owner = await createPlayer(server);
    const group = await createGroup(server, owner, { defaultPoints: 10 });
    const bets = [];
    for (let index = 0; index < 40; index += 1)
      bets.push(await createBet(server, owner, group, { title: `Race ${index}` }));
    const responses = await Promise.all(bets.map((bet) => postWager(server, owner, bet, 'yes', 1)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 422)).toHaveLength(30);
    expect(
      responses
        .filter((response) => response.status === 422)
        .every((response) => response.body.code === 'insufficient_points'),
    ).toBe(true);
    expect(await pointsOf(server, owner, group)).toEqual({ total: 10, available: 0 });
    const mine = await server.request('GET', `/api/bets/user/wagers?group=${group.id}`, {
      token: owner.accessToken,
    });
    expect(mine.body).toHaveLength(10);
  });

  it('lets only one of two concurrent first wagers on one bet through', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const responses = await Promise.all([
      postWager(server, member, bet, 'yes', 1),
      postWager(server, member, bet, 'no', 1),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 99 });
  });
});

describe('settlements racing on one bet', () => {
  it('pays once when two resolves race', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    await placeWager(server, creator, bet, 'yes', 2);
    await placeWager(server, member, bet, 'no', 2);
    const recorder = recordEvents(server);
    const responses = await Promise.all([
      resolve(server, creator, bet, 'yes'),
      resolve(server, creator, bet, 'no'),
    ]);
    recorder.stop();
    expect(responses.map((response) => response.status).sort()).toEqual([200, 422]);
    expect(recorder.events.filter((published) => published.event === 'betResolved')).toHaveLength(
      1,
    );
    const winner =
      responses.find((response) => response.status === 200)!.body.correctAnswer === 'yes'
        ? creator
        : member;
    expect(await pointsOf(server, winner, group)).toEqual({ total: 102, available: 102 });
  });

  it('settles once when a cancel and a resolve race', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    await placeWager(server, creator, bet, 'yes', 3);
    await placeWager(server, member, bet, 'no', 3);
    const responses = await Promise.all([
      cancel(server, creator, bet),
      resolve(server, creator, bet, 'yes'),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 422]);
  });
});

describeRandomWrites(server);

describeRemovalRaces(server, env);

describeRoundResultsRaces(server);
describeStakeRepeatRaces(server, env);
