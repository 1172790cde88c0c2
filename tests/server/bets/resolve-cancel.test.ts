import { describe, expect, it } from 'vitest';
import { BET_MESSAGES } from '../../../src/domain/bet-limits';
import { createGroupWithRoles, recordEvents } from '../groups/group.factories';
import type { PublishedEvent } from '../../../src/server/events';
import { useTestServer } from '../harness';
import {
  cancel,
  createBet,
  DAY,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  resolve,
} from './bet.factories';

// Resolving and cancelling (docs/architecture.md §5): the creator resolves, before or after
// expiry, once; the creator or a group admin cancels; every point moves in the same
// transaction as the state change, and the events follow the commit.

const server = useTestServer(NO_EXPIRY_TIMER);

/**
 * The events of one group: the wager totals of an earlier test's group reach the bus up to a
 * second later (wager-totals.announcer.ts gathers them), and must not count here.
 */
// The group's settlement events. The totals of the wagers placed while arranging reach the
// group by a 1 s timer (wager-totals.announcer.ts), which on a loaded machine can fire while a
// test records: those are not what these tests are about.
function ofGroup(events: PublishedEvent[], groupId: number): PublishedEvent[] {
  return events.filter(
    (published) =>
      published.event !== 'wagerPlaced' &&
      'groupId' in published.audience &&
      published.audience.groupId === groupId,
  );
}

describe('resolving', () => {
  it('pays once: a second resolve is 422 already_resolved and moves nothing', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    await placeWager(server, creator, bet, 'yes', 1);
    await placeWager(server, member, bet, 'no', 3);
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    const again = await resolve(server, creator, bet, 'no');
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      code: 'already_resolved',
      message: 'This bet has already been resolved.',
    });
    expect(await pointsOf(server, creator, group)).toEqual({ total: 103, available: 103 });
    expect(await pointsOf(server, member, group)).toEqual({ total: 97, available: 97 });
  });

  it('is for the creator only: an admin or a member gets 403 not_bet_creator', async () => {
    const { group, creator, admin, member, outsider } = await createGroupWithRoles(server);
    const bet = await createBet(server, member, group);
    for (const someone of [creator, admin, outsider]) {
      const response = await resolve(server, someone, bet, 'yes');
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        code: 'not_bet_creator',
        message: 'Only the creator of this bet can resolve it.',
      });
    }
    expect((await resolve(server, member, bet, 'yes')).status).toBe(200);
  });

  it('works after expiry too', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    await placeWager(server, member, bet, 'yes', 1);
    server.clock.advance(3 * DAY);
    try {
      expect((await resolve(server, creator, bet, 'yes')).body.state).toBe('resolved');
    } finally {
      server.clock.advance(-3 * DAY);
    }
  });

  it('checks the answer against the type, with the messages of docs/groups-and-bets.md §5', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const yesNo = await createBet(server, creator, group);
    const choice = await createBet(server, creator, group, {
      betType: 'multiple_choice',
      betTypeConfig: { options: ['A', 'B'] },
    });
    const overUnder = await createBet(server, creator, group, {
      betType: 'over_under',
      betTypeConfig: { line: 2 },
    });
    expect((await resolve(server, creator, yesNo, ' ')).body.fieldErrors).toEqual({
      correctAnswer: BET_MESSAGES.answerRequired,
    });
    expect((await resolve(server, creator, yesNo, 'perhaps')).body).toEqual({
      code: 'invalid_answer',
      message: BET_MESSAGES.answerYesNo,
      fieldErrors: { correctAnswer: BET_MESSAGES.answerYesNo },
    });
    expect((await resolve(server, creator, choice, 'C')).body.message).toBe(
      BET_MESSAGES.answerNotAnOption,
    );
    expect((await resolve(server, creator, overUnder, 'over')).body.message).toBe(
      BET_MESSAGES.numberInvalid,
    );
  });

  it('publishes betResolved to the group after commit; a refund adds pointsRefunded', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const paid = await createBet(server, creator, group);
    const refunded = await createBet(server, creator, group);
    await placeWager(server, creator, paid, 'yes', 1);
    await placeWager(server, member, paid, 'no', 2);
    await placeWager(server, member, refunded, 'no', 2);
    const recorder = recordEvents(server);
    // The listener reads the database: an event published before the commit would see the bet still active.
    const statesSeen: string[] = [];
    const stopProbe = server.app.events.subscribe(async (published) => {
      if (published.event === 'betResolved') {
        const response = await server.request('GET', `/api/bets/${published.payload.betId}`, {
          token: creator.accessToken,
        });
        statesSeen.push(response.body.state);
      }
    });
    await resolve(server, creator, paid, 'yes');
    await resolve(server, creator, refunded, 'yes');
    recorder.stop();
    stopProbe();
    await expect.poll(() => statesSeen).toEqual(['resolved', 'resolved']);
    expect(ofGroup(recorder.events, group.id)).toEqual([
      {
        event: 'betResolved',
        payload: {
          betId: paid.id,
          groupId: group.id,
          distributions: [
            { userId: creator.user.id, winnings: 3, wagerAmount: 1 },
            { userId: member.user.id, winnings: 0, wagerAmount: 2 },
          ],
          version: expect.any(Number),
        },
        audience: { groupId: group.id },
      },
      {
        event: 'betResolved',
        payload: {
          betId: refunded.id,
          groupId: group.id,
          distributions: [{ userId: member.user.id, winnings: 2, wagerAmount: 2 }],
          version: expect.any(Number),
        },
        audience: { groupId: group.id },
      },
      {
        event: 'pointsRefunded',
        payload: {
          betId: refunded.id,
          groupId: group.id,
          totalRefunded: 2,
          refundedParticipants: 1,
        },
        audience: { groupId: group.id },
      },
    ]);
  });

  it('publishes nothing when the resolve is refused', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const recorder = recordEvents(server);
    await resolve(server, member, bet, 'yes');
    await resolve(server, creator, bet, 'nope');
    recorder.stop();
    expect(ofGroup(recorder.events, group.id)).toEqual([]);
  });
});

describe('cancelling', () => {
  it('refunds every wager and publishes betCancelled and pointsRefunded', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
    await placeWager(server, creator, bet, 'yes', 2);
    await placeWager(server, admin, bet, 'no', 4);
    await placeWager(server, member, bet, 'no', 6);
    const recorder = recordEvents(server);
    const response = await cancel(server, creator, bet);
    recorder.stop();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: bet.id, state: 'cancelled' });
    for (const user of [creator, admin, member])
      expect(await pointsOf(server, user, group)).toEqual({ total: 100, available: 100 });
    expect(ofGroup(recorder.events, group.id)).toEqual([
      {
        event: 'betCancelled',
        payload: {
          betId: bet.id,
          groupId: group.id,
          totalPointsRefunded: 12,
          version: expect.any(Number),
        },
        audience: { groupId: group.id },
      },
      {
        event: 'pointsRefunded',
        payload: { betId: bet.id, groupId: group.id, totalRefunded: 12, refundedParticipants: 3 },
        audience: { groupId: group.id },
      },
    ]);
  });

  it('is open to a group admin, not to a plain member or an outsider', async () => {
    const { group, creator, admin, member, outsider } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    for (const someone of [member, outsider]) {
      const refused = await cancel(server, someone, bet);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('cannot_cancel_bet');
    }
    expect((await cancel(server, admin, bet)).status).toBe(200);
  });

  it('cannot cancel a resolved bet, nor cancel twice; a cancelled bet cannot be resolved', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const resolved = await createBet(server, creator, group);
    await resolve(server, creator, resolved, 'yes');
    expect((await cancel(server, creator, resolved)).body.code).toBe('already_resolved');
    const cancelled = await createBet(server, creator, group);
    await placeWager(server, creator, cancelled, 'yes', 1);
    expect((await cancel(server, creator, cancelled)).status).toBe(200);
    const twice = await cancel(server, creator, cancelled);
    expect(twice.status).toBe(422);
    expect(twice.body).toEqual({
      code: 'bet_not_active',
      message: 'This bet is cancelled and can no longer be changed.',
    });
    expect((await resolve(server, creator, cancelled, 'yes')).body.code).toBe('bet_not_active');
    expect(await pointsOf(server, creator, group)).toEqual({ total: 100, available: 100 });
  });

  it('publishes only betCancelled when nobody had wagered', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const recorder = recordEvents(server);
    await cancel(server, creator, bet);
    recorder.stop();
    expect(ofGroup(recorder.events, group.id).map((published) => published.event)).toEqual([
      'betCancelled',
    ]);
  });
});

describe('a creator who is no longer a member', () => {
  for (const how of ['left', 'were removed'] as const) {
    it(`resolves and cancels nothing once they ${how}, and their bets leave their member state`, async () => {
      const { group, creator, admin, member } = await createGroupWithRoles(server);
      const bet = await createBet(server, member, group);
      await placeWager(server, member, bet, 'yes', 3);
      await placeWager(server, admin, bet, 'no', 1);
      if (how === 'left')
        await server.request('POST', `/api/groups/${group.id}/leave`, {
          token: member.accessToken,
        });
      else
        await server.request('DELETE', `/api/groups/${group.id}/members/${member.user.id}`, {
          token: creator.accessToken,
        });

      const resolved = await resolve(server, member, bet, 'yes');
      expect(resolved.status).toBe(403);
      expect(resolved.body.code).toBe('not_member');
      const cancelled = await cancel(server, member, bet);
      expect(cancelled.status).toBe(403);
      expect(cancelled.body.code).toBe('not_member');
      const state = await server.request('GET', '/api/member/state', { token: member.accessToken });
      expect(state.body.betsToResolve).toEqual({});
      expect(
        (await server.request('GET', `/api/bets/${bet.id}`, { token: admin.accessToken })).body
          .state,
      ).toBe('active');
    });
  }

  it("lets a current admin resolve a departed creator's bet, paying the departed creator too", async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, member, group);
    await placeWager(server, member, bet, 'yes', 3);
    await placeWager(server, creator, bet, 'no', 1);
    await server.request('POST', `/api/groups/${group.id}/leave`, { token: member.accessToken });
    const response = await resolve(server, admin, bet, 'yes');
    expect(response.status).toBe(200);
    expect(response.body.state).toBe('resolved');
  });

  it("lets a current admin cancel a departed creator's bet, refunding every wager", async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, member, group);
    await placeWager(server, member, bet, 'yes', 2);
    await server.request('DELETE', `/api/groups/${group.id}/members/${member.user.id}`, {
      token: creator.accessToken,
    });
    expect((await cancel(server, admin, bet)).status).toBe(200);
  });

  it('still refuses a plain member the bet of a departed creator', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, admin, group);
    await server.request('DELETE', `/api/groups/${group.id}/members/${admin.user.id}`, {
      token: creator.accessToken,
    });
    expect((await resolve(server, member, bet, 'yes')).body.code).toBe('not_bet_creator');
    expect((await cancel(server, member, bet)).body.code).toBe('cannot_cancel_bet');
  });
});
