import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import type { SyncPushResponse } from '../../../src/domain/schemas/sync';
import { createBet, NO_EXPIRY_TIMER, postWager } from '../bets/bet.factories';
import { useTestServer } from '../harness';
import { notificationText } from '../../../src/domain/notification-texts';
import { inboxOf } from '../notifications/notification.factories';
import { createGroupWithRoles, joinGroup, membershipRow } from './group.factories';

// An admin's "Add back" (POST /api/groups/{id}/members/{userId}/add-back, the push's
// `addBackMember`): only a current admin, only for a player an admin removed, decided under the
// group's row lock (group-policy.ts addBackMemberRefusal); the player returns with the points
// and wagers they had and may play again. A removed player trying to come back by themself is
// told whom to ask.

const server = useTestServer(NO_EXPIRY_TIMER);

type Answer = Group & Partial<{ code: string; message: string }>;

const addBack = (by: AuthResponse, group: Pick<Group, 'id'>, userId: number) =>
  server.request<Answer>('POST', `/api/groups/${group.id}/members/${userId}/add-back`, {
    token: by.accessToken,
  });

const remove = (by: AuthResponse, group: Pick<Group, 'id'>, userId: number) =>
  server.request<Answer>('DELETE', `/api/groups/${group.id}/members/${userId}`, {
    token: by.accessToken,
  });

const readGroup = async (by: AuthResponse, group: Pick<Group, 'id'>) =>
  (await server.request<Group>('GET', `/api/groups/${group.id}`, { token: by.accessToken })).body;

describe('Add back', () => {
  it('is for current admins only', async () => {
    const { group, creator, admin, member, outsider } = await createGroupWithRoles(server);
    const [other] = [(await createGroupWithRoles(server)).member];
    await joinGroup(server, other!, group);
    expect((await remove(creator, group, member.user.id)).status).toBe(200);

    const byMember = await addBack(other!, group, member.user.id);
    expect([byMember.status, byMember.body.code]).toEqual([403, 'not_group_admin']);
    const byOutsider = await addBack(outsider, group, member.user.id);
    expect([byOutsider.status, byOutsider.body.code]).toEqual([403, 'not_member']);
    const byAdmin = await addBack(admin, group, member.user.id);
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.body.memberUserIds).toContain(member.user.id);
    expect(byAdmin.body.removedMembers).toBeUndefined();
  });

  it('refuses, with a clear 409, anyone an admin did not remove', async () => {
    const { group, creator, admin, member, outsider } = await createGroupWithRoles(server);
    const notRemoved = { code: 'member_not_removed' };
    // A current member, a stranger, one who left by themself: none of them is kept out.
    for (const userId of [member.user.id, outsider.user.id, 999_999]) {
      const answer = await addBack(admin, group, userId);
      expect(answer.status, String(userId)).toBe(409);
      expect(answer.body).toMatchObject(notRemoved);
    }
    await server.request('POST', `/api/groups/${group.id}/leave`, { token: member.accessToken });
    expect((await addBack(creator, group, member.user.id)).body).toMatchObject(notRemoved);
    // Nothing changed: the one who left is still out, nobody was enrolled.
    expect((await readGroup(creator, group)).memberUserIds.sort()).toEqual(
      [creator.user.id, admin.user.id].sort(),
    );
  });

  it('brings a removed player back with their points and wagers; they may play again', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server, {
      privacy: 'private',
    });
    const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
    expect((await postWager(server, member, bet, 'yes', 4)).status).toBe(201);
    const before = await membershipRow(server, group, member.user.id);
    await remove(admin, group, member.user.id);

    // Admins see whom they removed, by name; a member does not.
    expect((await readGroup(creator, group)).removedMembers).toEqual([
      { userId: member.user.id, userName: member.user.displayName },
    ]);
    expect((await readGroup(admin, group)).removedMembers).toHaveLength(1);

    // Their inbox says who removed them from which group (its name now).
    const removal = (await inboxOf(server, member)).notifications.filter(
      (n) => n.kind === 'removedFromGroup',
    );
    expect(removal.map((n) => notificationText(n).title)).toEqual([
      `${admin.user.displayName} removed you from ${group.name}`,
    ]);

    // Trying to come back alone, they are told whom to ask.
    const rejoin = await server.request<Answer>('POST', '/api/groups/join-private', {
      token: member.accessToken,
      body: { groupId: group.id, inviteCode: group.inviteCode },
    });
    expect(rejoin.status).toBe(403);
    expect(rejoin.body).toMatchObject({
      code: 'removed_from_group',
      message: `An admin removed you from this group. Ask ${creator.user.displayName} or ${admin.user.displayName} to add you back.`,
    });

    // Through the push, as the app sends it.
    const pushed = await server.request<SyncPushResponse>('POST', '/api/sync/push', {
      token: admin.accessToken,
      body: {
        clientGroupID: randomUUID(),
        clientID: randomUUID(),
        mutations: [
          {
            id: 1,
            name: 'addBackMember',
            args: { params: { id: group.id, userId: member.user.id } },
          },
        ],
      },
    });
    expect(pushed.body.results).toMatchObject([{ id: 1, ok: true }]);

    const after = await membershipRow(server, group, member.user.id);
    expect(after).toMatchObject({
      leftAt: null,
      removedAt: null,
      totalPoints: before!.totalPoints,
      availablePoints: before!.availablePoints,
    });
    expect((await readGroup(member, group)).removedMembers).toBeUndefined();
    const second = await createBet(server, creator, group, { baseWagerAmount: 2 });
    expect((await postWager(server, member, second, 'no', 2)).status).toBe(201);
    // Added back twice is not a second return.
    expect((await addBack(admin, group, member.user.id)).status).toBe(409);
  });
});
