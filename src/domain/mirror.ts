import { z } from './zod';
import { answerTotalsSchema, betSchema, betStatisticsSchema, wagerSchema } from './bets';
import { versionedCommentSchema } from './comments';
import { versionedBetHistoryEntrySchema } from './fair-resolution';
import { groupSchema, membershipSchema } from './groups';
import { versionedSeasonSchema } from './seasons';
import { notificationSchema, notificationSettingsSchema } from './notifications';

// The local mirror's pull (ARCHITECTURE.md §8): GET /member/state?cursor=… answers what changed
// in the caller's view since the cursor, and the cursor to send next time. Without `cursor` the
// route keeps the spec's fields (member-state.ts); `cursor=0` starts a mirror from nothing.
//
// Every row carries `version`: one database sequence stamps each insert and update, and a row's
// writers are serialised by its row lock, so a row's version only grows. A socket event carries
// the version of the row it describes; the client keeps whichever copy is newer. The cursor is
// opaque to the client (the server's snapshot and the groups already sent).

// The client's sync engine takes these from mirror-marks.ts, so the response schemas below stay
// off the dashboard's first load.
export { MIRROR_START_CURSOR, MIRROR_SYNCED_MARK } from './mirror-marks';

/** A pull answers at most about this many rows; a first sync of a large player takes several pages. */
export const MIRROR_PAGE_ROWS = 1000;

export const mirrorQuerySchema = z.object({ cursor: z.string().min(1).max(4096).optional() });

/**
 * Every member of the group, with their points and role: the leaderboard and the members list
 * are queries over these. The player's own row is whole; another member's shows total points
 * only (available equals total) and its `version` is the row's public stamp, which a wager does
 * not move (groups.ts membershipAsSeenBy).
 */
const mirrorMembershipSchema = membershipSchema.extend({ version: z.number().int() });
export type MirrorMembership = z.infer<typeof mirrorMembershipSchema>;

/** The group as GET /groups/{id} shows it to a member, plus its version. */
const mirrorGroupSchema = groupSchema.extend({ version: z.number().int() });
export type MirrorGroup = z.infer<typeof mirrorGroupSchema>;

/** A bet in any state with its live answer totals and wager count. */
const mirrorBetSchema = betSchema.extend({
  answerTotals: answerTotalsSchema,
  wagerCount: z.number().int(),
  version: z.number().int(),
});
export type MirrorBet = z.infer<typeof mirrorBetSchema>;

/** The caller's own wager. */
const mirrorWagerSchema = wagerSchema.extend({ version: z.number().int() });
export type MirrorWager = z.infer<typeof mirrorWagerSchema>;

/** A resolved bet's statistics as the caller sees them (GET /bets/{id}/statistics), sent whenever the bet changes. */
const mirrorStatisticsSchema = z.object({
  betId: z.number().int(),
  version: z.number().int(),
  statistics: betStatisticsSchema,
});
export type MirrorStatistics = z.infer<typeof mirrorStatisticsSchema>;

export const mirrorPullResponseSchema = z.object({
  /** Send this next time. */
  cursor: z.string(),
  /** The answer starts from nothing (no or unusable cursor): rows of the player's groups it does not list are gone. */
  reset: z.boolean(),
  /** Another page follows: pull again with the new cursor at once. */
  hasMore: z.boolean(),
  groups: z.array(mirrorGroupSchema),
  memberships: z.array(mirrorMembershipSchema),
  bets: z.array(mirrorBetSchema),
  wagers: z.array(mirrorWagerSchema),
  statistics: z.array(mirrorStatisticsSchema),
  /** Comments on the groups' bets: live ones of a group sent whole; changed ones, tombstones included (`deletedAt` set), of a held group. */
  comments: z.array(versionedCommentSchema),
  /** Each bet's history: a group's whole when sent whole, new lines of a held group. */
  betHistory: z.array(versionedBetHistoryEntrySchema),
  /** The groups' seasons, each with its final standings once ended: a group's all when sent whole, changed ones of a held group. */
  seasons: z.array(versionedSeasonSchema),
  /** The player's inbox entries: the last 30 days' on a sync from nothing, else those changed (read, gathered, new). */
  notifications: z.array(notificationSchema),
  /** The player's push choices and mutes: on a sync from nothing, and whenever they changed; null otherwise (none made yet: the defaults). */
  notificationSettings: notificationSettingsSchema.nullable(),
  /** Groups that left the player's view (left, removed): drop them with everything in them. */
  removedGroupIds: z.array(z.number().int()),
  /** Other members who left or were removed from a group still in view. */
  removedMemberships: z.array(z.object({ groupId: z.number().int(), userId: z.number().int() })),
});
export type MirrorPullResponse = z.infer<typeof mirrorPullResponseSchema>;
