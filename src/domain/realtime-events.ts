import type { BetType } from './bet-types';
import type { BetTypeConfig } from './bets';
import type { VersionedComment } from './comments';
import type { RevealedPick } from './fair-resolution';
import type { Notification } from './notifications';
import type { Distribution } from './payout';

// The realtime events of docs/groups-and-bets.md §3 with their payloads, in ONE interface: the socket.io
// server and client take it as their ServerToClientEvents generic, the server's in-process
// event bus (src/server/events.ts) is typed by it, and the client's sync engine applies each
// event to Dexie by the rules of docs/groups-and-bets.md §4. `groupId` is added wherever it helps the client
// find what to update (docs/architecture.md §7). Dates travel as ISO 8601 strings.
//
// `version` (mirror.ts) is the version of the row the event changed: the bet for bet events and
// wagerPlaced (a wager stamps its bet, whose totals changed), the membership's public stamp for
// userJoinedGroup, the comment for commentPosted and commentDeleted.
// The client keeps a row's newer copy and pulls whatever the payload does not carry.

export interface BetCreatedPayload {
  betId: number;
  title: string;
  betType: BetType;
  betTypeConfig: BetTypeConfig;
  baseWagerAmount: number;
  createdBy: number;
  expiresAt: string;
  groupId: number;
  version: number;
}

/**
 * A bet's totals moved (docs/groups-and-bets.md §3 wagerPlaced). Members hear only the new totals, not who
 * caused them, gathered over a short window (WAGER_TOTALS_WINDOW_MS), so nobody can read
 * another member's pick off a change (docs/architecture.md §5: this is safer than the spec's
 * payload, which names the wagerer and their points). The wager's owner also gets their own
 * copy at once, with `userId`, `points` and `previousPoints`.
 */
export interface WagerPlacedPayload {
  groupId: number;
  betId: number;
  /** The bet's points per (normalised) answer after the change (live odds). */
  answerTotals: Record<string, number>;
  /** The bet's pool after the change (the sum of answerTotals). */
  pool: number;
  /** How many wagers the bet has after the change. */
  wagerCount: number;
  version: number;
  /** The owner's copy only: who wagered. */
  userId?: number;
  /** The owner's copy only: the wager's points now. */
  points?: number;
  /** The owner's copy only: its points before this change (0 for a new wager). */
  previousPoints?: number;
}

/** The members of a group hear a bet's new totals at most once per this window. */
export const WAGER_TOTALS_WINDOW_MS = 1000;

export interface BetResolvedPayload {
  betId: number;
  groupId: number;
  /** Per wager: total changes by winnings − wagerAmount, available by winnings (docs/architecture.md §5). */
  distributions: Distribution[];
  version: number;
}

interface BetCancelledPayload {
  betId: number;
  groupId: number;
  totalPointsRefunded: number;
  version: number;
}

interface BetExpiredPayload {
  betId: number;
  groupId: number;
  version: number;
}

export interface PointsRefundedPayload {
  betId: number;
  groupId: number;
  totalRefunded: number;
  refundedParticipants: number;
}

/**
 * A member joined, or came back. Sent to the whole group, so it carries what the group may see
 * of the membership (groups.ts membershipAsSeenBy): `availablePoints` equals `totalPoints`, and
 * `version` is the membership's public stamp, the one other members' mirrors hold.
 */
export interface UserJoinedGroupPayload {
  groupId: number;
  userId: number;
  userName: string;
  totalPoints: number;
  availablePoints: number;
  version: number;
}

/**
 * A member left or an admin removed them (`removed`). Sent to the group and to the former
 * member's own sockets (their other devices drop the group), before they stop hearing the group.
 * `version` is the group's: its member lists changed.
 */
export interface UserLeftGroupPayload {
  groupId: number;
  userId: number;
  removed: boolean;
  /** For a removal: the admin who removed them, by id and display name ("Ana removed you from …"). */
  removedBy?: { userId: number; userName: string };
  version: number;
}

/** An admin renamed the group or changed its description; `version` is the group's (the pull brings the row). */
export interface GroupUpdatedPayload {
  groupId: number;
  version: number;
}

interface GroupCreatedPayload {
  groupId: number;
  name: string;
}

/**
 * A comment posted on, or deleted from, a bet: the comment as the REST call
 * answers it (a deleted one is a tombstone: `deletedAt` set, text empty) with its row's version.
 * Sent to the group's room only; it names the author and nothing of their wager.
 */
export type CommentEventPayload = VersionedComment;

/**
 * The write of a device's outbox a change came from: mutation `mutationID` of client `clientID`
 * (the push's numbering, docs/architecture.md §8). Only the author's own sockets hear it, so the
 * device that wrote the change knows its own write without comparing contents.
 */
export interface MutationOrigin {
  clientID: string;
  mutationID: number;
}

/**
 * A comment posted. The author's sockets get the origin too when a push wrote it (absent for
 * other members and for a REST call).
 */
export type CommentPostedPayload = CommentEventPayload & Partial<MutationOrigin>;

/**
 * A resolution was undone (by whoever resolved it, within the undo window). Every
 * distribution it had paid was taken back exactly: total by −(winnings − wagerAmount), available
 * by −winnings. The bet is active again but closed (its picks were shown), waiting for its result.
 */
export interface ResolutionUndonePayload {
  betId: number;
  groupId: number;
  undoneBy: number;
  previousAnswer: string;
  /** The distributions taken back, as they had been paid. */
  distributions: Distribution[];
  /** The bet history line of this step (the inbox writes one entry per line). */
  historyId: number;
  version: number;
}

/** A participant flagged the resolution as wrong: the creator and the group's admins review it. */
export interface ResolutionDisputedPayload {
  betId: number;
  groupId: number;
  disputedBy: number;
  reason: string;
  /** The bet history line of this step (the inbox writes one entry per line). */
  historyId: number;
  version: number;
}

/** An admin dismissed the dispute: the resolution stands, final. */
export interface DisputeDismissedPayload {
  betId: number;
  groupId: number;
  dismissedBy: number;
  /** The bet history line of this step (the inbox writes one entry per line). */
  historyId: number;
  version: number;
}

/** An admin re-resolved a disputed bet: the old payout taken back exactly, the new one paid. */
export interface BetReResolvedPayload {
  betId: number;
  groupId: number;
  reResolvedBy: number;
  previousAnswer: string;
  correctAnswer: string;
  /** The old resolution's distributions, taken back. */
  reversed: Distribution[];
  /** The new resolution's distributions, paid. */
  distributions: Distribution[];
  /** The bet history line of this step (the inbox writes one entry per line). */
  historyId: number;
  version: number;
}

/** Betting closed: every member may now see who picked what. */
export interface PicksRevealedPayload {
  betId: number;
  groupId: number;
  picks: RevealedPick[];
  version: number;
}

/**
 * A move-to-another-device code of the recipient was used: another device is now signed in
 * to their account. To their user room only, so an open "Move to another device" sheet can say so.
 */
export interface DeviceTransferRedeemedPayload {
  redeemedAt: string;
}

/** A season started or ended in the group (its standings and any reset come with the pull). */
export interface SeasonEventPayload {
  groupId: number;
  seasonId: number;
  name: string;
  version: number;
}

/** authError's message when the server closes a socket whose access token expired: the client refreshes and reconnects at once. */
export const TOKEN_EXPIRED_MESSAGE = 'Authentication expired: reconnect with a fresh access token';

/**
 * Sent when the handshake's access token is missing, invalid or expired; the client's message check
 * looks for "Authentication" (docs/groups-and-bets.md §8).
 */
interface AuthErrorPayload {
  message: string;
}

/** Sent once the handshake's token is accepted and the socket has joined its rooms. */
interface ConnectionAuthenticatedPayload {
  userId: number;
  groupIds: number[];
}

/**
 * The live events between the server's instances may have been lost (their bus was interrupted):
 * pull, as after a reconnection. To every socket, with nothing in it.
 */
type SyncNeededPayload = Record<string, never>;

/** Every event the server sends to clients, as socket.io wants it: name → listener. */
export interface ServerToClientEvents {
  betCreated(payload: BetCreatedPayload): void;
  wagerPlaced(payload: WagerPlacedPayload): void;
  betResolved(payload: BetResolvedPayload): void;
  betCancelled(payload: BetCancelledPayload): void;
  betExpired(payload: BetExpiredPayload): void;
  pointsRefunded(payload: PointsRefundedPayload): void;
  userJoinedGroup(payload: UserJoinedGroupPayload): void;
  userLeftGroup(payload: UserLeftGroupPayload): void;
  groupUpdated(payload: GroupUpdatedPayload): void;
  groupCreated(payload: GroupCreatedPayload): void;
  commentPosted(payload: CommentPostedPayload): void;
  commentDeleted(payload: CommentEventPayload): void;
  resolutionUndone(payload: ResolutionUndonePayload): void;
  resolutionDisputed(payload: ResolutionDisputedPayload): void;
  disputeDismissed(payload: DisputeDismissedPayload): void;
  betReResolved(payload: BetReResolvedPayload): void;
  picksRevealed(payload: PicksRevealedPayload): void;
  seasonStarted(payload: SeasonEventPayload): void;
  seasonEnded(payload: SeasonEventPayload): void;
  /** An entry of the recipient's inbox was written (new, or a burst gathered into it); to their user room only. */
  notificationSaved(payload: Notification): void;
  deviceTransferRedeemed(payload: DeviceTransferRedeemedPayload): void;
  authError(payload: AuthErrorPayload): void;
  connectionAuthenticated(payload: ConnectionAuthenticatedPayload): void;
  syncNeeded(payload: SyncNeededPayload): void;
}

/**
 * The client sends nothing over the socket: every change goes through the HTTP API and its
 * outbox (docs/architecture.md §8), so the socket is a one-way feed.
 */
export type ClientToServerEvents = Record<never, never>;

export type RealtimeEventName = keyof ServerToClientEvents;
export type RealtimeEventPayload<E extends RealtimeEventName> = Parameters<
  ServerToClientEvents[E]
>[0];
