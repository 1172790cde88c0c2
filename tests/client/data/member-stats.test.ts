// @vitest-environment node
import '../node-browser';
import { describe, expect, it } from 'vitest';
import { mirrorMemberStats } from '../../../src/client/data/member-stats';
import type { AuthResponse } from '../../../src/domain/auth';
import type { MemberStats } from '../../../src/domain/member-stats';
import {
  cancel,
  createBet,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { useDeviceServer } from './device.fixture';

// Offline, a member's stats page is worked out from the device's mirror by the rule the server
// follows (src/domain/member-outcomes.ts): the record and head-to-head must be the server's own,
// or a player sees one record online and another on the train. Only the points line, which
// needs the ledger, is the caller's.

const { server, openDevice } = useDeviceServer(NO_EXPIRY_TIMER);

function serverStats(viewer: AuthResponse, groupId: number, userId: number, vs?: number) {
  const query = vs === undefined ? '' : `?vs=${vs}`;
  return server.request<MemberStats>(
    'GET',
    `/api/groups/${groupId}/members/${userId}/stats${query}`,
    { token: viewer.accessToken },
  );
}

describe('a member’s stats from the mirror', () => {
  it('are the server’s record and head-to-head, resolved bets only, undone ones left out', async () => {
    const me = await createPlayer(server, 'Me');
    const friend = await createPlayer(server, 'Friend');
    const third = await createPlayer(server, 'Third');
    const group = await createGroup(server, me);
    await joinGroup(server, friend, group);
    await joinGroup(server, third, group);

    // Both right, both on one side, each on their own, one refunded, one cancelled, one undone
    // and one still open: every kind of line the record and head-to-head count or skip.
    const plans: Array<{
      picks: Array<[AuthResponse, string, number]>;
      answer?: string;
      fate?: 'cancel' | 'undo';
      type?: 'multiple_choice';
    }> = [
      {
        picks: [
          [me, 'yes', 3],
          [friend, 'no', 2],
          [third, 'no', 1],
        ],
        answer: 'yes',
      },
      {
        picks: [
          [me, 'no', 1],
          [friend, 'no', 3],
          [third, 'yes', 2],
        ],
        answer: 'yes',
      },
      {
        type: 'multiple_choice',
        picks: [
          [me, 'Red', 2],
          [friend, 'Blue', 1],
        ],
        answer: 'Blue',
      },
      {
        picks: [
          [friend, 'yes', 1],
          [third, 'no', 1],
        ],
        answer: 'no',
      },
      // Nobody picked the answer: everyone refunded, neither won nor lost.
      {
        picks: [
          [me, 'no', 1],
          [friend, 'no', 2],
        ],
        answer: 'yes',
      },
      {
        picks: [
          [me, 'yes', 2],
          [friend, 'no', 2],
        ],
        fate: 'cancel',
      },
      {
        picks: [
          [me, 'yes', 1],
          [friend, 'no', 3],
        ],
        answer: 'yes',
        fate: 'undo',
      },
      {
        picks: [
          [me, 'yes', 1],
          [friend, 'no', 1],
        ],
      },
    ];
    for (const plan of plans) {
      const bet = await createBet(
        server,
        me,
        group,
        plan.type
          ? { betType: plan.type, betTypeConfig: { options: ['Red', 'Blue', 'Green'] } }
          : {},
      );
      for (const [player, prediction, points] of plan.picks)
        await placeWager(server, player, bet, prediction, points);
      if (plan.fate === 'cancel') expect((await cancel(server, me, bet)).status).toBe(200);
      if (plan.answer !== undefined)
        expect((await resolve(server, me, bet, plan.answer)).status).toBe(200);
      if (plan.fate === 'undo') {
        const undone = await server.request('POST', `/api/bets/${bet.id}/undo-resolution`, {
          token: me.accessToken,
        });
        expect(undone.status).toBe(200);
      }
    }

    const phone = await openDevice(me);
    await phone.local.sync();
    for (const [userId, vs] of [
      [me.user.id, friend.user.id],
      [friend.user.id, third.user.id],
      [third.user.id, undefined],
      // Against oneself is no head-to-head, as on the server.
      [me.user.id, me.user.id],
    ] as const) {
      const online = await serverStats(me, group.id, userId, vs);
      expect(online.status).toBe(200);
      const offline = await mirrorMemberStats(
        group.id,
        userId,
        vs,
        online.body.pointsOverTime,
        phone.db,
      );
      expect(offline).toEqual(online.body);
    }
    // Sanity: the cases above are not all empty records.
    const mine = await mirrorMemberStats(group.id, me.user.id, friend.user.id, [], phone.db);
    expect(mine).toMatchObject({ betsPlayed: 4, won: 1, lost: 2 });
    expect(mine?.headToHead).not.toBeNull();
  });

  it('are none for someone the mirror does not hold as a member', async () => {
    const me = await createPlayer(server, 'Me');
    const stranger = await createPlayer(server, 'Stranger');
    const group = await createGroup(server, me);
    const phone = await openDevice(me);
    await phone.local.sync();
    expect(await mirrorMemberStats(group.id, stranger.user.id, undefined, [], phone.db)).toBeNull();
    // A rival who is not a member gives no head-to-head, and no error.
    const alone = await mirrorMemberStats(group.id, me.user.id, stranger.user.id, [], phone.db);
    expect(alone).toMatchObject({ userId: me.user.id, betsPlayed: 0, headToHead: null });
  });
});
