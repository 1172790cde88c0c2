import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import {
  groups,
  type BetCommentRow,
  type BetRow,
  type GroupRow,
  type MembershipRow,
} from '../db/schema';
import { isAbandoned, mayJudgeDispute } from '../../domain/fair-resolution';
import { isKeptOutOfGroup, normalizeInviteCode } from '../../domain/groups';
import {
  cannotCancelBet,
  cannotDeleteComment,
  cannotDispute,
  cannotJudgeOwnDispute,
  cannotReviewDispute,
  cannotUndoResolution,
  creatorCannotLeave,
  notBetCreator,
  notFound,
  notGroupAdmin,
  notMember,
  noInviteCode,
  removedFromGroup,
  wrongInviteCode,
} from '../errors';
import {
  findActiveMembership,
  findMembership,
  listActiveAdminIds,
  listActiveMemberIds,
} from './membership.service';

// Who may do what in a group (spec 02 §6, and the decisions in this folder's and bets/
// READMEs), in one place: every service asks `requireGroupAccess` before it acts, and
// tests/server/groups/permissions.test.ts holds each permission to its table. Only a current
// member acts in a group; a member who left keeps their points and open wagers, nothing more.

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
  /** Reading and changing the group's settings (the weekly floor top-up): current admins. */
  | 'manageSettings'
  /** Starting a season and ending it early: current admins. */
  | 'manageSeasons'
  /** Giving a private group a new invite code: current admins (a public group has none: 422). */
  | 'rotateInviteCode'
  /** Creating a bet: current members. */
  | 'createBet'
  /** Muting (or unmuting) the group's notifications for oneself: current members. */
  | 'muteGroup';

/** What a caller asks of a bet they already loaded (and locked): its group exists (foreign key), so it is not read again. */
type BetPermission =
  /** Placing or changing a wager: current members (one query, the wager's hot path). */
  | 'wager'
  /** The creator while a member; a current admin once the creator has left or been removed, or once the bet is abandoned (closed 24 h, unresolved). */
  | 'resolveBet'
  /** Whoever resolved the bet, while a member (the 10-minute window is the service's rule). */
  | 'undoResolution'
  /** A current member who wagered on the bet (`hasWagered`). */
  | 'disputeResolution'
  /**
   * Re-resolving or dismissing a dispute: never whoever disputed it or wagered on the bet
   * (`stakeholderIds`); current admins free of it, or, when every admin has a stake, any current
   * member free of it (the domain's `disputeJudgeIds`).
   */
  | 'reviewDispute'
  /** The creator while a member, or a current admin. */
  | 'cancelBet'
  /** Reading and writing the bet's comments: current members. */
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
  bet: Pick<BetRow, 'groupId' | 'createdBy'> &
    Partial<Pick<BetRow, 'state' | 'expiresAt' | 'resolvedBy' | 'disputedBy'>>;
  /** For `resolveBet`: the time an abandoned bet is judged at. */
  now?: Date;
  /** For `disputeResolution`: whether the caller has a wager on the bet. */
  hasWagered?: boolean;
  /** For `reviewDispute`: everyone with a wager on the bet. */
  stakeholderIds?: readonly number[];
}

export interface CommentAccessRequest {
  userId: number;
  permission: CommentPermission;
  comment: Pick<BetCommentRow, 'groupId' | 'userId'>;
}

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
  const group = await findGroup(tx, request.groupId);
  switch (permission) {
    case 'readOwnMembership':
      return group;
    case 'read':
      if (group.privacy === 'public') return group;
      await requireMember(tx, group.id, userId);
      return group;
    case 'join':
      if (group.privacy === 'private' && !isSameCode(group.inviteCode ?? '', request.inviteCode))
        throw wrongInviteCode();
      if (isKeptOutOfGroup(await findMembership(tx, group.id, userId))) throw removedFromGroup();
      return group;
    case 'leave':
      if (userId === group.createdByUserId) throw creatorCannotLeave();
      await requireMember(tx, group.id, userId);
      return group;
    case 'manageMembers':
    case 'manageSettings':
    case 'manageSeasons':
    case 'rotateInviteCode': {
      const membership = await requireMember(tx, group.id, userId);
      if (membership.role !== 'admin') throw notGroupAdmin();
      if (permission === 'rotateInviteCode' && group.privacy !== 'private') throw noInviteCode();
      return group;
    }
    case 'createBet':
    case 'muteGroup':
      await requireMember(tx, group.id, userId);
      return group;
  }
}

async function requireBetAccess(tx: Executor, request: BetAccessRequest): Promise<void> {
  const { userId, permission, bet } = request;
  const membership = await findActiveMembership(tx, bet.groupId, userId);
  const isAdmin = membership?.role === 'admin';
  switch (permission) {
    case 'undoResolution':
      if (!membership) throw notMember();
      if (bet.resolvedBy !== userId) throw cannotUndoResolution();
      return;
    case 'disputeResolution':
      if (!membership) throw notMember();
      if (!request.hasWagered) throw cannotDispute();
      return;
    case 'reviewDispute': {
      if (!membership) throw notMember();
      const stakeholderIds = request.stakeholderIds ?? [];
      const facts = {
        memberIds: await listActiveMemberIds(tx, bet.groupId),
        adminIds: await listActiveAdminIds(tx, bet.groupId),
        stakeholderIds,
        disputedBy: bet.disputedBy ?? null,
      };
      if (mayJudgeDispute(userId, facts)) return;
      if (stakeholderIds.includes(userId) || bet.disputedBy === userId)
        throw cannotJudgeOwnDispute();
      throw cannotReviewDispute();
    }
    default:
      break;
  }
  if (
    permission === 'wager' ||
    permission === 'comment' ||
    permission === 'muteBet' ||
    bet.createdBy === userId
  ) {
    if (!membership) throw notMember();
    return;
  }
  if (permission === 'cancelBet') {
    if (!isAdmin) throw cannotCancelBet();
    return;
  }
  // Resolving: an admin steps in only for a departed creator, so their bets need not wait for the expiry job.
  if (isAdmin && bet.state && bet.expiresAt && request.now) {
    const abandoned = { state: bet.state, expiresAt: bet.expiresAt };
    if (isAbandoned(abandoned, request.now.getTime())) return;
  }
  if (isAdmin && !(await findActiveMembership(tx, bet.groupId, bet.createdBy))) return;
  throw notBetCreator();
}

async function requireCommentAccess(tx: Executor, request: CommentAccessRequest): Promise<void> {
  const membership = await requireMember(tx, request.comment.groupId, request.userId);
  if (request.comment.userId !== request.userId && membership.role !== 'admin')
    throw cannotDeleteComment();
}

async function findGroup(tx: Executor, groupId: number): Promise<GroupRow> {
  const [row] = await tx.select().from(groups).where(eq(groups.id, groupId)).limit(1);
  if (!row) throw notFound('Group');
  return row;
}

async function requireMember(
  tx: Executor,
  groupId: number,
  userId: number,
): Promise<MembershipRow> {
  const membership = await findActiveMembership(tx, groupId, userId);
  if (!membership) throw notMember();
  return membership;
}

/** An invite code is a secret: compared in constant time. */
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
