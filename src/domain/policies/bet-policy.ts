import type { ApiErrorCode } from '../api-error';
import { wagerPointChoices } from '../bets';
import {
  DISPUTE_WINDOW_MS,
  isAbandoned,
  isBettingClosed,
  isBettingOpen,
  mayJudgeDispute,
  UNDO_WINDOW_MS,
} from '../fair-resolution';
import {
  commentRefusal,
  currentMemberRefusal,
  muteRefusal,
  readGroupRefusal,
  type GroupRole,
  type GroupVisibility,
  type MemberRefusal,
} from './group-policy';

// What a viewer may see of a bet and do with it, at a given time: the one rulebook the server's
// checks, the readers and the client's screens all ask. Each answer is allowed, or a refusal
// naming the reason and the error code the server answers it with, so what a screen offers is
// exactly what the server accepts. The checks run in the server's order: who may act first
// (403), then whether the bet is in a state to allow it (409, 422).

/** A bet as the rules read it: the wire's `Bet` and the server's row both fit (through `policyBetOf` there). */
export interface PolicyBet {
  createdBy: number;
  state: string;
  expiresAt: string | Date;
  picksRevealedAt?: string | Date | null;
  resolvedAt: string | Date | null;
  resolvedBy: number | null;
  baseWagerAmount: number;
  /** Its resolution's dispute: who opened it and whether it is still open; null or absent when none. */
  dispute?: { state: 'open' | 'closed'; userId: number; at?: Date | string | null } | null;
}

/** Whether `userId` created the bet. */
export const isBetCreator = (bet: Pick<PolicyBet, 'createdBy'>, userId: number): boolean =>
  bet.createdBy === userId;

/** Who looks at the bet, and what they have to do with it. */
export interface BetViewer {
  userId: number;
  /** Their role in the bet's group now; null when they are not a member (never were, left or were removed). */
  role: GroupRole;
  /** They have a wager on the bet. */
  hasWagered: boolean;
}

/** What the rules need to know of the bet's group. */
export interface BetGroupFacts extends GroupVisibility {
  /** The bet's creator is still a member (an admin resolves a departed creator's bets). */
  creatorIsMember: boolean;
  /** Current members (admins included) and admins, and everyone with a wager on the bet: who may judge a dispute. */
  memberIds: readonly number[];
  adminIds: readonly number[];
  stakeholderIds: readonly number[];
  /** When each current member last joined (ms): a member who joined after a dispute was opened does not judge it. */
  joinedAt?: ReadonlyMap<number, number>;
}

/** Why an action is refused; each names the server's error for it (`BET_REFUSAL_CODES`). */
export type BetRefusal =
  | 'not_member'
  | 'not_bet_creator'
  | 'cannot_cancel_bet'
  | 'cannot_undo_resolution'
  | 'cannot_dispute'
  | 'cannot_review_dispute'
  | 'own_stake'
  | 'bet_closed'
  | 'bet_expired'
  | 'already_resolved'
  | 'bet_not_active'
  | 'not_resolved'
  | 'resolution_final'
  | 'undo_window_over'
  | 'dispute_exists'
  | 'dispute_window_over'
  | 'no_open_dispute'
  | 'picks_hidden'
  | 'cannot_stop_sharing'
  | 'insufficient_points';

/** The error code the server answers each refusal with. */
export const BET_REFUSAL_CODES: Record<BetRefusal, ApiErrorCode> = {
  not_member: 'not_member',
  not_bet_creator: 'not_bet_creator',
  cannot_cancel_bet: 'cannot_cancel_bet',
  cannot_undo_resolution: 'cannot_undo_resolution',
  cannot_dispute: 'cannot_dispute',
  cannot_review_dispute: 'cannot_review_dispute',
  own_stake: 'cannot_review_dispute',
  bet_closed: 'bet_closed',
  bet_expired: 'bet_closed',
  already_resolved: 'already_resolved',
  bet_not_active: 'bet_not_active',
  not_resolved: 'bet_not_active',
  resolution_final: 'undo_window_over',
  undo_window_over: 'undo_window_over',
  dispute_exists: 'dispute_exists',
  dispute_window_over: 'dispute_window_over',
  no_open_dispute: 'no_open_dispute',
  picks_hidden: 'picks_hidden',
  cannot_stop_sharing: 'cannot_stop_sharing',
  insufficient_points: 'insufficient_points',
};

export type Refused = { allowed: false; reason: BetRefusal; code: ApiErrorCode };
export type Verdict = { allowed: true } | Refused;
export type WagerVerdict = { allowed: true; amounts: number[] } | Refused;

const ALLOWED: Verdict = { allowed: true };
const refuse = (reason: BetRefusal): Refused => ({
  allowed: false,
  reason,
  code: BET_REFUSAL_CODES[reason],
});

/** The group policy's answer (src/domain/policies/group-policy.ts) as a verdict. */
const asVerdict = (refusal: MemberRefusal | null): Verdict => (refusal ? refuse(refusal) : ALLOWED);

const ms = (value: string | Date) =>
  typeof value === 'string' ? Date.parse(value) : value.getTime();

/** Only an active bet settles: a resolved one says so, any other state is settled already. */
function activeOnly(bet: PolicyBet): Verdict {
  if (bet.state === 'resolved') return refuse('already_resolved');
  return bet.state === 'active' ? ALLOWED : refuse('bet_not_active');
}

/** Undo and dispute act on a resolution. */
function resolvedOnly(bet: PolicyBet): Verdict {
  if (bet.state === 'active') return refuse('not_resolved');
  return bet.state === 'resolved' && bet.resolvedAt ? ALLOWED : refuse('bet_not_active');
}

/** Placing or changing a wager: current members, while betting is open; the amounts the form may offer. */
export function mayWager(
  viewer: Pick<BetViewer, 'role'>,
  bet: PolicyBet,
  now: number,
): WagerVerdict {
  if (!viewer.role) return refuse('not_member');
  if (bet.state !== 'active') return refuse('bet_closed');
  if (!isBettingOpen(bet, now))
    return refuse(ms(bet.expiresAt) <= now ? 'bet_expired' : 'bet_closed');
  return { allowed: true, amounts: wagerPointChoices(bet.baseWagerAmount) };
}

/**
 * Whether the viewer's available points pay for a wager of `points` on `bet` (its base, the
 * least wager, while no amount is chosen). Changing a wager frees its old points first: only the
 * difference is debited (docs/architecture.md §4). The wager form, the bet queue and the server's
 * ledger writer (its conditional UPDATE: available ≥ debit) hold the same rule.
 */
export function mayAfford(
  availablePoints: number,
  bet: Pick<PolicyBet, 'baseWagerAmount'>,
  { points, currentWagerPoints = 0 }: { points?: number; currentWagerPoints?: number } = {},
): Verdict {
  const spendable = availablePoints + currentWagerPoints;
  return (points ?? bet.baseWagerAmount) <= spendable ? ALLOWED : refuse('insufficient_points');
}

/**
 * Settling with an answer: the creator while a member; a current admin once the creator has
 * left or been removed, or once the bet is abandoned (closed a day without a result). Before
 * or after the close: settling early is `closeEarly`'s step on screen.
 */
export function mayResolve(
  viewer: Pick<BetViewer, 'userId' | 'role'>,
  bet: PolicyBet,
  group: Pick<BetGroupFacts, 'creatorIsMember'>,
  now: number,
): Verdict {
  if (bet.createdBy === viewer.userId) {
    if (!viewer.role) return refuse('not_member');
  } else if (viewer.role !== 'admin' || (group.creatorIsMember && !isAbandoned(bet, now))) {
    return refuse('not_bet_creator');
  }
  return activeOnly(bet);
}

/** Settling while betting is still open: whoever may resolve, asked again on screen since it cuts everyone off. */
export function mayCloseEarly(
  viewer: Pick<BetViewer, 'userId' | 'role'>,
  bet: PolicyBet,
  group: Pick<BetGroupFacts, 'creatorIsMember'>,
  now: number,
): Verdict {
  const verdict = mayResolve(viewer, bet, group, now);
  if (!verdict.allowed) return verdict;
  return isBettingOpen(bet, now) ? ALLOWED : refuse('bet_closed');
}

/** Cancelling (every wager refunded): the creator while a member, or a current admin; an active bet only. */
export function mayCancel(viewer: Pick<BetViewer, 'userId' | 'role'>, bet: PolicyBet): Verdict {
  if (bet.createdBy === viewer.userId) {
    if (!viewer.role) return refuse('not_member');
  } else if (viewer.role !== 'admin') {
    return refuse('cannot_cancel_bet');
  }
  return activeOnly(bet);
}

/** Undoing a result: whoever resolved it, while a member, for UNDO_WINDOW_MS, unless an admin's review made it final. */
export function mayUndo(
  viewer: Pick<BetViewer, 'userId' | 'role'>,
  bet: PolicyBet,
  now: number,
): Verdict {
  if (!viewer.role) return refuse('not_member');
  if (bet.resolvedBy !== viewer.userId) return refuse('cannot_undo_resolution');
  const resolved = resolvedOnly(bet);
  if (!resolved.allowed) return resolved;
  if (bet.dispute?.state === 'closed') return refuse('resolution_final');
  return now > ms(bet.resolvedAt!) + UNDO_WINDOW_MS ? refuse('undo_window_over') : ALLOWED;
}

/**
 * Disputing a result: a member who wagered on the bet and did not resolve it (whoever resolved
 * it undoes it instead), within DISPUTE_WINDOW_MS, once per resolution.
 */
export function mayDispute(viewer: BetViewer, bet: PolicyBet, now: number): Verdict {
  if (!viewer.role) return refuse('not_member');
  if (!viewer.hasWagered || bet.resolvedBy === viewer.userId) return refuse('cannot_dispute');
  const resolved = resolvedOnly(bet);
  if (!resolved.allowed) return resolved;
  if (bet.dispute) return refuse('dispute_exists');
  return now >= ms(bet.resolvedAt!) + DISPUTE_WINDOW_MS ? refuse('dispute_window_over') : ALLOWED;
}

/** Judging an open dispute (re-resolving or letting it stand): the domain's `disputeJudgeIds`. */
export function mayJudgeDisputeOf(
  viewer: Pick<BetViewer, 'userId' | 'role'>,
  bet: PolicyBet,
  group: Pick<BetGroupFacts, 'memberIds' | 'adminIds' | 'stakeholderIds' | 'joinedAt'>,
): Verdict {
  if (!viewer.role) return refuse('not_member');
  const disputedBy = bet.dispute?.userId ?? null;
  const openedAt = bet.dispute?.at;
  const facts = { ...group, disputedBy, disputedAt: openedAt ? ms(openedAt) : null };
  if (!mayJudgeDispute(viewer.userId, facts)) {
    const hasStake = group.stakeholderIds.includes(viewer.userId) || disputedBy === viewer.userId;
    return refuse(hasStake ? 'own_stake' : 'cannot_review_dispute');
  }
  return bet.state === 'resolved' && bet.dispute?.state === 'open'
    ? ALLOWED
    : refuse('no_open_dispute');
}

/** Reading the bet at all: its group's read rule (anyone signed in in a public group, current members in a private one). */
export function mayRead(
  viewer: Pick<BetViewer, 'role'>,
  group: Pick<BetGroupFacts, 'isPublic'>,
): Verdict {
  return asVerdict(readGroupRefusal(viewer, group));
}

/** Reading and writing the bet's comments: the group policy's `commentRefusal` (current members). */
export function mayComment(viewer: Pick<BetViewer, 'role'>): Verdict {
  return asVerdict(commentRefusal(viewer));
}

/** Muting (or unmuting) the bet for oneself: the group policy's `muteRefusal` (current members). */
export function mayMute(viewer: Pick<BetViewer, 'role'>): Verdict {
  return asVerdict(muteRefusal(viewer));
}

/** Who picked what: whoever may read the bet, once betting has closed. */
export function maySeePicks(
  viewer: Pick<BetViewer, 'role'>,
  bet: PolicyBet,
  group: Pick<BetGroupFacts, 'isPublic'>,
  now: number,
): Verdict {
  const read = mayRead(viewer, group);
  if (!read.allowed) return read;
  return isBettingClosed(bet, now) ? ALLOWED : refuse('picks_hidden');
}

/**
 * Sharing the bet's public link (docs/groups-and-bets.md, "Sharing a bet"): a current member, who
 * can see the bet (a member reads their group's bets). Whoever left or was removed shares nothing.
 */
export function mayShare(viewer: Pick<BetViewer, 'role'>): Verdict {
  return asVerdict(currentMemberRefusal(viewer));
}

/** Turning a bet's public link off: whoever shared it while a member, or any current admin. */
export function mayStopSharing(
  viewer: Pick<BetViewer, 'userId' | 'role'>,
  link: { sharedBy: number | null },
): Verdict {
  if (!viewer.role) return refuse('not_member');
  return viewer.role === 'admin' || link.sharedBy === viewer.userId
    ? ALLOWED
    : refuse('cannot_stop_sharing');
}

export interface BetPolicy {
  read: Verdict;
  wager: WagerVerdict;
  resolve: Verdict;
  closeEarly: Verdict;
  cancel: Verdict;
  undo: Verdict;
  dispute: Verdict;
  judgeDispute: Verdict;
  seePicks: Verdict;
  /** Comments (reading and writing): current members. */
  comment: Verdict;
  /** Muting the bet's notifications for oneself: current members. */
  mute: Verdict;
  /** Making (or reusing) the bet's public link: current members. */
  share: Verdict;
}

/** Everything `viewer` may do with `bet` at `now`. */
export function betPolicy(
  viewer: BetViewer,
  bet: PolicyBet,
  group: BetGroupFacts,
  now: number,
): BetPolicy {
  return {
    read: mayRead(viewer, group),
    wager: mayWager(viewer, bet, now),
    resolve: mayResolve(viewer, bet, group, now),
    closeEarly: mayCloseEarly(viewer, bet, group, now),
    cancel: mayCancel(viewer, bet),
    undo: mayUndo(viewer, bet, now),
    dispute: mayDispute(viewer, bet, now),
    judgeDispute: mayJudgeDisputeOf(viewer, bet, group),
    seePicks: maySeePicks(viewer, bet, group, now),
    comment: mayComment(viewer),
    mute: mayMute(viewer),
    share: mayShare(viewer),
  };
}
