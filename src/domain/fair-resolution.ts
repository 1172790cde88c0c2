// Picks revealed once betting closes, and a way out of a wrong or abandoned
// resolution (undo, dispute, an admin's review, admins settling abandoned bets), with each
// bet's history. The windows, the types and the rules both sides read (the wire schemas:
// schemas/fair-resolution.ts). Imports nothing of bets.ts (which carries these fields on the bet).

/** The one who resolved a bet may undo it for this long after resolvedAt. */
export const UNDO_WINDOW_MS = 10 * 60 * 1000;
/** A participant may dispute a resolution for this long after resolvedAt. */
export const DISPUTE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A bet closed this long without a resolution is abandoned: group admins may resolve it too. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

export const DISPUTE_LIMITS = { reasonMax: 200 } as const;

export const FAIR_MESSAGES = {
  reasonRequired: 'Tell the group what looks wrong',
  reasonMax: 'Keep it to 200 characters or less',
} as const;

/** Where a bet's dispute stands: none yet, open (waiting for an admin), closed (re-resolved or dismissed: final). */
export const DISPUTE_STATES = ['open', 'closed'] as const;
export type DisputeState = (typeof DISPUTE_STATES)[number];

/** One member's pick, shown to every member once betting has closed. */
export type RevealedPick = {
  userId: number;
  userName: string;
  prediction: string;
  points: number;
};

/** The open (or last reviewed) dispute of a bet's current resolution. */
export type BetDispute = {
  state: DisputeState;
  userId: number;
  reason: string;
  at: string;
};

/** POST /bets/{id}/dispute. */
export type DisputeRequest = { reason: string };

export const BET_HISTORY_KINDS = [
  'created',
  'resolved',
  'undone',
  'disputed',
  're_resolved',
  'dismissed',
  'cancelled',
  'expired',
] as const;
export type BetHistoryKind = (typeof BET_HISTORY_KINDS)[number];

/** One line of a bet's history: what happened, by whom (null: by itself, the expiry job), when. */
export type BetHistoryEntry = {
  id: number;
  betId: number;
  groupId: number;
  kind: BetHistoryKind;
  actorId: number | null;
  /** The actor's display name now. */
  actorName: string | null;
  /** The answer named by a resolution or re-resolution. */
  correctAnswer: string | null;
  /** A dispute's reason. */
  reason: string | null;
  createdAt: string;
};
export interface VersionedBetHistoryEntry extends BetHistoryEntry {
  version: number;
}

export interface TimedBet {
  state: string;
  expiresAt: string | Date;
  /** When its picks were first shown to the group (its close, or a resolution before it); null or absent while hidden. */
  picksRevealedAt?: string | Date | null;
}
const ms = (value: string | Date) =>
  typeof value === 'string' ? Date.parse(value) : value.getTime();

/**
 * Betting is open: the bet is active, its expiry lies ahead (an unparsable one counts as not
 * passed) and nobody has been shown its picks yet. Once picks were shown, by a resolution before
 * the expiry that was then undone, say, a wager placed after could follow them: such a bet stays
 * closed, active and waiting for its result.
 */
export function isBettingOpen(bet: TimedBet, now: number): boolean {
  return bet.state === 'active' && !(ms(bet.expiresAt) <= now) && !bet.picksRevealedAt;
}

/**
 * Betting has closed (the opposite of isBettingOpen): settled, expired (maybe still waiting for its
 * resolver) or its picks shown. Picks show from then on.
 */
export function isBettingClosed(bet: TimedBet, now: number): boolean {
  return !isBettingOpen(bet, now);
}

/** An active bet closed for ABANDONED_AFTER_MS without a resolution: admins may resolve it too. */
export function isAbandoned(bet: TimedBet, now: number): boolean {
  return bet.state === 'active' && ms(bet.expiresAt) + ABANDONED_AFTER_MS <= now;
}

/** When the undo window of a resolved bet ends (ms), or null when it is not resolved. */
export function undoDeadline(bet: {
  state: string;
  resolvedAt: string | Date | null;
}): number | null {
  if (bet.state !== 'resolved' || !bet.resolvedAt) return null;
  return ms(bet.resolvedAt) + UNDO_WINDOW_MS;
}

/** Who is in the group and who has a say in a bet's dispute: the facts `disputeJudgeIds` weighs. */
export interface DisputeJudgeFacts {
  /** The group's current members, admins included. */
  memberIds: readonly number[];
  /** The group's current admins. */
  adminIds: readonly number[];
  /** Whoever has a wager on the bet. */
  stakeholderIds: readonly number[];
  /** Who opened the dispute (null: none yet). */
  disputedBy: number | null;
  /**
   * When the dispute was opened and when each current member last joined (ms since the epoch;
   * absent: none yet, or a member whose join time is not known, taken as joined before). A member
   * who joined after the dispute was opened does not judge it.
   */
  disputedAt?: number | null;
  joinedAt?: ReadonlyMap<number, number>;
}

/**
 * Who may judge a bet's dispute (re-resolve it or let it stand). Never whoever disputed it or
 * has a wager on the bet: they would judge in their own favour. The group's admins judge when
 * at least one of them is free of the bet; when every admin has a stake, any member without one
 * does. Whoever joined after the dispute was opened does not judge it (they came to a dispute
 * already under way). When nobody is free, nobody judges: the dispute stays open and the result
 * stands as it was paid.
 */
export function disputeJudgeIds(facts: DisputeJudgeFacts): number[] {
  const stakeholders = new Set(facts.stakeholderIds);
  const { disputedAt, joinedAt } = facts;
  const joinedAfter = (userId: number) =>
    disputedAt != null && (joinedAt?.get(userId) ?? -Infinity) > disputedAt;
  const isFree = (userId: number) =>
    userId !== facts.disputedBy && !stakeholders.has(userId) && !joinedAfter(userId);
  const admins = facts.adminIds.filter(isFree);
  return admins.length > 0 ? admins : facts.memberIds.filter(isFree);
}

/**
 * Who hears of a new dispute, in the inbox and as a toast: the bet's creator (whose result it
 * questions) and whoever may judge it (`disputeJudgeIds`), while members; never the disputer.
 */
export function disputeNoticeRecipients(
  facts: DisputeJudgeFacts & { createdBy: number },
): number[] {
  const members = new Set(facts.memberIds);
  return [...new Set([facts.createdBy, ...disputeJudgeIds(facts)])].filter(
    (userId) => userId !== facts.disputedBy && members.has(userId),
  );
}

/** Whether `userId` may judge the dispute (`disputeJudgeIds`). */
export function mayJudgeDispute(userId: number, facts: DisputeJudgeFacts): boolean {
  return disputeJudgeIds(facts).includes(userId);
}
