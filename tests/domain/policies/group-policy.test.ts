import { describe, expect, it } from 'vitest';
import {
  addBackMemberRefusal,
  canAddBackMember,
  canComment,
  canManageGroup,
  canMute,
  canReadGroup,
  canRemoveMember,
  commentRefusal,
  leaveGroupRefusal,
  manageGroupRefusal,
  muteRefusal,
  readGroupRefusal,
  removeMemberRefusal,
  type GroupRoster,
} from '../../../src/domain/policies/group-policy';

// Who may read a group, act in it as a member, manage it and whom an admin may remove: the one
// rule the server's checks and the screens both ask; tests/client/data/policy-table.test.ts holds the
// server to the same answers.

const CREATOR = 1;
const ADMIN = 2;
const MEMBER = 3;
const OUTSIDER = 4;

const roster: GroupRoster = {
  createdByUserId: CREATOR,
  admins: [CREATOR, ADMIN],
  memberUserIds: [CREATOR, ADMIN, MEMBER],
};

describe('manageGroupRefusal', () => {
  it('lets current admins manage, the creator included', () => {
    expect(manageGroupRefusal(roster, CREATOR)).toBeNull();
    expect(manageGroupRefusal(roster, ADMIN)).toBeNull();
    expect(canManageGroup(roster, ADMIN)).toBe(true);
  });

  it('refuses a plain member and an outsider, each with its reason', () => {
    expect(manageGroupRefusal(roster, MEMBER)).toBe('not_admin');
    expect(manageGroupRefusal(roster, OUTSIDER)).toBe('not_member');
    expect(canManageGroup(roster, MEMBER)).toBe(false);
  });

  it('does not count an admin who is no longer a member (a stale admin list)', () => {
    const stale = { ...roster, memberUserIds: [CREATOR, MEMBER] };
    expect(manageGroupRefusal(stale, ADMIN)).toBe('not_member');
  });
});

describe('removeMemberRefusal', () => {
  it('lets an admin remove a plain member, and another admin', () => {
    expect(removeMemberRefusal(roster, ADMIN, MEMBER)).toBeNull();
    expect(removeMemberRefusal(roster, CREATOR, ADMIN)).toBeNull();
    expect(canRemoveMember(roster, CREATOR, MEMBER)).toBe(true);
  });

  it('never removes the creator, so every group keeps an admin', () => {
    expect(removeMemberRefusal(roster, ADMIN, CREATOR)).toBe('creator');
    expect(canRemoveMember(roster, ADMIN, CREATOR)).toBe(false);
  });

  it('sends oneself to leaving, not removal', () => {
    expect(removeMemberRefusal(roster, ADMIN, ADMIN)).toBe('self');
    expect(removeMemberRefusal(roster, MEMBER, MEMBER)).toBe('self');
  });

  it('asks the caller to be an admin first, then the target to be a member', () => {
    expect(removeMemberRefusal(roster, MEMBER, ADMIN)).toBe('not_admin');
    expect(removeMemberRefusal(roster, OUTSIDER, MEMBER)).toBe('not_member');
    expect(removeMemberRefusal(roster, ADMIN, OUTSIDER)).toBe('target_not_member');
    expect(removeMemberRefusal(roster, MEMBER, CREATOR)).toBe('not_admin');
  });

  it('lets an admin bar one who left (not a current member), never the creator', () => {
    expect(removeMemberRefusal(roster, ADMIN, OUTSIDER, true)).toBeNull();
    expect(removeMemberRefusal(roster, MEMBER, OUTSIDER, true)).toBe('not_admin');
    expect(removeMemberRefusal(roster, ADMIN, CREATOR, true)).toBe('creator');
  });
});

describe('reading, commenting and muting', () => {
  const member = { role: 'member' as const };
  const admin = { role: 'admin' as const };
  // Never joined, left, or removed: the rules see the same thing, no role now.
  const nonMember = { role: null };
  const publicGroup = { isPublic: true };
  const privateGroup = { isPublic: false };

  it('lets anyone signed in read a public group, and only current members a private one', () => {
    expect(readGroupRefusal(nonMember, publicGroup)).toBeNull();
    expect(readGroupRefusal(member, privateGroup)).toBeNull();
    expect(readGroupRefusal(admin, privateGroup)).toBeNull();
    expect(readGroupRefusal(nonMember, privateGroup)).toBe('not_member');
    expect(canReadGroup(nonMember, privateGroup)).toBe(false);
  });

  it('lets only current members comment and mute, even in a public group', () => {
    for (const viewer of [member, admin]) {
      expect(commentRefusal(viewer)).toBeNull();
      expect(muteRefusal(viewer)).toBeNull();
    }
    expect(commentRefusal(nonMember)).toBe('not_member');
    expect(muteRefusal(nonMember)).toBe('not_member');
    expect(canComment(nonMember)).toBe(false);
    expect(canMute(nonMember)).toBe(false);
    expect(canReadGroup(nonMember, publicGroup) && !canComment(nonMember)).toBe(true);
  });
});

describe('leaveGroupRefusal', () => {
  it('lets a member or an admin leave, but not the creator, who stays its admin', () => {
    expect(leaveGroupRefusal({ role: 'member', isCreator: false })).toBeNull();
    expect(leaveGroupRefusal({ role: 'admin', isCreator: false })).toBeNull();
    expect(leaveGroupRefusal({ role: 'admin', isCreator: true })).toBe('creator');
  });

  it('refuses whoever is not a member now, the creator who left included', () => {
    expect(leaveGroupRefusal({ role: null, isCreator: false })).toBe('not_member');
    expect(leaveGroupRefusal({ role: null, isCreator: true })).toBe('not_member');
  });
});

describe('addBackMemberRefusal', () => {
  it('lets a current admin add back a removed player, and nobody else', () => {
    expect(addBackMemberRefusal(roster, ADMIN, true)).toBeNull();
    expect(canAddBackMember(roster, CREATOR, true)).toBe(true);
    expect(addBackMemberRefusal(roster, MEMBER, true)).toBe('not_admin');
    expect(addBackMemberRefusal(roster, OUTSIDER, true)).toBe('not_member');
  });

  it('refuses anyone an admin did not remove, after the caller’s own standing', () => {
    expect(addBackMemberRefusal(roster, ADMIN, false)).toBe('target_not_removed');
    expect(addBackMemberRefusal(roster, MEMBER, false)).toBe('not_admin');
  });
});
