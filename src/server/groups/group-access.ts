import { timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import {
  groups,
  memberships,
  users,
  type BetCommentRow,
  type BetRow,
  type GroupRow,
} from '../db/schema';
import { isGroupCreator, isKeptOutOfGroup, normalizeInviteCode } from '../../domain/groups';
import {
  canReadGroup,
  commentRefusal,
  currentMemberRefusal,
  deleteCommentRefusal,
  leaveGroupRefusal,
  manageGroupRefusal,
  muteRefusal,
  readGroupRefusal,
  type GroupRoster,
  type GroupViewer,
  type AddBackMemberRefusal,
  type MemberRefusal,
  type RemoveMemberRefusal,
} from '../../domain/policies/group-policy';
import { manageWebhooksRefusal } from '../../domain/policies/webhook-policy';
import {
  cannotDeleteComment,
  cannotRemoveCreator,
  creatorCannotLeave,
  memberNotRemoved,
  notFound,
  notGroupAdmin,
  notMember,
  noInviteCode,
  removedFromGroup,
  wrongInviteCode,
  type AppError,
} from '../errors';
import {
  findActiveMembership,
  findMembership,
  listActiveAdminIds,
  listActiveMemberIds,
} from './membership-queries';

// Who may do what in a group (docs/groups-and-bets.md §6, and the decisions in this folder's and bets/
// READMEs), in one place: every service asks `requireGroupAccess` before it acts, and
// tests/server/groups/permissions.test.ts holds each permission to its table. The rules
// themselves (reading, acting as a current member, managing) are the group policy's
// (src/domain/policies/group-policy.ts), which the client's screens ask too; this loads the
// facts it weighs and throws its refusals as the errors every client knows.

/** What a caller asks of a group, by id; each first loads the group (404 "Group not found"). */
type GroupPermission =
  /** The group, its leaderboard, another's membership, its bets: anyone signed in when public, current members when private. */
  | 'read'
  /** One's own membership: the group exists (not being a member is that call's own 404). */
  | 'readOwnMembership'
  /**
   * Joining by oneself (by name, link or id): a public group is open; a private one needs its
   * exact invite code; neither takes back someone an admin removed until an admin adds them.
   */
  | 'join'
  /** A current member leaves; the creator cannot, so every group keeps an admin. */
  | 'leave'
  /** Adding and removing members and admins: current admins (a non-member hears not_member first). */
  | 'manageMembers'
  /** Changing the group's name, description or settings (the weekly floor top-up): current admins. */
  | 'manageSettings'
  /** Reading the group's settings: current admins. */
  | 'readSettings'
  /** Starting a season and ending it early: current admins. */
  | 'manageSeasons'
  /** Creating a tipping round and changing its scoring: current admins. */
  | 'manageRounds'
  /** Giving a private group a new invite code: current admins (a public group has none: 422). */
  | 'rotateInviteCode'
  /** Creating a bet: current members. */
  | 'createBet'
  /** Muting (or unmuting) the group's notifications for oneself: current members. */
  | 'muteGroup'
  /** Adding, changing, rotating, resending and deleting the group's webhooks: current admins. */
  | 'manageWebhooks'
  /** Reading the group's webhooks and their deliveries: current admins. */
  | 'readWebhooks';

/**
 * What a caller asks of a bet they already loaded: its group exists (foreign key), so it is not
 * read again. Acting on the bet itself (wagering, resolving, cancelling, undoing, disputing,
 * judging) is the bet policy's, asked through `bets/bet-access.ts`.
 */
type BetPermission =
  /** Reading the bet's comments: current members. */
  | 'readComments'
  /** Writing a comment on the bet: current members. */
  | 'comment'
  /** Muting (or unmuting) the bet's notifications for oneself: current members. */
  | 'muteBet';

/** What a caller asks of a comment they already loaded. */
type CommentPermission =
  /** Its author while a member, or a current admin of its group. */
  'deleteComment';

export interface GroupAccessRequest {
  userId: number;
  permission: GroupPermission;
  groupId: number;
  /** For `join`: the code the caller sent. */
  inviteCode?: string;
}

export interface BetAccessRequest {
  userId: number;
  permission: BetPermission;
  bet: Pick<BetRow, 'groupId'>;
}

export interface CommentAccessRequest {
  userId: number;
  permission: CommentPermission;
  comment: Pick<BetCommentRow, 'groupId' | 'userId'>;
}

/**
 * Every write's permission is decided under the group's row lock, the lock every change of
 * members and roles takes first (db/README.md, "Lock order"): a removal or demotion that has
 * answered is seen by every request still running, never undone or outlived by one that checked
 * before it. The caller locks any account row it needs first.
 *
 * Changing who is in the group, who administers it, or the group itself takes the row
 * `FOR NO KEY UPDATE`. A member's own acts in the group (a bet, a comment, a mute) take it
 * `FOR SHARE`: it waits for such a change and holds one off until it commits, while members'
 * acts never wait for each other. Reads take no lock.
 */
export type GroupLock = 'no key update' | 'share';
const GROUP_LOCKS: Partial<Record<GroupPermission | BetPermission | CommentPermission, GroupLock>> =
  {
    join: 'no key update',
    leave: 'no key update',
    manageMembers: 'no key update',
    manageSettings: 'no key update',
    manageSeasons: 'no key update',
    // An admin's act in the group, like a bet: it waits for a demotion and holds one off.
    manageRounds: 'share',
    rotateInviteCode: 'no key update',
    // A hook's change waits for a demotion in flight, and holds the next one off.
    manageWebhooks: 'no key update',
    createBet: 'share',
    muteGroup: 'share',
    comment: 'share',
    muteBet: 'share',
    deleteComment: 'share',
  };

/** Answers the group row when the caller may act, or throws the refusal (404, 403 or 422) every client knows. */
export async function requireGroupAccess(
  tx: Executor,
  request: GroupAccessRequest,
): Promise<GroupRow>;
/** Returns when the caller may act on the bet, or throws the refusal (403). */
export async function requireGroupAccess(tx: Executor, request: BetAccessRequest): Promise<void>;
/** Returns when the caller may act on the comment, or throws the refusal (403). */
export async function requireGroupAccess(
  tx: Executor,
  request: CommentAccessRequest,
): Promise<void>;
export async function requireGroupAccess(
  tx: Executor,
  request: GroupAccessRequest | BetAccessRequest | CommentAccessRequest,
): Promise<GroupRow | void> {
  if ('bet' in request) return requireBetAccess(tx, request);
  if ('comment' in request) return requireCommentAccess(tx, request);
  const { userId, permission } = request;
  const group = await findGroup(tx, request.groupId, GROUP_LOCKS[permission]);
  switch (permission) {
    case 'readOwnMembership':
      return group;
    case 'read': {
      const visibility = { isPublic: group.privacy === 'public' };
      // Whom even a non-member may read (a public group) is read without looking them up.
      if (canReadGroup({ role: null }, visibility)) return group;
      throwRefusal(readGroupRefusal(await viewerIn(tx, group.id, userId), visibility));
      return group;
    }
    case 'join':
      if (group.privacy === 'private' && !isSameCode(group.inviteCode ?? '', request.inviteCode))
        throw wrongInviteCode();
      if (isKeptOutOfGroup(await findMembership(tx, group.id, userId)))
        throw await removedFromGroupNamingAdmins(tx, group.id);
      return group;
    case 'leave': {
      const viewer = await viewerIn(tx, group.id, userId);
      const refusal = leaveGroupRefusal({ ...viewer, isCreator: isGroupCreator(group, userId) });
      if (refusal === 'creator') throw creatorCannotLeave();
      throwRefusal(refusal);
      return group;
    }
    case 'manageMembers':
    case 'manageSettings':
    case 'readSettings':
    case 'manageSeasons':
    case 'manageRounds':
    case 'rotateInviteCode': {
      const refusal = manageGroupRefusal(await readRoster(tx, group), userId);
      if (refusal) throw refusalError(refusal);
      if (permission === 'rotateInviteCode' && group.privacy !== 'private') throw noInviteCode();
      return group;
    }
    case 'createBet':
      throwRefusal(currentMemberRefusal(await viewerIn(tx, group.id, userId)));
      return group;
    case 'muteGroup':
      throwRefusal(muteRefusal(await viewerIn(tx, group.id, userId)));
      return group;
    case 'manageWebhooks':
    case 'readWebhooks': {
      const refusal = manageWebhooksRefusal(await readRoster(tx, group), userId);
      if (refusal) throw refusalError(refusal);
      return group;
    }
  }
}

async function requireBetAccess(tx: Executor, request: BetAccessRequest): Promise<void> {
  await lockGroup(tx, request.bet.groupId, GROUP_LOCKS[request.permission]);
  const viewer = await viewerIn(tx, request.bet.groupId, request.userId);
  switch (request.permission) {
    case 'readComments':
    case 'comment':
      return throwRefusal(commentRefusal(viewer));
    case 'muteBet':
      return throwRefusal(muteRefusal(viewer));
  }
}

/** The caller's standing in the group now, as the group policy reads it. */
async function viewerIn(tx: Executor, groupId: number, userId: number): Promise<GroupViewer> {
  const membership = await findActiveMembership(tx, groupId, userId);
  return { role: membership ? membership.role : null };
}

/** Throws the group policy's refusal, if any, as the error every client knows. */
function throwRefusal(refusal: MemberRefusal | null): void {
  if (refusal) throw refusalError(refusal);
}

async function requireCommentAccess(tx: Executor, request: CommentAccessRequest): Promise<void> {
  await lockGroup(tx, request.comment.groupId, GROUP_LOCKS[request.permission]);
  const viewer = await viewerIn(tx, request.comment.groupId, request.userId);
  const refusal = deleteCommentRefusal(viewer, request.comment.userId === request.userId);
  if (refusal === 'cannot_delete_comment') throw cannotDeleteComment();
  throwRefusal(refusal);
}

/** The group's current admins and members, for the group policy (src/domain/policies). */
export async function readRoster(tx: Executor, group: GroupRow): Promise<GroupRoster> {
  // In turn, not Promise.all: a transaction is one connection, which runs one query at a time
  // anyway (pg warns about overlapping queries on one client, and its next major refuses them).
  const admins = await listActiveAdminIds(tx, group.id);
  const memberUserIds = await listActiveMemberIds(tx, group.id);
  return { createdByUserId: group.createdByUserId, admins, memberUserIds };
}

/**
 * The refusal of a player an admin removed who tries to join again, naming who can add them
 * back: the group's current admins, longest-standing first.
 */
export async function removedFromGroupNamingAdmins(
  tx: Executor,
  groupId: number,
): Promise<AppError> {
  const admins = await tx
    .select({ name: users.displayName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.groupId, groupId),
        eq(memberships.role, 'admin'),
        isNull(memberships.leftAt),
      ),
    )
    .orderBy(asc(memberships.joinedAt), asc(memberships.userId));
  return removedFromGroup(admins.map((admin) => admin.name));
}

/** The answer every client knows for each refusal of the group policy. */
export function refusalError(refusal: RemoveMemberRefusal | AddBackMemberRefusal): AppError {
  switch (refusal) {
    case 'target_not_removed':
      return memberNotRemoved();
    case 'not_member':
      return notMember();
    case 'not_admin':
      return notGroupAdmin();
    case 'creator':
      return cannotRemoveCreator();
    case 'target_not_member':
    case 'self':
      return notFound('Member');
  }
}

/** The group; with `lock`, its row locked so until the caller's transaction ends (see GROUP_LOCKS). */
async function findGroup(tx: Executor, groupId: number, lock?: GroupLock): Promise<GroupRow> {
  const query = tx.select().from(groups).where(eq(groups.id, groupId)).limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) throw notFound('Group');
  return row;
}

/**
 * Locks the group row of a bet or comment already loaded (its group exists: a foreign key).
 * `share` for a member's own write: it waits for a removal in flight and holds the next one off.
 */
export async function lockGroup(tx: Executor, groupId: number, lock?: GroupLock): Promise<void> {
  if (lock) await tx.select({ id: groups.id }).from(groups).where(eq(groups.id, groupId)).for(lock);
}

/** Whether `given` opens a group whose code is `expected`: without case (`normalizeInviteCode`), in constant time. */
function isSameCode(expected: string, given = ''): boolean {
  const a = Buffer.from(normalizeInviteCode(expected));
  const b = Buffer.from(normalizeInviteCode(given));
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The group an invite link opens, for a visitor not signed in (the invite preview): a private
 * group whose code is `inviteCode`. A wrong code, an unknown group and a public group get the
 * same 403, so the answer tells nothing without the code.
 */
export async function requireInviteCode(
  tx: Executor,
  groupId: number,
  inviteCode: string,
): Promise<GroupRow> {
  const [group] = await tx.select().from(groups).where(eq(groups.id, groupId)).limit(1);
  if (!group || group.privacy !== 'private' || !isSameCode(group.inviteCode ?? '', inviteCode))
    throw wrongInviteCode();
  return group;
}
