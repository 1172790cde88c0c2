import { and, eq, isNull } from 'drizzle-orm';
import { isAdminRole } from '../../domain/policies/group-policy';
import {
  isBetCreator,
  mayCancel,
  mayDispute,
  mayJudgeDisputeOf,
  mayResolve,
  maySeePicks,
  mayShare,
  mayStopSharing,
  mayUndo,
  mayWager,
  type BetViewer,
  type PolicyBet,
  type Verdict,
} from '../../domain/policies/bet-policy';
import type { Executor } from '../db/connect';
import { memberships, type BetRow, type MembershipRow } from '../db/schema';
import { betRefusal } from '../bet-refusals';
import { requireGroupAccess } from '../groups/group-access';
import { findActiveMembership, listActiveAdminIds } from '../groups/membership-queries';
import { findBet } from './bet-queries';

// The server's side of the bet policy (src/domain/policies/bet-policy.ts): each bet action
// loads the facts the policy weighs (the caller's membership, and only what that action needs
// besides) and throws the policy's refusal as the error every client knows. The client's
// screens ask the same policy, so what they offer is what this accepts.

/** What a caller does to a bet they already loaded and locked. */
export type BetAction =
  | 'wager'
  | 'resolve'
  | 'cancel'
  | 'undo'
  | 'dispute'
  | 'judgeDispute'
  | 'seePicks'
  | 'share'
  | 'stopSharing';

export interface BetActionRequest {
  userId: number;
  action: BetAction;
  bet: BetRow;
  now: Date;
  /** For `dispute`: whether the caller has a wager on the bet. */
  hasWagered?: boolean;
  /** For `judgeDispute`: everyone with a wager on the bet. */
  stakeholderIds?: readonly number[];
  /** For `stopSharing`: who shared the bet's live link. */
  sharedBy?: number | null;
  /** The caller's membership of the bet's group (current or not), when already read with the bet. */
  membership?: MembershipRow | null;
}

/** The bet as the policy reads it. */
export function policyBetOf(row: BetRow): PolicyBet {
  return {
    createdBy: row.createdBy,
    state: row.state,
    expiresAt: row.expiresAt,
    picksRevealedAt: row.picksRevealedAt,
    resolvedAt: row.resolvedAt,
    resolvedBy: row.resolvedBy,
    baseWagerAmount: row.baseWagerAmount,
    dispute: row.disputeState
      ? { state: row.disputeState, userId: row.disputedBy ?? 0, at: row.disputedAt }
      : null,
  };
}

/** The bet, when `userId` may read it (its group's `read`, `groups/group-access.ts`); else that refusal. */
export async function findReadableBet(
  tx: Executor,
  userId: number,
  betId: number,
): Promise<BetRow> {
  const bet = await findBet(tx, betId);
  await requireGroupAccess(tx, { userId, groupId: bet.groupId, permission: 'read' });
  return bet;
}

/** Returns when the policy allows the action now, or throws its refusal (403, 409 or 422). */
export async function requireBetAction(tx: Executor, request: BetActionRequest): Promise<void> {
  const verdict = await judge(tx, request);
  if (!verdict.allowed) throw betRefusal(verdict.reason, request.bet.state);
}

async function judge(tx: Executor, request: BetActionRequest): Promise<Verdict> {
  const { userId, bet: row } = request;
  const bet = policyBetOf(row);
  const now = request.now.getTime();
  const membership =
    request.membership === undefined
      ? await findActiveMembership(tx, row.groupId, userId)
      : request.membership?.leftAt === null
        ? request.membership
        : undefined;
  const viewer: BetViewer = {
    userId,
    role: membership ? membership.role : null,
    hasWagered: request.hasWagered ?? false,
  };
  switch (request.action) {
    case 'wager':
      return mayWager(viewer, bet, now);
    case 'resolve': {
      // Whether the creator is still here matters only to an admin standing in for them.
      const creatorIsMember =
        !isAdminRole(viewer.role) || isBetCreator(row, userId)
          ? true
          : Boolean(await findActiveMembership(tx, row.groupId, row.createdBy));
      return mayResolve(viewer, bet, { creatorIsMember }, now);
    }
    case 'cancel':
      return mayCancel(viewer, bet);
    case 'undo':
      return mayUndo(viewer, bet, now);
    case 'dispute':
      return mayDispute(viewer, bet, now);
    case 'seePicks': {
      // Whoever may read the bet (its group's read rule, which refuses as the group does).
      const group = await requireGroupAccess(tx, {
        userId,
        groupId: row.groupId,
        permission: 'read',
      });
      return maySeePicks(viewer, bet, { isPublic: group.privacy === 'public' }, now);
    }
    case 'share':
      return mayShare(viewer);
    case 'stopSharing':
      return mayStopSharing(viewer, { sharedBy: request.sharedBy ?? null });
    case 'judgeDispute': {
      // In turn: one transaction, one connection (readRoster, groups/group-access.ts, says why).
      const joinedAt = viewer.role ? await memberJoinTimes(tx, row.groupId) : new Map();
      const adminIds = viewer.role ? await listActiveAdminIds(tx, row.groupId) : [];
      return mayJudgeDisputeOf(viewer, bet, {
        memberIds: [...joinedAt.keys()],
        adminIds,
        stakeholderIds: request.stakeholderIds ?? [],
        joinedAt,
      });
    }
  }
}

/** When each current member of the group last joined (ms), by user id: who may judge a dispute weighs it. */
async function memberJoinTimes(tx: Executor, groupId: number): Promise<Map<number, number>> {
  const rows = await tx
    .select({ userId: memberships.userId, joinedAt: memberships.joinedAt })
    .from(memberships)
    .where(and(eq(memberships.groupId, groupId), isNull(memberships.leftAt)));
  return new Map(rows.map((row) => [row.userId, row.joinedAt.getTime()]));
}
