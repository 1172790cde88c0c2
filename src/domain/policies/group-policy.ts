import type { Group } from '../groups';

// Who may manage a group, and whom an admin may remove: ONE rule, asked by the server before it
// acts (src/server/groups) and by the group screen before it offers a control, so the screen
// never shows what the server would refuse. Pure: it reads the group's current roster only.
//
// Decisions: any current admin manages the group (name, description, members, invite code,
// top-ups). An admin may remove any other current member, another admin included, except the
// creator: the creator is always an admin and can be neither removed nor demoted, so every group
// keeps an admin (an admin removing another admin stays one themself). Removing oneself is
// leaving, with leaving's rules; the screen offers "Leave group" for it instead.

/** Who is in the group now: current admins and current members (admins count as members). */
export type GroupRoster = Pick<Group, 'createdByUserId' | 'admins' | 'memberUserIds'>;

/** Why a viewer may not manage the group: not in it now, or in it without being an admin. */
export type ManageGroupRefusal = 'not_member' | 'not_admin';

/** Why a viewer may not remove a member: a manage refusal, or the target is oneself, the creator, or not a member now. */
export type RemoveMemberRefusal = ManageGroupRefusal | 'self' | 'creator' | 'target_not_member';

function isCurrentMember(roster: GroupRoster, userId: number): boolean {
  return roster.memberUserIds.includes(userId);
}

/** Null when `viewerId` may manage the group, else why not. A stale admin entry of someone who left does not count. */
export function manageGroupRefusal(
  roster: GroupRoster,
  viewerId: number,
): ManageGroupRefusal | null {
  if (!isCurrentMember(roster, viewerId)) return 'not_member';
  if (!roster.admins.includes(viewerId)) return 'not_admin';
  return null;
}

export function canManageGroup(roster: GroupRoster, viewerId: number): boolean {
  return manageGroupRefusal(roster, viewerId) === null;
}

/** Null when `viewerId` may remove `targetId` from the group, else why not (the caller's own standing first). */
export function removeMemberRefusal(
  roster: GroupRoster,
  viewerId: number,
  targetId: number,
): RemoveMemberRefusal | null {
  if (targetId === viewerId) return 'self';
  const refusal = manageGroupRefusal(roster, viewerId);
  if (refusal) return refusal;
  if (targetId === roster.createdByUserId) return 'creator';
  if (!isCurrentMember(roster, targetId)) return 'target_not_member';
  return null;
}

export function canRemoveMember(roster: GroupRoster, viewerId: number, targetId: number): boolean {
  return removeMemberRefusal(roster, viewerId, targetId) === null;
}
