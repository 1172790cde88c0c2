import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import { floorTopUpTarget, isoWeek } from '../../../src/domain/floor-top-up';
import { ledger } from '../../../src/server/db/schema';
import { runFloorTopUp, startFloorTopUpJob } from '../../../src/server/jobs/floor-top-up.job';
import { useTestServer } from '../harness';
import {
  cancel,
  createBet,
  DAY,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
} from '../bets/bet.factories';
import { createGroupWithRoles } from './group.factories';

// "Nobody is out of the game": a member whose available points fall below the
// largest base wager is topped up to the floor once a week, recorded in the ledger; the
// harness then checks every membership still equals its ledger, and that a group's points are
// its join grants plus its top-ups.

const server = useTestServer(NO_EXPIRY_TIMER);

const WEEK = 7 * DAY;

/** A group of 10 starting points whose member has 9 of them in an open wager: 1 available. */
async function drainedMember() {
  const roles = await createGroupWithRoles(server, { defaultPoints: 10 });
  const bet = await createBet(server, roles.creator, roles.group, { baseWagerAmount: 3 });
  await placeWager(server, roles.member, bet, 'yes', 9);
  return { ...roles, bet };
}

function topUps(group: Group, user: AuthResponse) {
  return server.database.db
    .select()
    .from(ledger)
    .where(
      and(
        eq(ledger.groupId, group.id),
        eq(ledger.userId, user.user.id),
        eq(ledger.kind, 'floor_top_up'),
      ),
    );
}

describe('isoWeek', () => {
  it('names ISO weeks, the Thursday deciding the year', () => {
    expect(isoWeek(new Date('2026-11-23T00:00:00Z'))).toBe('2026-W48');
    expect(isoWeek(new Date('2026-11-29T23:59:59Z'))).toBe('2026-W48');
    expect(isoWeek(new Date('2026-11-30T00:00:00Z'))).toBe('2026-W49');
    expect(isoWeek(new Date('2027-01-01T12:00:00Z'))).toBe('2026-W53');
    expect(isoWeek(new Date('2024-12-30T12:00:00Z'))).toBe('2025-W01');
  });
});

describe('runFloorTopUp', () => {
  it('tops a member below the base wager up to the floor, once a week, in the ledger', async () => {
    const { group, creator, member, bet } = await drainedMember();
    const now = server.clock.now();
    expect(await pointsOf(server, member, group)).toEqual({ total: 10, available: 1 });
    const floor = floorTopUpTarget(10);

    const made = await runFloorTopUp({ db: server.database.db }, now);
    expect(made.filter((topUp) => topUp.groupId === group.id)).toEqual([
      {
        groupId: group.id,
        userId: member.user.id,
        week: isoWeek(now),
        points: floor - 1,
        availablePoints: floor,
      },
    ]);
    expect(await pointsOf(server, member, group)).toEqual({
      total: 10 + floor - 1,
      available: floor,
    });
    // The held wager is untouched; the others had enough.
    expect(await pointsOf(server, creator, group)).toEqual({ total: 10, available: 10 });

    // Same week: nothing more, even after the member is drained again.
    const again = await createBet(server, creator, group, { baseWagerAmount: 3 });
    await placeWager(server, member, again, 'no', 9);
    expect(
      (await runFloorTopUp({ db: server.database.db }, now)).map((t) => t.groupId),
    ).not.toContain(group.id);
    expect(await topUps(group, member)).toHaveLength(1);

    // Next week: topped up again.
    const nextWeek = new Date(now.getTime() + WEEK);
    const later = await runFloorTopUp({ db: server.database.db }, nextWeek);
    expect(later.filter((topUp) => topUp.groupId === group.id)).toHaveLength(1);
    expect(await topUps(group, member)).toHaveLength(2);

    // Open bets carry on: cancelling refunds the held points exactly.
    await cancel(server, creator, bet);
    await cancel(server, creator, again);
    const points = await pointsOf(server, member, group);
    expect(points.available).toBe(points.total);
  });

  it('tops each member up once when runs overlap (two instances), across batches', async () => {
    const setups = [];
    for (let index = 0; index < 3; index += 1) setups.push(await drainedMember());
    const deps = { db: server.database.db };
    const now = server.clock.now();
    const runs = await Promise.all([
      runFloorTopUp(deps, now, { batchSize: 1 }),
      runFloorTopUp(deps, now, { batchSize: 2 }),
      runFloorTopUp(deps, now),
    ]);
    const ids = new Set(setups.map((setup) => setup.group.id));
    const made = runs.flat().filter((topUp) => ids.has(topUp.groupId));
    expect(made).toHaveLength(3);
    for (const setup of setups) {
      expect(await topUps(setup.group, setup.member)).toHaveLength(1);
      expect(await pointsOf(server, setup.member, setup.group)).toEqual({
        total: 10 + floorTopUpTarget(10) - 1,
        available: floorTopUpTarget(10),
      });
    }
  });

  it('leaves a group alone once an admin turns the top-up off, and resumes when on', async () => {
    const { group, admin, member } = await drainedMember();
    const off = await server.request('PATCH', `/api/groups/${group.id}/settings`, {
      token: admin.accessToken,
      body: { floorTopUp: false },
    });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ floorTopUp: false });
    const read = await server.request('GET', `/api/groups/${group.id}/settings`, {
      token: admin.accessToken,
    });
    expect(read.body).toEqual({ floorTopUp: false });
    const now = server.clock.now();
    await runFloorTopUp({ db: server.database.db }, now);
    expect(await topUps(group, member)).toHaveLength(0);

    await server.request('PATCH', `/api/groups/${group.id}/settings`, {
      token: admin.accessToken,
      body: { floorTopUp: true },
    });
    await runFloorTopUp({ db: server.database.db }, now);
    expect(await topUps(group, member)).toHaveLength(1);
  });

  it('refuses settings that are not a boolean, and a member', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const bad = await server.request('PATCH', `/api/groups/${group.id}/settings`, {
      token: admin.accessToken,
      body: { floorTopUp: 'no' },
    });
    expect(bad.status).toBe(400);
    const extra = await server.request('PATCH', `/api/groups/${group.id}/settings`, {
      token: admin.accessToken,
      body: { floorTopUp: true, defaultPoints: 5 },
    });
    expect(extra.status).toBe(400);
    const refused = await server.request('PATCH', `/api/groups/${group.id}/settings`, {
      token: member.accessToken,
      body: { floorTopUp: false },
    });
    expect(refused.status).toBe(403);
  });

  it('runs on its interval when started, and stops', async () => {
    const { group, member } = await drainedMember();
    const at = server.clock.now();
    const job = startFloorTopUpJob({ db: server.database.db, intervalMs: 20, now: () => at });
    try {
      await expect
        .poll(async () => (await pointsOf(server, member, group)).available, { timeout: 5000 })
        .toBe(floorTopUpTarget(10));
    } finally {
      await job.stop();
    }
  });
});
