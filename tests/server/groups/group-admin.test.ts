import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import { memberships, wagers } from '../../../src/server/db/schema';
import { deleteAccount } from '../auth/account-data.factories';
import { createBet, NO_EXPIRY_TIMER, placeWager } from '../bets/bet.factories';
import { useTestServer } from '../harness';
import {
  befriend,
  createGroup,
  createGroupWithRoles,
  joinGroup,
  recordEvents,
  uniqueGroupName,
} from './group.factories';

// An admin's group settings: renaming the group and changing its description (PATCH
// /api/groups/{id}), and removing a member (DELETE /api/groups/{id}/members/{userId}), each
// as the group policy decides (src/domain/policies/group-policy.ts), announced live.

const server = useTestServer(NO_EXPIRY_TIMER);

/** A group, or the error body of a refusal. */
type Answer = Group & Partial<{ code: string; message: string }>;

function patchGroup(user: AuthResponse, group: Pick<Group, 'id'>, body: unknown) {
  return server.request<Answer>('PATCH', `/api/groups/${group.id}`, {
    token: user.accessToken,
    body,
  });
}

function removeMember(user: AuthResponse, group: Pick<Group, 'id'>, target: AuthResponse) {
  return server.request<Answer>('DELETE', `/api/groups/${group.id}/members/${target.user.id}`, {
    token: user.accessToken,
  });
}

async function membershipRow(group: Pick<Group, 'id'>, user: AuthResponse) {
  const [row] = await server.database.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, user.user.id)));
  return row!;
}

describe('PATCH /api/groups/{id}', () => {
  it('lets an admin rename the group and change its description; members read it and hear groupUpdated', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const recorder = recordEvents(server);
    const name = uniqueGroupName('Renamed');
    const response = await patchGroup(admin, group, {
      name: `  ${name} `,
      description: 'Sunday league bets',
    });
    recorder.stop();
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: group.id, name, description: 'Sunday league bets' });

    const seen = await server.request<Group>('GET', `/api/groups/${group.id}`, {
      token: member.accessToken,
    });
    expect(seen.body).toMatchObject({ name, description: 'Sunday league bets' });
    const updated = recorder.events.filter((event) => event.event === 'groupUpdated');
    expect(updated).toEqual([
      {
        event: 'groupUpdated',
        payload: { groupId: group.id, version: expect.any(Number) as number },
        audience: { groupId: group.id },
      },
    ]);
  });

  it('changes only what is sent; a blank description clears it; no change announces nothing', async () => {
    const { group, creator } = await createGroupWithRoles(server, { description: 'Old words' });
    const renamed = await patchGroup(creator, group, { name: `${group.name} II` });
    expect(renamed.body).toMatchObject({ name: `${group.name} II`, description: 'Old words' });
    const cleared = await patchGroup(creator, group, { description: '   ' });
    expect(cleared.body).toMatchObject({ name: `${group.name} II`, description: null });

    const recorder = recordEvents(server);
    const same = await patchGroup(creator, group, { name: `${group.name} II` });
    recorder.stop();
    expect(same.status).toBe(200);
    expect(recorder.events.map((event) => event.event)).not.toContain('groupUpdated');
  });

  it('keeps a public name unique without case (409), but a private group may share it, and a group may change its own case', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const other = await createGroup(server, creator);
    const taken = await patchGroup(creator, group, { name: other.name.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      code: 'group_name_taken',
      message: 'A public group with this name already exists.',
    });

    const hidden = await createGroup(server, creator, { privacy: 'private' });
    expect((await patchGroup(creator, hidden, { name: other.name })).status).toBe(200);
    const ownCase = await patchGroup(creator, group, { name: group.name.toUpperCase() });
    expect(ownCase.body.name).toBe(group.name.toUpperCase());
  });

  it('refuses a plain member (403 not_group_admin) and an outsider (403 not_member)', async () => {
    const { group, member, outsider } = await createGroupWithRoles(server);
    const byMember = await patchGroup(member, group, { name: 'Taken over' });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({
      code: 'not_group_admin',
      message: 'Only group admins can do this.',
    });
    const byOutsider = await patchGroup(outsider, group, { description: 'Hi' });
    expect(byOutsider.status).toBe(403);
    expect(byOutsider.body.code).toBe('not_member');
    const missing = await patchGroup(member, { id: group.id + 100_000 }, { name: 'Nowhere' });
    expect(missing.status).toBe(404);
  });

  it('answers bad input with 400 and its message', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const cases: Array<[unknown, string]> = [
      [{ name: 'ab' }, 'Group name must be at least 3 characters'],
      [{ name: '   ' }, 'Group name is required'],
      [{ name: 'x'.repeat(101) }, 'Group name must not exceed 100 characters'],
      [{ description: 'x'.repeat(501) }, 'Description must not exceed 500 characters'],
      [{}, 'Send a new name, description or stake tiers.'],
    ];
    for (const [body, message] of cases) {
      const response = await patchGroup(creator, group, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toBe(message);
    }
    expect(
      (await patchGroup(creator, group, { name: 'Fine name', privacy: 'private' })).status,
    ).toBe(400);
    expect((await patchGroup(creator, group, { name: 42 })).status).toBe(400);
  });
});

describe('DELETE /api/groups/{id}/members/{userId} by an admin', () => {
  it('removes a member as if they left: points and open wagers stay, access ends at once, and everyone hears it', async () => {
    const { group, admin, member } = await createGroupWithRoles(server, { privacy: 'private' });
    const bet = await createBet(server, admin, group);
    await placeWager(server, member, bet, 'yes', 3);
    const before = await membershipRow(group, member);

    const recorder = recordEvents(server);
    const response = await removeMember(admin, group, member);
    recorder.stop();
    expect(response.status, response.text).toBe(200);
    expect(response.body.memberUserIds).not.toContain(member.user.id);

    const after = await membershipRow(group, member);
    expect(after).toMatchObject({
      totalPoints: before.totalPoints,
      availablePoints: before.availablePoints,
      role: 'member',
    });
    expect(after.leftAt).not.toBeNull();
    expect(after.removedAt).not.toBeNull();
    expect(
      (await server.request('GET', `/api/groups/${group.id}`, { token: member.accessToken }))
        .status,
    ).toBe(403);
    const [wager] = await server.database.db
      .select()
      .from(wagers)
      .where(and(eq(wagers.betId, bet.id), eq(wagers.userId, member.user.id)));
    expect(wager).toMatchObject({ points: 3 });

    const published = recorder.events.map(({ event, payload }) => ({ event, payload }));
    expect(published).toEqual([
      {
        event: 'userLeftGroup',
        payload: {
          groupId: group.id,
          userId: member.user.id,
          removed: true,
          removedBy: { userId: admin.user.id, userName: admin.user.displayName },
          version: expect.any(Number) as number,
        },
      },
      { event: 'membershipEnded', payload: { groupId: group.id, userId: member.user.id } },
    ]);

    // Kept out: the invite code no longer lets them in.
    const rejoin = await server.request('POST', '/api/groups/join-private', {
      token: member.accessToken,
      body: { groupId: group.id, inviteCode: group.inviteCode },
    });
    expect(rejoin.status).toBe(403);
    expect(rejoin.body).toMatchObject({ code: 'removed_from_group' });
  });

  it('drops the group from the removed member mirror on their next pull', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const first = await server.request<{ cursor: string; groups: Array<{ id: number }> }>(
      'GET',
      '/api/member/state?cursor=0',
      { token: member.accessToken },
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.groups.map((g) => g.id)).toContain(group.id);
    expect((await removeMember(creator, group, member)).status).toBe(200);
    const next = await server.request<{ removedGroupIds: number[] }>(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(first.body.cursor)}`,
      { token: member.accessToken },
    );
    expect(next.body.removedGroupIds).toEqual([group.id]);
  });

  it('lets an admin remove another admin, but nobody removes the creator, so a group keeps an admin', async () => {
    const { group, creator, admin } = await createGroupWithRoles(server);
    const second = await createGroupWithRoles(server);

    const byAdmin = await removeMember(admin, group, creator);
    expect(byAdmin.status).toBe(422);
    expect(byAdmin.body.code).toBe('cannot_remove_creator');

    // The creator, the group's last admin once the other is gone, stays.
    expect((await removeMember(creator, group, admin)).status).toBe(200);
    const group2 = await server.request<Group>('GET', `/api/groups/${group.id}`, {
      token: creator.accessToken,
    });
    expect(group2.body.admins).toEqual([creator.user.id]);
    const self = await removeMember(creator, group, creator);
    expect(self.status).toBe(422);
    expect(self.body.code).toBe('creator_cannot_leave');

    // An admin removing another admin (not the creator) of a group they share.
    await joinGroup(server, creator, second.group);
    const promote = await server.request('POST', `/api/groups/${second.group.id}/admins`, {
      token: second.creator.accessToken,
      body: { userId: creator.user.id },
    });
    expect(promote.status).toBe(200);
    expect((await removeMember(second.admin, second.group, creator)).status).toBe(200);
  });

  it('refuses a plain member (403), an outsider (403) and an unknown target (404)', async () => {
    const { group, admin, member, outsider } = await createGroupWithRoles(server);
    const byMember = await removeMember(member, group, admin);
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe('not_group_admin');
    const byOutsider = await removeMember(outsider, group, member);
    expect(byOutsider.status).toBe(403);
    expect(byOutsider.body.code).toBe('not_member');
    const notIn = await removeMember(admin, group, outsider);
    expect(notIn.status).toBe(404);
    const badId = await server.request('DELETE', `/api/groups/${group.id}/members/abc`, {
      token: admin.accessToken,
    });
    expect(badId.status).toBe(400);
  });

  it('bars a member who left: they cannot join again by themself until an admin adds them back', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const left = await server.request('POST', `/api/groups/${group.id}/leave`, {
      token: member.accessToken,
    });
    expect(left.status, left.text).toBe(200);
    const recorder = recordEvents(server);
    const barred = await removeMember(admin, group, member);
    recorder.stop();
    expect(barred.status, barred.text).toBe(200);
    expect(barred.body.memberUserIds).not.toContain(member.user.id);
    // Nothing to announce: they had left already.
    expect(recorder.events.map((event) => event.event)).not.toContain('userLeftGroup');
    expect(await membershipRow(group, member)).toMatchObject({
      leftAt: expect.any(Date),
      removedAt: expect.any(Date),
    });
    const rejoin = await server.request('POST', '/api/groups/join-public', {
      token: member.accessToken,
      body: { groupName: group.name },
    });
    expect(rejoin.status).toBe(403);
    expect(rejoin.body.code).toBe('removed_from_group');
    // Barred once: a second removal finds nobody to remove.
    expect((await removeMember(admin, group, member)).status).toBe(404);

    await befriend(server, admin, member);
    const back = await server.request<Group>('POST', `/api/groups/${group.id}/members`, {
      token: admin.accessToken,
      body: { userId: member.user.id },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.memberUserIds).toContain(member.user.id);
    expect(await membershipRow(group, member)).toMatchObject({ leftAt: null, removedAt: null });
  });

  it('treats removing oneself as leaving (announced, not removed)', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const recorder = recordEvents(server);
    expect((await removeMember(admin, group, admin)).status).toBe(200);
    recorder.stop();
    expect(recorder.events.find((event) => event.event === 'userLeftGroup')?.payload).toMatchObject(
      { userId: admin.user.id, removed: false },
    );
    expect((await membershipRow(group, admin)).removedAt).toBeNull();
  });

  it('hands admin to the longest-standing member when the last admin leaves, as a deletion does', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    // Once the creator's account is gone, the other admin is the group's only one.
    expect((await deleteAccount(server, creator)).status).toBe(200);
    const left = await server.request('POST', `/api/groups/${group.id}/leave`, {
      token: admin.accessToken,
    });
    expect(left.status, left.text).toBe(200);
    const after = await server.request<Group>('GET', `/api/groups/${group.id}`, {
      token: member.accessToken,
    });
    expect(after.body.admins).toEqual([member.user.id]);
    expect((await membershipRow(group, admin)).role).toBe('member');
    // The group's devices hear of it: its version moved with the leave.
    expect(after.body.updatedAt > group.updatedAt).toBe(true);
  });
});
