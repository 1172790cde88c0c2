import type { Group } from '../groups';

// Who may read a group, act in it as a member, manage it, and whom an admin may remove: ONE
// rule each, asked by the server before it acts (src/server/groups) and by the screens before
// they offer a control, so a screen never shows what the server would refuse. Pure: it reads
// the group's privacy, the viewer's standing now and the group's current roster only.
//
// Decisions: a public group (it, its leaderboard, its bets and their picks once shown) is read
// by anyone signed in, a private one by its current members. Acting as a member (commenting on
// a bet, which is reading its comments too, muting the group or one of its bets, creating a
// bet) is for current members only, even in a public group: whoever left or was removed keeps
// their points and open wagers, nothing more. Any current admin manages the group (name,
// description, members, invite code, top-ups). An admin may remove any other current member,
// another admin included, except the creator: the creator is always an admin and can be neither
// removed nor demoted, so every group keeps an admin (an admin removing another admin stays one
// themself). Removing oneself is leaving, with leaving's rules; the screen offers "Leave group"
// for it instead.

/** The viewer's role in the group now; null when they are not a member (never were, left or were removed). */
export type GroupRole = 'member' | 'admin' | null;

/** Whether a stored role (a membership row's, a roster entry's) is an admin's. */
export const isAdminRole = (role: string | null | undefined): boolean => role === 'admin';

/** Who asks, as the rules read them: their role in the group now. */
export interface GroupViewer {
  role: GroupRole;
}

/** What the read rule needs to know of the group. */
export interface GroupVisibility {
  /** A public group is read by anyone signed in; a private one by its current members. */
  isPublic: boolean;
}

/** Why a viewer may not read the group or act in it as a member: they are not a member now. */
export type MemberRefusal = 'not_member';

/** Null when the viewer is a current member (admins are members too), else why not. */
export function currentMemberRefusal(viewer: GroupViewer): MemberRefusal | null {
  return viewer.role ? null : 'not_member';
}

/** Null when the viewer may read the group (its bets, leaderboard and members' standings), else why not. */
export function readGroupRefusal(
  viewer: GroupViewer,
  group: GroupVisibility,
): MemberRefusal | null {
  return group.isPublic ? null : currentMemberRefusal(viewer);
}

export function canReadGroup(viewer: GroupViewer, group: GroupVisibility): boolean {
  return readGroupRefusal(viewer, group) === null;
}

/** Why a viewer may not leave the group: not in it, or its creator (who stays its admin for good). */
export type LeaveGroupRefusal = MemberRefusal | 'creator';

/**
 * Null when the viewer may leave the group, else why not. A last admin may leave: the role
 * passes to the longest-standing member (docs/rules.md), so no group is left without one.
 */
export function leaveGroupRefusal(
  viewer: GroupViewer & { isCreator: boolean },
): LeaveGroupRefusal | null {
  if (!viewer.role) return 'not_member';
  return viewer.isCreator ? 'creator' : null;
}

export function canLeaveGroup(viewer: GroupViewer & { isCreator: boolean }): boolean {
  return leaveGroupRefusal(viewer) === null;
}

/** Null when the viewer may read and write a bet's comments: current members, even of a public group. */
export function commentRefusal(viewer: GroupViewer): MemberRefusal | null {
  return currentMemberRefusal(viewer);
}

export function canComment(viewer: GroupViewer): boolean {
  return commentRefusal(viewer) === null;
}

/** Null when the viewer may mute (or unmute) the group or one of its bets for themself: current members. */
export function muteRefusal(viewer: GroupViewer): MemberRefusal | null {
  return currentMemberRefusal(viewer);
}

export function canMute(viewer: GroupViewer): boolean {
  return muteRefusal(viewer) === null;
}

/** Why a viewer may not delete a comment: not a member now, or neither its author nor an admin. */
export type DeleteCommentRefusal = MemberRefusal | 'cannot_delete_comment';

/**
 * Null when the viewer may delete a comment of the group: its author while a member, or any
 * current admin. Deleting one already deleted changes nothing and is not asked here.
 */
export function deleteCommentRefusal(
  viewer: GroupViewer,
  isAuthor: boolean,
): DeleteCommentRefusal | null {
  return (
    currentMemberRefusal(viewer) ??
    (isAuthor || viewer.role === 'admin' ? null : 'cannot_delete_comment')
  );
}

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

/**
 * Null when `viewerId` may remove `targetId` from the group, else why not (the caller's own
 * standing first). A current member is removed; one who left by themself (`targetHasLeft`: left,
 * not removed yet) is barred, so they cannot join again by themself either (docs/rules.md).
 */
export function removeMemberRefusal(
  roster: GroupRoster,
  viewerId: number,
  targetId: number,
  targetHasLeft = false,
): RemoveMemberRefusal | null {
  if (targetId === viewerId) return 'self';
  const refusal = manageGroupRefusal(roster, viewerId);
  if (refusal) return refusal;
  if (targetId === roster.createdByUserId) return 'creator';
  if (!isCurrentMember(roster, targetId) && !targetHasLeft) return 'target_not_member';
  return null;
}

export function canRemoveMember(roster: GroupRoster, viewerId: number, targetId: number): boolean {
  return removeMemberRefusal(roster, viewerId, targetId) === null;
}

/** Why a viewer may not add a player back: a manage refusal, or the player is not one an admin removed (and may come back). */
export type AddBackMemberRefusal = ManageGroupRefusal | 'target_not_removed';

/**
 * Null when `viewerId` may add `targetId` back to the group, else why not: any current admin
 * lifts the removal of a player an admin removed (or barred after they left), whose account
 * still exists (`targetIsRemoved`). They come back with the points and wagers they had.
 */
export function addBackMemberRefusal(
  roster: GroupRoster,
  viewerId: number,
  targetIsRemoved: boolean,
): AddBackMemberRefusal | null {
  return manageGroupRefusal(roster, viewerId) ?? (targetIsRemoved ? null : 'target_not_removed');
}

export function canAddBackMember(
  roster: GroupRoster,
  viewerId: number,
  targetIsRemoved: boolean,
): boolean {
  return addBackMemberRefusal(roster, viewerId, targetIsRemoved) === null;
}
