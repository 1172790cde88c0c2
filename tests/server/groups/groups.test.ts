import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { GROUP_LIMITS, INVITE_CODE_PATTERN, type Group } from '../../../src/domain/groups';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import { createUser, useTestServer, type TestResponse } from '../harness';
import {
  befriend,
  createGroup,
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  recordEvents,
  uniqueGroupName,
} from './group.factories';

// Every groups call of docs/groups-and-bets.md §7 under /api: what succeeds, what is refused, with the
// statuses of docs/architecture.md §6 and the messages of docs/groups-and-bets.md §5.

const server = useTestServer();

describe('POST /api/groups', () => {
  it('creates a public group whose creator is its first member and admin, holding defaultPoints', async () => {
    const creator = await createPlayer(server);
    const name = uniqueGroupName('Friday Quiz');
    const response = await server.request<Group>('POST', '/api/groups', {
      token: creator.accessToken,
      body: {
        name: `  ${name}  `,
        description: 'Who knows most',
        privacy: 'public',
        defaultPoints: 250,
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      name,
      description: 'Who knows most',
      privacy: 'public',
      defaultPoints: 250,
      floorTopUp: true,
      stakeTiers: [1, 2, 3],
      createdByUserId: creator.user.id,
      admins: [creator.user.id],
      memberUserIds: [creator.user.id],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const membership = await server.request('GET', `/api/groups/${response.body.id}/membership`, {
      token: creator.accessToken,
    });
    expect(membership.body).toEqual({
      groupId: response.body.id,
      userId: creator.user.id,
      userName: creator.user.displayName,
      totalPoints: 250,
      availablePoints: 250,
      role: 'admin',
    });
  });

  it('uses the defaults of docs/groups-and-bets.md §5: public, 100 points', async () => {
    const creator = await createPlayer(server);
    const response = await server.request<Group>('POST', '/api/groups', {
      token: creator.accessToken,
      body: { name: uniqueGroupName() },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      privacy: 'public',
      defaultPoints: 100,
      description: null,
    });
    expect(response.body.inviteCode).toBeUndefined();
  });

  it('generates a URL-safe invite code of 6-20 characters for a private group with a blank code', async () => {
    const creator = await createPlayer(server);
    const codes = new Set<string>();
    for (const inviteCode of [undefined, '', '   ', null]) {
      const group = await createGroup(server, creator, { privacy: 'private', inviteCode });
      expect(group.inviteCode).toMatch(INVITE_CODE_PATTERN);
      expect(group.inviteCode!.length).toBeGreaterThanOrEqual(GROUP_LIMITS.inviteCodeMin);
      expect(group.inviteCode!.length).toBeLessThanOrEqual(GROUP_LIMITS.inviteCodeMax);
      codes.add(group.inviteCode!);
    }
    expect(codes.size).toBe(4);
  });

  it('keeps a chosen invite code, and drops one sent with a public group', async () => {
    const creator = await createPlayer(server);
    expect(
      (await createGroup(server, creator, { privacy: 'private', inviteCode: 'our-secret_1' }))
        .inviteCode,
    ).toBe('our-secret_1');
    expect(
      (await createGroup(server, creator, { privacy: 'public', inviteCode: 'our-secret_1' }))
        .inviteCode,
    ).toBeUndefined();
  });

  it('refuses a public name already taken, whatever its case, with 409', async () => {
    const [first, second] = [await createPlayer(server), await createPlayer(server)];
    const name = uniqueGroupName('Chess Club');
    await createGroup(server, first, { name });
    const response = await server.request('POST', '/api/groups', {
      token: second.accessToken,
      body: { name: name.toUpperCase() },
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      code: 'group_name_taken',
      message: 'A public group with this name already exists.',
    });
  });

  it('lets private groups share a name with each other and with a public group', async () => {
    const creator = await createPlayer(server);
    const name = uniqueGroupName('Family');
    await createGroup(server, creator, { name });
    await createGroup(server, creator, { name, privacy: 'private' });
    await createGroup(server, creator, { name: name.toLowerCase(), privacy: 'private' });
  });

  it.each([
    [{ name: '' }, 'name', 'Group name is required'],
    [{ name: '   ' }, 'name', 'Group name is required'],
    [{}, 'name', 'Group name is required'],
    [{ name: 'ab' }, 'name', 'Group name must be at least 3 characters'],
    [{ name: 'x'.repeat(101) }, 'name', 'Group name must not exceed 100 characters'],
    [{ name: 'Valid name', privacy: 'secret' }, 'privacy', 'Privacy setting is required'],
    [{ name: 'Valid name', defaultPoints: null }, 'defaultPoints', 'Starting points is required'],
    [{ name: 'Valid name', defaultPoints: 0 }, 'defaultPoints', 'Points must be at least 1'],
    [{ name: 'Valid name', defaultPoints: 1.5 }, 'defaultPoints', 'Points must be a whole number'],
    [
      { name: 'Valid name', privacy: 'private', inviteCode: 'abc' },
      'inviteCode',
      'Invite code must be 6-20 characters',
    ],
    [
      { name: 'Valid name', privacy: 'private', inviteCode: 'x'.repeat(21) },
      'inviteCode',
      'Invite code must be 6-20 characters',
    ],
    [
      { name: 'Valid name', privacy: 'private', inviteCode: 'has space' },
      'inviteCode',
      'Invite code may only contain letters, numbers, - and _',
    ],
  ])(
    'refuses %j with 400 and the message of docs/groups-and-bets.md §5',
    async (body, field, message) => {
      const creator = await createPlayer(server);
      const response = await server.request('POST', '/api/groups', {
        token: creator.accessToken,
        body,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: 'validation_failed',
        message,
        fieldErrors: { [field]: message },
      });
    },
  );

  it('announces groupCreated to the creator only after the group exists', async () => {
    const creator = await createPlayer(server);
    const { events, stop } = recordEvents(server);
    const group = await createGroup(server, creator);
    stop();
    expect(events).toEqual([
      {
        event: 'groupCreated',
        payload: { groupId: group.id, name: group.name },
        audience: { userId: creator.user.id },
      },
    ]);
  });

  it('announces nothing when the creation is refused', async () => {
    const creator = await createPlayer(server);
    const group = await createGroup(server, creator);
    const { events, stop } = recordEvents(server);
    const response = await server.request('POST', '/api/groups', {
      token: creator.accessToken,
      body: { name: group.name },
    });
    stop();
    expect(response.status).toBe(409);
    expect(events).toEqual([]);
  });
});

describe('GET /api/groups', () => {
  it('lists the caller’s groups with membership=mine, including private ones, and nothing else', async () => {
    const [me, other] = [await createPlayer(server), await createPlayer(server)];
    const mine = await createGroup(server, me, { privacy: 'private' });
    const joined = await createGroup(server, other);
    await joinGroup(server, me, joined);
    await createGroup(server, other);
    const response = await server.request<Group[]>('GET', '/api/groups?membership=mine', {
      token: me.accessToken,
    });
    expect(response.status).toBe(200);
    expect(response.body.map((group) => group.id).sort((a, b) => a - b)).toEqual(
      [mine.id, joined.id].sort((a, b) => a - b),
    );
    expect(response.body.find((group) => group.id === mine.id)!.inviteCode).toBe(mine.inviteCode);
  });

  it('lists only the groups the caller manages with managed_by=mine', async () => {
    const [me, other] = [await createPlayer(server), await createPlayer(server)];
    const managed = await createGroup(server, me);
    await joinGroup(server, me, await createGroup(server, other));
    const response = await server.request<Group[]>('GET', '/api/groups?managed_by=mine', {
      token: me.accessToken,
    });
    expect(response.body.map((group) => group.id)).toEqual([managed.id]);
  });

  it('without membership=mine lists the caller’s groups and public groups, never others’ private groups', async () => {
    const [me, other] = [await createPlayer(server), await createPlayer(server)];
    const myPrivate = await createGroup(server, me, { privacy: 'private' });
    const theirPublic = await createGroup(server, other);
    const theirPrivate = await createGroup(server, other, { privacy: 'private' });
    const response = await server.request<Group[]>('GET', '/api/groups', { token: me.accessToken });
    const ids = response.body.map((group) => group.id);
    expect(ids).toContain(myPrivate.id);
    expect(ids).toContain(theirPublic.id);
    expect(ids).not.toContain(theirPrivate.id);
    expect(
      response.body.every(
        (group) => group.privacy === 'public' || group.memberUserIds.includes(me.user.id),
      ),
    ).toBe(true);
  });

  it('filters by privacy', async () => {
    const me = await createPlayer(server);
    const privateGroup = await createGroup(server, me, { privacy: 'private' });
    const publicGroup = await createGroup(server, me);
    const privates = await server.request<Group[]>(
      'GET',
      '/api/groups?membership=mine&privacy=private',
      { token: me.accessToken },
    );
    expect(privates.body.map((group) => group.id)).toEqual([privateGroup.id]);
    const publics = await server.request<Group[]>(
      'GET',
      '/api/groups?membership=mine&privacy=public',
      { token: me.accessToken },
    );
    expect(publics.body.map((group) => group.id)).toEqual([publicGroup.id]);
  });

  it('answers 400 for an unknown filter value', async () => {
    const me = await createPlayer(server);
    for (const query of ['membership=all', 'managed_by=them', 'privacy=secret']) {
      expect(
        (await server.request('GET', `/api/groups?${query}`, { token: me.accessToken })).status,
        query,
      ).toBe(400);
    }
  });
});

describe('GET /api/groups/{id}', () => {
  it('shows a public group to any signed-in user, without an invite code', async () => {
    const [owner, visitor] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner);
    const response = await server.request<Group>('GET', `/api/groups/${group.id}`, {
      token: visitor.accessToken,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: group.id,
      name: group.name,
      memberUserIds: [owner.user.id],
    });
  });

  it('shows a private group with its invite code to members', async () => {
    const { group, member } = await createGroupWithRoles(server, { privacy: 'private' });
    const response = await server.request<Group>('GET', `/api/groups/${group.id}`, {
      token: member.accessToken,
    });
    expect(response.status).toBe(200);
    expect(response.body.inviteCode).toBe(group.inviteCode);
  });

  it('refuses a private group to a non-member with 403 not_member', async () => {
    const { group, outsider } = await createGroupWithRoles(server, { privacy: 'private' });
    const response = await server.request('GET', `/api/groups/${group.id}`, {
      token: outsider.accessToken,
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 'not_member',
      message: "You're not a member of this group",
    });
  });

  it('answers 404 "Group not found" for a missing group and 400 for an id that is not one', async () => {
    const me = await createPlayer(server);
    const missing = await server.request('GET', '/api/groups/999999', { token: me.accessToken });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not_found', message: 'Group not found' });
    const invalid = await server.request('GET', '/api/groups/abc', { token: me.accessToken });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('Group ID is required');
  });
});

describe('GET /api/groups/{id}/membership', () => {
  it('answers the caller’s membership by default and another member’s with ?user=', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const own = await server.request('GET', `/api/groups/${group.id}/membership`, {
      token: member.accessToken,
    });
    expect(own.body).toEqual({
      groupId: group.id,
      userId: member.user.id,
      userName: member.user.displayName,
      totalPoints: 100,
      availablePoints: 100,
      role: 'member',
    });
    const other = await server.request(
      'GET',
      `/api/groups/${group.id}/membership?user=${creator.user.id}`,
      { token: member.accessToken },
    );
    expect(other.body).toMatchObject({ userId: creator.user.id, role: 'admin' });
  });

  it('answers 404 when the user is not a member, 403 for a private group the caller is not in', async () => {
    const { group, creator, outsider } = await createGroupWithRoles(server, { privacy: 'private' });
    const own = await server.request('GET', `/api/groups/${group.id}/membership`, {
      token: outsider.accessToken,
    });
    expect(own.status).toBe(404);
    expect(own.body).toEqual({ code: 'not_found', message: 'Membership not found' });
    const notMine = await server.request(
      'GET',
      `/api/groups/${group.id}/membership?user=${outsider.user.id}`,
      { token: creator.accessToken },
    );
    expect(notMine.status).toBe(404);
    const peeking = await server.request(
      'GET',
      `/api/groups/${group.id}/membership?user=${creator.user.id}`,
      { token: outsider.accessToken },
    );
    expect(peeking.status).toBe(403);
    expect(peeking.body.code).toBe('not_member');
  });
});

describe('POST and DELETE /api/groups/{id}/members', () => {
  it('lets an admin add a friend, who gets defaultPoints and is announced to the group', async () => {
    const { group, admin, outsider } = await createGroupWithRoles(server, {
      privacy: 'private',
      defaultPoints: 40,
    });
    await befriend(server, admin, outsider);
    const { events, stop } = recordEvents(server);
    const response = await server.request<Group>('POST', `/api/groups/${group.id}/members`, {
      token: admin.accessToken,
      body: { userId: outsider.user.id },
    });
    stop();
    expect(response.status).toBe(200);
    expect(response.body.memberUserIds).toContain(outsider.user.id);
    expect(events).toEqual([
      {
        event: 'userJoinedGroup',
        payload: {
          groupId: group.id,
          userId: outsider.user.id,
          userName: outsider.user.displayName,
          totalPoints: 40,
          availablePoints: 40,
          version: expect.any(Number),
        },
        audience: { groupId: group.id },
      },
    ]);
  });

  it('adding a current member again changes nothing and announces nothing', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const { events, stop } = recordEvents(server);
    const response = await server.request('POST', `/api/groups/${group.id}/members`, {
      token: admin.accessToken,
      body: { userId: member.user.id },
    });
    stop();
    expect(response.status).toBe(200);
    expect(events).toEqual([]);
  });

  it('refuses a plain member with 403 not_group_admin, and a stranger or an unknown id alike with 403 not_a_friend', async () => {
    const { group, admin, member, outsider } = await createGroupWithRoles(server);
    const byMember = await server.request('POST', `/api/groups/${group.id}/members`, {
      token: member.accessToken,
      body: { userId: outsider.user.id },
    });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({
      code: 'not_group_admin',
      message: 'Only group admins can do this.',
    });
    for (const userId of [outsider.user.id, 999999]) {
      const refused = await server.request('POST', `/api/groups/${group.id}/members`, {
        token: admin.accessToken,
        body: { userId },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('not_a_friend');
    }
    expect(
      (await server.request('GET', `/api/groups/${group.id}`, { token: admin.accessToken })).body
        .memberUserIds,
    ).not.toContain(outsider.user.id);
    const invalid = await server.request('POST', `/api/groups/${group.id}/members`, {
      token: admin.accessToken,
      body: {},
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fieldErrors).toEqual({ userId: 'User is required' });
  });

  it('lets an admin remove a member, who keeps their points but leaves the lists', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const response = await server.request<Group>(
      'DELETE',
      `/api/groups/${group.id}/members/${member.user.id}`,
      { token: admin.accessToken },
    );
    expect(response.status).toBe(200);
    expect(response.body.memberUserIds).not.toContain(member.user.id);
    const leaderboard = await server.request('GET', `/api/groups/${group.id}/leaderboard`, {
      token: admin.accessToken,
    });
    expect(leaderboard.body.users.map((user: { id: number }) => user.id)).not.toContain(
      member.user.id,
    );
  });

  it('lets an admin add back a former member of the group', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    await server.request('POST', `/api/groups/${group.id}/leave`, { token: member.accessToken });
    const response = await server.request<Group>('POST', `/api/groups/${group.id}/members`, {
      token: admin.accessToken,
      body: { userId: member.user.id },
    });
    expect(response.status).toBe(200);
    expect(response.body.memberUserIds).toContain(member.user.id);
  });

  it('lets a member remove themself, which is leaving', async () => {
    const { group, member } = await createGroupWithRoles(server);
    const response = await server.request<Group>(
      'DELETE',
      `/api/groups/${group.id}/members/${member.user.id}`,
      { token: member.accessToken },
    );
    expect(response.status).toBe(200);
    expect(response.body.memberUserIds).not.toContain(member.user.id);
  });

  it('never removes the creator (422), and answers 404 for a user who is not a member', async () => {
    const { group, creator, admin, outsider } = await createGroupWithRoles(server);
    const creatorRemoved = await server.request(
      'DELETE',
      `/api/groups/${group.id}/members/${creator.user.id}`,
      { token: admin.accessToken },
    );
    expect(creatorRemoved.status).toBe(422);
    expect(creatorRemoved.body).toEqual({
      code: 'cannot_remove_creator',
      message: "The group's creator cannot be removed.",
    });
    const removingOutsider = await server.request(
      'DELETE',
      `/api/groups/${group.id}/members/${outsider.user.id}`,
      { token: admin.accessToken },
    );
    expect(removingOutsider.status).toBe(404);
    expect(removingOutsider.body.message).toBe('Member not found');
  });

  it('removing an admin also ends their admin rights, even after they are added back', async () => {
    const { group, creator, admin } = await createGroupWithRoles(server);
    await server.request('DELETE', `/api/groups/${group.id}/members/${admin.user.id}`, {
      token: creator.accessToken,
    });
    const added = await server.request<Group>('POST', `/api/groups/${group.id}/members`, {
      token: creator.accessToken,
      body: { userId: admin.user.id },
    });
    expect(added.body.admins).toEqual([creator.user.id]);
    expect(added.body.memberUserIds).toContain(admin.user.id);
  });
});

describe('a removed member', () => {
  /** What a removed player hears: whom to ask (the group's admins, longest-standing first). */
  const removedBody = (...admins: AuthResponse[]) => ({
    code: 'removed_from_group',
    message: `An admin removed you from this group. Ask ${admins.map((a) => a.user.displayName).join(' or ')} to add you back.`,
  });
  const remove = (admin: { accessToken: string }, group: Group, userId: number) =>
    server.request('DELETE', `/api/groups/${group.id}/members/${userId}`, {
      token: admin.accessToken,
    });
  const joinPrivate = (user: { accessToken: string }, group: Group, inviteCode?: string) =>
    server.request<Group>('POST', '/api/groups/join-private', {
      token: user.accessToken,
      body: { groupId: group.id, inviteCode: inviteCode ?? group.inviteCode ?? '' },
    });

  it('cannot come back with the invite code they know until an admin adds them back', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server, {
      privacy: 'private',
    });
    expect((await remove(admin, group, member.user.id)).status).toBe(200);
    const back = await joinPrivate(member, group);
    expect(back.status).toBe(403);
    expect(back.body).toEqual(removedBody(creator, admin));

    const added = await server.request<Group>('POST', `/api/groups/${group.id}/members`, {
      token: admin.accessToken,
      body: { userId: member.user.id },
    });
    expect(added.status).toBe(200);
    expect(added.body.memberUserIds).toContain(member.user.id);
    // Added back, then leaving by themself: the door is open again.
    await server.request('POST', `/api/groups/${group.id}/leave`, { token: member.accessToken });
    expect((await joinPrivate(member, group)).status).toBe(200);
  });

  it('cannot come back to a public group by its name or its id either', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    await remove(admin, group, member.user.id);
    const byName = await server.request('POST', '/api/groups/join-public', {
      token: member.accessToken,
      body: { groupName: group.name },
    });
    expect(byName.status).toBe(403);
    expect(byName.body).toEqual(removedBody(creator, admin));
    expect((await joinPrivate(member, group, 'anything')).body).toEqual(
      removedBody(creator, admin),
    );
  });

  it('is kept out, while whoever left by themself may come back', async () => {
    const { group, member } = await createGroupWithRoles(server, { privacy: 'private' });
    await server.request('POST', `/api/groups/${group.id}/leave`, { token: member.accessToken });
    expect((await joinPrivate(member, group)).status).toBe(200);
  });
});

describe('POST /api/groups/{id}/invite-code', () => {
  const rotate = (user: { accessToken: string }, groupId: number) =>
    server.request('POST', `/api/groups/${groupId}/invite-code`, {
      token: user.accessToken,
    });

  it('gives a private group a new invite code: the old one stops working, members’ devices pull the new one', async () => {
    const { group, admin, member, outsider } = await createGroupWithRoles(server, {
      privacy: 'private',
    });
    const first = await server.request('GET', `/api/member/state?cursor=${MIRROR_START_CURSOR}`, {
      token: member.accessToken,
    });
    const rotated = await rotate(admin, group.id);
    expect(rotated.status).toBe(200);
    expect(rotated.body.inviteCode).toMatch(INVITE_CODE_PATTERN);
    expect(rotated.body.inviteCode).not.toBe(group.inviteCode);

    const withOld = await server.request('POST', '/api/groups/join-private', {
      token: outsider.accessToken,
      body: { groupId: group.id, inviteCode: group.inviteCode },
    });
    expect(withOld.body.code).toBe('invalid_invite_code');
    const pulled = await server.request(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(first.body.cursor)}`,
      {
        token: member.accessToken,
      },
    );
    expect(pulled.body.groups).toEqual([
      expect.objectContaining({ id: group.id, inviteCode: rotated.body.inviteCode }),
    ]);
    const withNew = await server.request<Group>('POST', '/api/groups/join-private', {
      token: outsider.accessToken,
      body: { groupId: group.id, inviteCode: rotated.body.inviteCode },
    });
    expect(withNew.status).toBe(200);
  });

  it('is for admins of a private group only', async () => {
    const { group, member, outsider } = await createGroupWithRoles(server, { privacy: 'private' });
    expect((await rotate(member, group.id)).body.code).toBe('not_group_admin');
    expect((await rotate(outsider, group.id)).body.code).toBe('not_member');
    expect((await rotate(member, 999_999)).status).toBe(404);
    const open = await createGroupWithRoles(server);
    const publicGroup = await rotate(open.admin, open.group.id);
    expect(publicGroup.status).toBe(422);
    expect(publicGroup.body).toEqual({
      code: 'no_invite_code',
      message: 'Only a private group has an invite code.',
    });
  });
});

describe('POST and DELETE /api/groups/{id}/admins', () => {
  it('lets an admin promote a member and demote an admin', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const promoted = await server.request<Group>('POST', `/api/groups/${group.id}/admins`, {
      token: admin.accessToken,
      body: { userId: member.user.id },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.admins).toEqual(
      [creator.user.id, admin.user.id, member.user.id].sort((a, b) => a - b),
    );
    const demoted = await server.request<Group>(
      'DELETE',
      `/api/groups/${group.id}/admins/${admin.user.id}`,
      { token: member.accessToken },
    );
    expect(demoted.status).toBe(200);
    expect(demoted.body.admins).toEqual([creator.user.id, member.user.id].sort((a, b) => a - b));
    expect(demoted.body.memberUserIds).toContain(admin.user.id);
  });

  it('refuses to demote the creator (422) and to promote a non-member (404)', async () => {
    const { group, creator, admin, outsider } = await createGroupWithRoles(server);
    const demoteCreator = await server.request(
      'DELETE',
      `/api/groups/${group.id}/admins/${creator.user.id}`,
      { token: admin.accessToken },
    );
    expect(demoteCreator.status).toBe(422);
    expect(demoteCreator.body).toEqual({
      code: 'cannot_demote_creator',
      message: "The group's creator cannot stop being an admin.",
    });
    const promoteOutsider = await server.request('POST', `/api/groups/${group.id}/admins`, {
      token: admin.accessToken,
      body: { userId: outsider.user.id },
    });
    expect(promoteOutsider.status).toBe(404);
    expect(promoteOutsider.body.message).toBe('Member not found');
  });

  it('refuses members who are not admins with 403', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const response = await server.request(
      'DELETE',
      `/api/groups/${group.id}/admins/${admin.user.id}`,
      { token: member.accessToken },
    );
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('not_group_admin');
  });
});

describe('POST /api/groups/join-public', () => {
  it('joins a public group by its exact name in any case, granting defaultPoints', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner, { defaultPoints: 70 });
    const response = await server.request<Group>('POST', '/api/groups/join-public', {
      token: joiner.accessToken,
      body: { groupName: ` ${group.name.toLowerCase()} ` },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: group.id, name: group.name });
    expect(response.body.memberUserIds).toEqual(
      [owner.user.id, joiner.user.id].sort((a, b) => a - b),
    );
    const membership = await server.request('GET', `/api/groups/${group.id}/membership`, {
      token: joiner.accessToken,
    });
    expect(membership.body).toMatchObject({ totalPoints: 70, availablePoints: 70, role: 'member' });
  });

  it('answers 404 "Group not found" for a partial name, an unknown name or a private group’s name', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const publicGroup = await createGroup(server, owner);
    const privateGroup = await createGroup(server, owner, {
      privacy: 'private',
      name: uniqueGroupName('Secret'),
    });
    for (const groupName of [publicGroup.name.slice(0, -2), 'No such group', privateGroup.name]) {
      const response = await server.request('POST', '/api/groups/join-public', {
        token: joiner.accessToken,
        body: { groupName },
      });
      expect(response.status, groupName).toBe(404);
      expect(response.body).toEqual({ code: 'not_found', message: 'Group not found' });
    }
  });

  it('asks for a group with "Please select a public group." when none is given', async () => {
    const joiner = await createPlayer(server);
    for (const body of [{}, { groupName: '' }, { groupName: '  ' }]) {
      const response = await server.request('POST', '/api/groups/join-public', {
        token: joiner.accessToken,
        body,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        message: 'Please select a public group.',
        fieldErrors: { groupName: 'Please select a public group.' },
      });
    }
  });
});

describe('POST /api/groups/join-private', () => {
  it('joins a private group with its id and invite code and answers it with the code', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner, { privacy: 'private' });
    const response = await server.request<Group>('POST', '/api/groups/join-private', {
      token: joiner.accessToken,
      body: { groupId: String(group.id), inviteCode: group.inviteCode },
    });
    expect(response.status).toBe(200);
    expect(response.body.inviteCode).toBe(group.inviteCode);
    expect(response.body.memberUserIds).toContain(joiner.user.id);
  });

  // Case does not count (issue #24: a code read out or typed on a phone): invites.test.ts.
  it('refuses a wrong invite code with 403 invalid_invite_code', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner, {
      privacy: 'private',
      inviteCode: 'Secret-Code',
    });
    for (const inviteCode of ['wrong-code', 'Secret-Cod', 'Secret-Code-']) {
      const response = await server.request('POST', '/api/groups/join-private', {
        token: joiner.accessToken,
        body: { groupId: group.id, inviteCode },
      });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        code: 'invalid_invite_code',
        message: 'Invalid invite code. Check the code and try again.',
      });
    }
    expect(
      (await server.request('GET', `/api/groups/${group.id}`, { token: joiner.accessToken }))
        .status,
    ).toBe(403);
  });

  it('joins a public group by id whatever code is sent: its share link has none', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner);
    const response = await server.request<Group>('POST', '/api/groups/join-private', {
      token: joiner.accessToken,
      body: { groupId: group.id, inviteCode: 'anything' },
    });
    expect(response.status).toBe(200);
    expect(response.body.memberUserIds).toContain(joiner.user.id);
  });

  it('answers 404 for a missing group and 400 with both messages when fields are missing', async () => {
    const joiner = await createPlayer(server);
    const missing = await server.request('POST', '/api/groups/join-private', {
      token: joiner.accessToken,
      body: { groupId: 999999, inviteCode: 'abcdef' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Group not found');
    const empty = await server.request('POST', '/api/groups/join-private', {
      token: joiner.accessToken,
      body: { groupId: '', inviteCode: '' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toEqual({
      groupId: 'Group ID is required',
      inviteCode: 'Invite code is required',
    });
  });

  it('lets a guest join by a link’s id and code', async () => {
    const owner = await createUser(server);
    const group = await createGroup(server, owner, { privacy: 'private' });
    const guest = await createPlayer(server, 'Link guest');
    expect((await joinGroup(server, guest, group)).memberUserIds).toContain(guest.user.id);
  });
});

describe('GET /api/groups/public', () => {
  it('finds public groups by a case-insensitive part of the name, with member counts, never private ones', async () => {
    const [owner, joiner] = [await createPlayer(server), await createPlayer(server)];
    const tag = `zq${Date.now().toString(36)}`;
    const football = await createGroup(server, owner, { name: `Sunday ${tag} Football` });
    await joinGroup(server, joiner, football);
    const tennis = await createGroup(server, owner, { name: `${tag.toUpperCase()} Tennis` });
    await createGroup(server, owner, { name: `Hidden ${tag}`, privacy: 'private' });
    const response = await server.request('GET', `/api/groups/public?search=${tag.toUpperCase()}`, {
      token: joiner.accessToken,
    });
    expect(response.status).toBe(200);
    // Names starting with the search come first.
    expect(response.body).toEqual([
      { id: tennis.id, name: tennis.name, description: null, memberCount: 1 },
      { id: football.id, name: football.name, description: null, memberCount: 2 },
    ]);
  });

  it('treats % and _ in the search as plain characters', async () => {
    const owner = await createPlayer(server);
    await createGroup(server, owner, { name: uniqueGroupName('Percent') });
    const response = await server.request('GET', '/api/groups/public?search=%25%25', {
      token: owner.accessToken,
    });
    expect(response.body).toEqual([]);
  });

  it('answers at most 20 groups', async () => {
    const owner = await createPlayer(server);
    const tag = `many${Date.now().toString(36)}`;
    for (let index = 0; index < 22; index += 1)
      await createGroup(server, owner, { name: `${tag} ${index}` });
    const response = await server.request('GET', `/api/groups/public?search=${tag}`, {
      token: owner.accessToken,
    });
    expect(response.body).toHaveLength(20);
  });
});

describe('POST /api/groups/{id}/leave', () => {
  it('marks the member as left: off the member list and leaderboard, answered with a message', async () => {
    const { group, creator, member } = await createGroupWithRoles(server, { privacy: 'private' });
    const response = await server.request('POST', `/api/groups/${group.id}/leave`, {
      token: member.accessToken,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'You left the group.' });
    const seen = await server.request<Group>('GET', `/api/groups/${group.id}`, {
      token: creator.accessToken,
    });
    expect(seen.body.memberUserIds).not.toContain(member.user.id);
    expect(
      (await server.request('GET', `/api/groups/${group.id}`, { token: member.accessToken }))
        .status,
    ).toBe(403);
  });

  it('refuses the creator (422 creator_cannot_leave) and a non-member (403)', async () => {
    const { group, creator, outsider } = await createGroupWithRoles(server);
    const byCreator = await server.request('POST', `/api/groups/${group.id}/leave`, {
      token: creator.accessToken,
    });
    expect(byCreator.status).toBe(422);
    expect(byCreator.body).toEqual({
      code: 'creator_cannot_leave',
      message: "The group's creator cannot leave the group.",
    });
    const byOutsider = await server.request('POST', `/api/groups/${group.id}/leave`, {
      token: outsider.accessToken,
    });
    expect(byOutsider.status).toBe(403);
    expect(byOutsider.body.code).toBe('not_member');
  });
});

describe('GET /api/groups/{id}/leaderboard', () => {
  it('ranks current members by total points descending, ties by user id, with display names', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const response = await server.request('GET', `/api/groups/${group.id}/leaderboard`, {
      token: member.accessToken,
    });
    expect(response.status).toBe(200);
    const expected = [creator, admin, member]
      .map((user) => ({ id: user.user.id, name: user.user.displayName, points: 100 }))
      .sort((a, b) => a.id - b.id);
    expect(response.body).toEqual({ users: expected });
  });

  it('is refused to non-members of a private group (403) and answers 404 for a missing group', async () => {
    const { group, outsider } = await createGroupWithRoles(server, { privacy: 'private' });
    expect(
      (
        await server.request('GET', `/api/groups/${group.id}/leaderboard`, {
          token: outsider.accessToken,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await server.request('GET', '/api/groups/999999/leaderboard', {
          token: outsider.accessToken,
        })
      ).status,
    ).toBe(404);
  });
});

describe('GET /api/member/state', () => {
  it('answers the caller’s current groups and memberships, and empty bet maps', async () => {
    const [me, other] = [await createPlayer(server), await createPlayer(server)];
    const mine = await createGroup(server, me, { privacy: 'private', defaultPoints: 30 });
    const joined = await createGroup(server, other);
    await joinGroup(server, me, joined);
    const left = await createGroup(server, other);
    await joinGroup(server, me, left);
    await server.request('POST', `/api/groups/${left.id}/leave`, { token: me.accessToken });
    const response = await server.request('GET', '/api/member/state', { token: me.accessToken });
    expect(response.status).toBe(200);
    const membership = (group: Group, points: number, role: string) => ({
      groupId: group.id,
      userId: me.user.id,
      userName: me.user.displayName,
      totalPoints: points,
      availablePoints: points,
      role,
    });
    expect(response.body).toEqual({
      groups: {
        [mine.id]: { id: mine.id, name: mine.name },
        [joined.id]: { id: joined.id, name: joined.name },
      },
      currentUserMemberships: {
        [mine.id]: membership(mine, 30, 'admin'),
        [joined.id]: membership(joined, 100, 'member'),
      },
      unwageredBets: {},
      betsToResolve: {},
    });
  });

  it('answers empty maps to a user with no group', async () => {
    const me = await createPlayer(server);
    const response = await server.request('GET', '/api/member/state', { token: me.accessToken });
    expect(response.body).toEqual({
      groups: {},
      currentUserMemberships: {},
      unwageredBets: {},
      betsToResolve: {},
    });
  });
});

describe('GET /api/groups pages', () => {
  it('answers at most 100 groups by default, and the rest page by page through X-Next-Offset', async () => {
    const owner = await createPlayer(server);
    const prefix = uniqueGroupName('Paged');
    for (let index = 0; index < 5; index++)
      await createGroup(server, owner, { name: `${prefix} ${index}` });
    const seen: number[] = [];
    let offset: string | null = '0';
    while (offset !== null) {
      const page: TestResponse<Group[]> = await server.request<Group[]>(
        'GET',
        `/api/groups?membership=mine&limit=2&offset=${offset}`,
        { token: owner.accessToken },
      );
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.map((group) => group.id));
      offset = page.headers.get('x-next-offset');
    }
    expect(seen).toHaveLength(5);
    const all = await server.request<Group[]>('GET', '/api/groups', { token: owner.accessToken });
    expect(all.body.length).toBeLessThanOrEqual(100);
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=x']) {
      expect(
        (await server.request('GET', `/api/groups?${query}`, { token: owner.accessToken })).status,
        query,
      ).toBe(400);
    }
  });
});

describe('GET /auth/users/ids with groups', () => {
  it("shows nobody's email but the caller's own, and bubbles only of people in the caller's groups", async () => {
    const [me, friend, stranger, former] = [
      await createUser(server),
      await createUser(server),
      await createUser(server),
      await createUser(server),
    ];
    const group = await createGroup(server, me, { privacy: 'private' });
    await joinGroup(server, friend, group);
    await joinGroup(server, former, group);
    await server.request('POST', `/api/groups/${group.id}/leave`, { token: former.accessToken });
    const ids = [me, friend, stranger, former].map((user) => user.user.id).join(',');
    const response = await server.request('GET', `/auth/users/ids?ids=${ids}`, {
      token: me.accessToken,
    });
    expect(
      response.body.map((bubble: { id: number; email: string }) => [bubble.id, bubble.email]),
    ).toEqual([
      [me.user.id, me.email],
      [friend.user.id, ''],
      [former.user.id, ''],
    ]);
  });

  it("never gives a guest the emails of accounts it enrols into its own group by id (the audit's harvest)", async () => {
    const victims = [await createUser(server), await createUser(server), await createUser(server)];
    const guest = await createPlayer(server, 'Harvester');
    const group = await createGroup(server, guest, { privacy: 'private' });
    for (const victim of victims) {
      const added = await server.request('POST', `/api/groups/${group.id}/members`, {
        token: guest.accessToken,
        body: { userId: victim.user.id },
      });
      expect(added.status).toBe(403);
    }
    const ids = Array.from({ length: guest.user.id }, (_, index) => index + 1)
      .slice(-100)
      .join(',');
    const response = await server.request('GET', `/auth/users/ids?ids=${ids}`, {
      token: guest.accessToken,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: guest.user.id, displayName: guest.user.displayName, username: '', email: '' },
    ]);
  });

  it('hides the email of a fellow member too', async () => {
    const [me, friend] = [await createUser(server), await createUser(server)];
    const group = await createGroup(server, me, { privacy: 'private' });
    await joinGroup(server, friend, group);
    const response = await server.request('GET', `/auth/users/ids?ids=${friend.user.id}`, {
      token: me.accessToken,
    });
    expect(response.body).toEqual([
      {
        id: friend.user.id,
        displayName: friend.user.displayName,
        username: friend.user.username,
        email: '',
      },
    ]);
  });
});
