import { z } from './zod';
import { answerTotalsSchema, betSchema, betStatisticsSchema, wagerSchema } from './bets';
import { groupSchema, membershipSchema } from './groups';
import { clientIdSchema, syncPullPartSchema } from './sync';

// The local mirror's pull on the wire (its types and why every row carries a version: mirror.ts):
// the envelope every answer carries, and the schemas of the rows that have none of their own
// elsewhere. Which rows an answer carries, one field per synced table, is the server's list of
// readers (src/server/mirror/synced-tables.ts).

export const mirrorQuerySchema = z.object({
  cursor: z.string().min(1).max(4096).optional(),
  /** The device's client group (src/domain/schemas/sync.ts): the pull then reports its writes. */
  clientGroupID: clientIdSchema.optional(),
});

export const mirrorMembershipSchema = membershipSchema.extend({ version: z.number().int() });

/** The group as GET /groups/{id} shows it to a member, plus its version. */
export const mirrorGroupSchema = groupSchema.extend({ version: z.number().int() });

/** A bet in any state with its live answer totals and wager count. */
export const mirrorBetSchema = betSchema.extend({
  answerTotals: answerTotalsSchema,
  wagerCount: z.number().int(),
  version: z.number().int(),
});

/** The caller's own wager. */
export const mirrorWagerSchema = wagerSchema.extend({ version: z.number().int() });

/** A resolved bet's statistics as the caller sees them (GET /bets/{id}/statistics), sent whenever the bet changes. */
export const mirrorStatisticsSchema = z.object({
  betId: z.number().int(),
  version: z.number().int(),
  statistics: betStatisticsSchema,
});

/** Another member who left or was removed from a group still in view. */
export const removedMembershipSchema = z.object({
  groupId: z.number().int(),
  userId: z.number().int(),
});

export const mirrorEnvelopeSchema = z.object({
  /** Send this next time. */
  cursor: z.string(),
  /** The answer starts from nothing (no or unusable cursor): rows of the player's groups it does not list are gone. */
  reset: z.boolean(),
  /** Another page follows: pull again with the new cursor at once. */
  hasMore: z.boolean(),
  /** Groups that left the player's view (left, removed): drop them with everything in them. */
  removedGroupIds: z.array(z.number().int()),
  /** With `clientGroupID`: each of the device's clients' last write applied, and outcomes not seen yet. */
  ...syncPullPartSchema.partial().shape,
});
