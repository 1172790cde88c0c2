import { BET_LIMITS, BET_MESSAGES } from './bet-limits';
import type { RepeatPeriod } from './bet-repeats';
import {
  betTypeRulesOf,
  type BetType,
  type BetTypeConfigOf,
  type CreatableBetType,
} from './bet-types';
import type { BetDispute, RevealedPick } from './fair-resolution';
import type { Membership } from './groups';

// Bets and wagers: their types and the rules both sides read (the wire schemas, with the
// messages users see: schemas/bets.ts). What differs between bet types
// (configs, answers, winners) is the table in bet-types.ts. Pure: the clock is always an argument.

export const BET_STATES = ['draft', 'active', 'expired', 'resolved', 'cancelled'] as const;
export type BetState = (typeof BET_STATES)[number];

/**
 * The config as it travels in responses and is stored: docs/groups-and-bets.md §3 calls it a free record, so
 * every key is optional and unknown keys survive; the request schema is the strict one.
 */
export type BetTypeConfig = {
  [key: string]: unknown;
  yesLabel?: string | undefined;
  noLabel?: string | undefined;
  options?: string[] | undefined;
  line?: number | undefined;
};

// ---- POST /bets ----

type CreateBetCommon = {
  title: string;
  description?: string | undefined;
  expiresAt: string;
  baseWagerAmount: number;
  groupId: number;
  /** A bet that comes back (bet-repeats.ts), closing at its time of day in `timeZone`. */
  repeat?: { every: RepeatPeriod; until?: string | undefined; timeZone: string } | undefined;
};
/** A validated bet request: the config is the one of its type, with defaults applied. */
export type CreateBetInput = {
  [T in CreatableBetType]: CreateBetCommon & { betType: T; betTypeConfig: BetTypeConfigOf<T> };
}[CreatableBetType];

/** POST /bets, as a form sends it; the config is checked against its type's (schemas/bet-types.ts). */
export type CreateBetRequest = {
  title: string;
  description?: string | null | undefined;
  expiresAt: string;
  baseWagerAmount: number;
  betType: CreatableBetType;
  betTypeConfig?: unknown;
  groupId: string | number;
  repeat?:
    { every: RepeatPeriod; until?: string | undefined; timeZone?: string | undefined } | undefined;
};

/** Whether an expiry lies after `now` (ms since the epoch); docs/groups-and-bets.md §5 wants a future expiry. */
export function isExpiryInFuture(expiresAt: string, now: number): boolean {
  const time = Date.parse(expiresAt);
  return Number.isFinite(time) && time > now;
}

/**
 * Why a new bet may not close at `expiresAt` (`now` in ms since the epoch), or undefined when it
 * may: it must lie ahead, and at most a year ahead (BET_LIMITS.maxExpiryAheadMs). The server and
 * the bet form both ask here.
 */
export function expiryRefusal(expiresAt: string, now: number): string | undefined {
  if (!isExpiryInFuture(expiresAt, now)) return BET_MESSAGES.expiryInPast;
  if (Date.parse(expiresAt) > now + BET_LIMITS.maxExpiryAheadMs) return BET_MESSAGES.expiryTooFar;
  return undefined;
}

/** The form's default expiry (docs/groups-and-bets.md §5: now + 24 h), as an ISO string. */
export function defaultExpiresAt(now: number): string {
  return new Date(now + BET_LIMITS.defaultExpiryMs).toISOString();
}

// ---- wager points ----

/** The multiplier (1, 2 or 3) a wager of `points` makes on a bet of base `base`, or null when it makes none. */
export function wagerMultiplier(base: number, points: number): 1 | 2 | 3 | null {
  if (!Number.isInteger(base) || base < 1 || !Number.isInteger(points)) return null;
  const multiplier = points / base;
  return multiplier === 1 || multiplier === 2 || multiplier === 3 ? multiplier : null;
}

/** A wager's points must be the base amount times 1, 2 or 3 (docs/groups-and-bets.md §3, §5). */
export function isValidWagerPoints(base: number, points: number): boolean {
  return wagerMultiplier(base, points) !== null;
}

/**
 * Why a wager's points do not fit its bet, or null: a bet whose type stakes points takes the
 * base times 1, 2 or 3 (`points_min` below 1, `tier` otherwise); a score tip stakes nothing, so
 * only 0 (docs/rules.md "Tipping rounds").
 */
export function wagerPointsRefusal(
  bet: { betType: string; baseWagerAmount: number },
  points: number,
): 'points_min' | 'tier' | 'tip_stakes_nothing' | null {
  if (betTypeRulesOf(bet.betType)?.stakesPoints === false)
    return points === 0 ? null : 'tip_stakes_nothing';
  if (points < 1) return 'points_min';
  return isValidWagerPoints(bet.baseWagerAmount, points) ? null : 'tier';
}

/**
 * The amounts a wager form may offer on a bet of base `base`: exactly those isValidWagerPoints
 * accepts, smallest first (none for a base that makes no wager possible).
 */
export function wagerPointChoices(base: number): number[] {
  return wagerMultiplier(base, base) === null
    ? []
    : [1, 2, 3].map((multiplier) => base * multiplier);
}

// ---- responses (docs/groups-and-bets.md §3) ----

/**
 * A bet as every response and realtime event carries it, and as the client stores it.
 * `answerTotals` (our addition, docs/architecture.md §5 "Odds") is the points wagered on each
 * answer, keyed by the normalised answer; members see it, individual predictions stay hidden.
 */
export type Bet = {
  id: number;
  title: string;
  description: string | null;
  betType: BetType;
  state: BetState;
  betTypeConfig: BetTypeConfig;
  baseWagerAmount: number;
  groupId: number;
  createdBy: number;
  expiresAt: string;
  correctAnswer: string | null;
  resolvedAt: string | null;
  resolvedBy: number | null;
  createdAt: string;
  updatedAt: string;
  /** Points per answer, keyed by players' text. */
  answerTotals?: Record<string, number> | undefined;
  wagerCount?: number | undefined;
  /** Who picked what, once betting has closed; absent or null while it is open. */
  picks?: RevealedPick[] | null | undefined;
  /**
   * When its picks were first shown to the group (its close, or a resolution before it); absent
   * while they never were. Betting never reopens after it, even if the resolution is undone
   * (fair-resolution.ts isBettingOpen).
   */
  picksRevealedAt?: string | null | undefined;
  /** The dispute of its current resolution, if any. */
  dispute?: BetDispute | null | undefined;
};

/** What a new bet is made of; the rest follows from its being new (`openBet`). */
export type BetBasics = Pick<
  Bet,
  | 'id'
  | 'title'
  | 'description'
  | 'betType'
  | 'betTypeConfig'
  | 'baseWagerAmount'
  | 'groupId'
  | 'createdBy'
  | 'expiresAt'
>;

/** A bet just created at `now` (ISO): active, unresolved, nobody has wagered yet. */
export function openBet(basics: BetBasics, now: string): Bet {
  return {
    ...basics,
    state: 'active',
    correctAnswer: null,
    resolvedAt: null,
    resolvedBy: null,
    createdAt: now,
    updatedAt: now,
    answerTotals: {},
    wagerCount: 0,
  };
}

export type Wager = {
  id: number;
  betId: number;
  userId: number;
  prediction: string;
  points: number;
  createdAt: string;
  updatedAt: string;
};

/** GET /bets/{id}/user-context: the bet, the viewer's membership (for availablePoints) and their wager. */
export type BetUserContext = {
  bet: Bet;
  membership: Membership | null;
  userWager?: Wager | null | undefined;
};

/** GET /bets/{id}/statistics, the fields of docs/groups-and-bets.md §3; percentages are 0–100. */
export type BetStatistics = {
  isResolved: boolean;
  correctAnswer: string | null;
  totalParticipants: number;
  totalMembers: number;
  participationRate: number;
  totalPoints: number;
  averagePoints: number;
  userWager: {
    prediction: string;
    points: number;
    /** What the payout gave the viewer back (0 for a losing pick), once the bet is resolved. */
    winnings?: number | undefined;
  } | null;
  /** Why a resolved bet refunded every wager (an over/under answer on its line, or no pick won); null when it paid winners. */
  refundReason?: 'push' | 'no_winner' | null | undefined;
  winnerLoserBreakdown: {
    totalWinners: number;
    winnerPercentage: number;
    winnersPoints: number;
    totalLosers: number;
    loserPercentage: number;
    losersPoints: number;
  };
  answerDistribution: {
    answer: string;
    participantCount: number;
    percentage: number;
    totalPoints: number;
  }[];
};
