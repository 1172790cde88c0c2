import type { Bet, BetStatistics, Wager } from './bets';
import type { Group, Membership } from './groups';

// The local mirror's pull (docs/architecture.md §8): GET /member/state?cursor=… answers what changed
// in the caller's view since the cursor, and the cursor to send next time. Without `cursor` the
// route keeps the spec's fields (member-state.ts); `cursor=0` starts a mirror from nothing.
//
// Every row carries `version`: one database sequence stamps each insert and update, and a row's
// writers are serialised by its row lock, so a row's version only grows. A socket event carries
// the version of the row it describes; the client keeps whichever copy is newer. The cursor is
// opaque to the client (the server's snapshot and the groups already sent). The wire schemas of
// the envelope and of the rows that have no schema of their own: schemas/mirror.ts.

// The client's sync engine takes these from mirror-marks.ts, so the response schemas below stay
// off the dashboard's first load.
export { MIRROR_START_CURSOR, MIRROR_SYNCED_MARK } from './mirror-marks';

/** A pull answers at most about this many rows; a first sync of a large player takes several pages. */
export const MIRROR_PAGE_ROWS = 1000;

/**
 * Every member of the group, with their points and role: the leaderboard and the members list
 * are queries over these. The player's own row is whole; another member's shows total points
 * only (available equals total) and its `version` is the row's public stamp, which a wager does
 * not move (groups.ts membershipAsSeenBy).
 */
export interface MirrorMembership extends Membership {
  version: number;
}

/** The group as GET /groups/{id} shows it to a member, plus its version. */
export interface MirrorGroup extends Group {
  version: number;
}

/** A bet in any state with its live answer totals and wager count. */
export interface MirrorBet extends Bet {
  answerTotals: Record<string, number>;
  wagerCount: number;
  version: number;
}

/** The caller's own wager. */
export interface MirrorWager extends Wager {
  version: number;
}

/** A resolved bet's statistics as the caller sees them (GET /bets/{id}/statistics), sent whenever the bet changes. */
export type MirrorStatistics = { betId: number; version: number; statistics: BetStatistics };

/**
 * What every pull's answer carries besides rows. The rows are one field per synced table (or
 * two, its rows and those gone): each side declares them once, the server with its reader
 * (src/server/mirror/synced-tables.ts), a device with its table (src/client/data/synced-tables.ts).
 */
export type MirrorEnvelope = {
  /** Send this next time. */
  cursor: string;
  /** The answer starts from nothing (no or unusable cursor): rows of the player's groups it does not list are gone. */
  reset: boolean;
  /** Another page follows: pull again with the new cursor at once. */
  hasMore: boolean;
  /** Groups that left the player's view (left, removed): drop them with everything in them. */
  removedGroupIds: number[];
  /** With `clientGroupID` (docs/architecture.md §8): each client's last write applied, by client id. */
  lastMutationIDChanges?: Record<string, number>;
  /** With `clientGroupID`: writes refused, or that created a row, not reported before. */
  mutationOutcomes?: MutationOutcome[];
};

/** Other members who left or were removed from a group still in view, by their membership's key. */
export interface RemovedMembership {
  groupId: number;
  userId: number;
}

/** What became of one pushed write besides being applied: refused (why), or the row it made. */
export interface MutationOutcome {
  clientID: string;
  id: number;
  createdId: number | null;
  error: {
    code: string;
    message: string;
    status: number;
    fieldErrors?: Record<string, string>;
  } | null;
}
