import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledger, memberships } from '../../../src/server/db/schema';
import { AppError } from '../../../src/server/errors';
import { applyLedgerEvent } from '../../../src/server/groups/ledger-writer';
import {
  listActiveGroupIds,
  listActiveMemberIds,
} from '../../../src/server/groups/membership-queries';
import { useTestServer } from '../harness';
import { createBet, placeWager } from '../bets/bet.factories';
import {
  createGroup,
  createPlayer,
  grantsOf,
  joinGroup,
  membershipRow,
  recordEvents,
} from './group.factories';

// Joining, leaving and the points functions the bets feature calls (membership.service.ts,
// ledger-writer.ts): one membership and one grant, and a debit that never overspends. Their
// races, which only PostgreSQL really interleaves, are in db/concurrency.test.ts.

const server = useTestServer();

describe('joining', () => {
  it('publishes userJoinedGroup to the group once the membership is committed', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner, { defaultPoints: 55 });
    const seenByListener: Array<Promise<unknown>> = [];
    const stop = server.app.events.subscribe((published) => {
      // Read through the pool (PostgreSQL) or after the running transaction (PGlite): only a committed join is visible.
      if (published.event === 'userJoinedGroup')
        seenByListener.push(membershipRow(server, group, published.payload.userId));
    });
    const { events, stop: stopRecording } = recordEvents(server);
    await joinGroup(server, joiner, group);
    stop();
    stopRecording();
    expect(events).toEqual([
      {
        event: 'userJoinedGroup',
        payload: {
          groupId: group.id,
          userId: joiner.user.id,
          userName: joiner.user.displayName,
          totalPoints: 55,
          availablePoints: 55,
          version: expect.any(Number),
        },
        audience: { groupId: group.id },
      },
    ]);
    expect(await Promise.all(seenByListener)).toEqual([
      expect.objectContaining({ userId: joiner.user.id, leftAt: null }),
    ]);
  });

  it('still answers the request when a listener fails', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner);
    const stop = server.app.events.subscribe(() => {
      throw new Error('socket down');
    });
    try {
      expect((await joinGroup(server, joiner, group)).memberUserIds).toContain(joiner.user.id);
    } finally {
      stop();
    }
  });
});

describe('leaving and joining again', () => {
  it('keeps the points, including what open wagers set aside, and never grants twice', async () => {
    const [owner, player] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner);
    await joinGroup(server, player, group);
    await applyLedgerEvent(server.database.db, {
      groupId: group.id,
      userId: player.user.id,
      event: { kind: 'wager_placed', points: 30 },
    });
    await applyLedgerEvent(server.database.db, {
      groupId: group.id,
      userId: owner.user.id,
      event: { kind: 'wager_placed', points: 15 },
    });

    await server.request('POST', `/api/groups/${group.id}/leave`, { token: player.accessToken });
    expect(await membershipRow(server, group, player.user.id)).toMatchObject({
      totalPoints: 100,
      availablePoints: 70,
      leftAt: expect.any(Date),
    });
    expect(await listActiveMemberIds(server.database.db, group.id)).toEqual([owner.user.id]);
    expect(await listActiveGroupIds(server.database.db, player.user.id)).toEqual([]);

    // An open wager still settles while they are away (the pool of 45 goes to them).
    await applyLedgerEvent(server.database.db, {
      groupId: group.id,
      userId: player.user.id,
      event: { kind: 'payout', winnings: 45, wagerAmount: 30 },
    });
    await applyLedgerEvent(server.database.db, {
      groupId: group.id,
      userId: owner.user.id,
      event: { kind: 'payout', winnings: 0, wagerAmount: 15 },
    });

    const rejoined = await joinGroup(server, player, group);
    expect(rejoined.memberUserIds).toContain(player.user.id);
    const membership = await server.request('GET', `/api/groups/${group.id}/membership`, {
      token: player.accessToken,
    });
    expect(membership.body).toMatchObject({ totalPoints: 115, availablePoints: 115 });
    expect(await grantsOf(server, group, player.user.id)).toBe(1);
  });
});

describe('applyLedgerEvent', () => {
  async function memberOf(points = 100) {
    const [owner, player] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner, { defaultPoints: points });
    await joinGroup(server, player, group);
    return { group, owner, userId: player.user.id };
  }

  it('debits available points and writes the ledger row in the caller’s transaction', async () => {
    const { group, owner, userId } = await memberOf();
    // The ledger's bet and wager ids reference real rows (foreign keys): take the owner's.
    const bet = await createBet(server, owner, group);
    const wager = await placeWager(server, owner, bet, 'yes', 1);
    const after = await server.database.db.transaction((tx) =>
      applyLedgerEvent(tx, {
        groupId: group.id,
        userId,
        event: { kind: 'wager_placed', points: 40 },
        betId: bet.id,
        wagerId: wager.id,
      }),
    );
    expect(after).toMatchObject({ totalPoints: 100, availablePoints: 60 });
    const rows = await server.database.db
      .select()
      .from(ledger)
      .where(
        and(
          eq(ledger.groupId, group.id),
          eq(ledger.userId, userId),
          eq(ledger.kind, 'wager_placed'),
        ),
      );
    expect(rows).toEqual([
      expect.objectContaining({
        totalDelta: 0,
        availableDelta: -40,
        betId: bet.id,
        wagerId: wager.id,
      }),
    ]);
  });

  it('refuses to overspend with 422 insufficient_points and changes nothing', async () => {
    const { group, userId } = await memberOf(50);
    const attempt = applyLedgerEvent(server.database.db, {
      groupId: group.id,
      userId,
      event: { kind: 'wager_placed', points: 51 },
    });
    await expect(attempt).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof AppError &&
        error.statusCode === 422 &&
        error.code === 'insufficient_points' &&
        error.message.includes('needs 51') &&
        error.message.includes('50 available'),
    );
    expect(await membershipRow(server, group, userId)).toMatchObject({
      totalPoints: 50,
      availablePoints: 50,
    });
  });

  it('rolls back with the caller’s transaction', async () => {
    const { group, userId } = await memberOf();
    await expect(
      server.database.db.transaction(async (tx) => {
        await applyLedgerEvent(tx, {
          groupId: group.id,
          userId,
          event: { kind: 'wager_placed', points: 10 },
        });
        throw new Error('the bet was closed meanwhile');
      }),
    ).rejects.toThrow('closed');
    expect(await membershipRow(server, group, userId)).toMatchObject({ availablePoints: 100 });
  });

  it('refuses debits to someone who left or never joined with 403 not_member, but still credits a former member', async () => {
    const { group, userId } = await memberOf();
    await applyLedgerEvent(server.database.db, {
      groupId: group.id,
      userId,
      event: { kind: 'wager_placed', points: 20 },
    });
    await server.database.db
      .update(memberships)
      .set({ leftAt: new Date() })
      .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, userId)));
    const isNotMember = (error: unknown) =>
      error instanceof AppError && error.code === 'not_member';
    await expect(
      applyLedgerEvent(server.database.db, {
        groupId: group.id,
        userId,
        event: { kind: 'wager_placed', points: 1 },
      }),
    ).rejects.toSatisfy(isNotMember);
    await expect(
      applyLedgerEvent(server.database.db, {
        groupId: group.id,
        userId: 999999,
        event: { kind: 'refund', wagerAmount: 1 },
      }),
    ).rejects.toSatisfy(isNotMember);
    expect(
      await applyLedgerEvent(server.database.db, {
        groupId: group.id,
        userId,
        event: { kind: 'refund', wagerAmount: 20 },
      }),
    ).toMatchObject({ availablePoints: 100 });
  });
});
