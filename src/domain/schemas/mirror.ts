import { z } from './zod';
import { answerTotalsSchema, betSchema, betStatisticsSchema, wagerSchema } from './bets';
import { versionedCommentSchema } from './comments';
import { versionedBetHistoryEntrySchema } from './fair-resolution';
import { groupSchema, membershipSchema } from './groups';
import { versionedSeasonSchema } from './seasons';
import { notificationSchema, notificationSettingsSchema } from './notifications';
import { clientIdSchema, syncPullPartSchema } from './sync';

// The local mirror's pull on the wire (its types and why every row carries a version: mirror.ts).

export const mirrorQuerySchema = z.object({
  cursor: z.string().min(1).max(4096).optional(),
  /** The device's client group (src/domain/schemas/sync.ts): the pull then reports its writes. */
  clientGroupID: clientIdSchema.optional(),
});

const mirrorMembershipSchema = membershipSchema.extend({ version: z.number().int() });

/** The group as GET /groups/{id} shows it to a member, plus its version. */
const mirrorGroupSchema = groupSchema.extend({ version: z.number().int() });

/** A bet in any state with its live answer totals and wager count. */
const mirrorBetSchema = betSchema.extend({
  answerTotals: answerTotalsSchema,
  wagerCount: z.number().int(),
  version: z.number().int(),
});

/** The caller's own wager. */
const mirrorWagerSchema = wagerSchema.extend({ version: z.number().int() });

/** A resolved bet's statistics as the caller sees them (GET /bets/{id}/statistics), sent whenever the bet changes. */
const mirrorStatisticsSchema = z.object({
  betId: z.number().int(),
  version: z.number().int(),
  statistics: betStatisticsSchema,
});

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
  /** With `clientGroupID`: each of the device's clients' last write applied, and outcomes not seen yet. */
  ...syncPullPartSchema.partial().shape,
});
