import { z } from './zod';
import {
  GROUP_LIMITS,
  GROUP_MESSAGES,
  GROUP_PRIVACIES,
  INVITE_CODE_PATTERN,
  MEMBERSHIP_ROLES,
  type CreateGroupInput,
} from '../groups';
import { hasVisibleCharacter, normalizeName, TEXT_MESSAGES } from '../text-rules';
import { idSchema } from './ids';
import { STAKE_MESSAGES } from '../stakes';

// The wire shapes of groups, with the messages users see (rules and types: groups.ts).

// Normalised (NFC, no invisible characters, one space between words): a public group's name is
// unique by what it renders (docs/rules.md "Text").
const groupName = z
  .string({ error: GROUP_MESSAGES.nameRequired })
  .overwrite(normalizeName)
  .min(1, { error: GROUP_MESSAGES.nameRequired, abort: true })
  .min(GROUP_LIMITS.nameMin, GROUP_MESSAGES.nameMin)
  .max(GROUP_LIMITS.nameMax, GROUP_MESSAGES.nameMax)
  .refine(hasVisibleCharacter, TEXT_MESSAGES.groupNameInvisible);

const inviteCode = z
  .string({ error: GROUP_MESSAGES.inviteCodeLength })
  .trim()
  .nullish()
  // Blank means "generate one" (docs/groups-and-bets.md §5).
  .transform((value) => (value ? value : undefined))
  .refine(
    (value) =>
      value === undefined ||
      (value.length >= GROUP_LIMITS.inviteCodeMin && value.length <= GROUP_LIMITS.inviteCodeMax),
    {
      message: GROUP_MESSAGES.inviteCodeLength,
      abort: true,
    },
  )
  .refine(
    (value) => value === undefined || INVITE_CODE_PATTERN.test(value),
    GROUP_MESSAGES.inviteCodeCharacters,
  );

/** Starting points: a whole number from 1 to 1,000,000, default 100 (docs/groups-and-bets.md §5, §9). */
const defaultPointsSchema = z
  .number({ error: GROUP_MESSAGES.pointsRequired })
  .int(GROUP_MESSAGES.pointsWhole)
  .min(GROUP_LIMITS.pointsMin, GROUP_MESSAGES.pointsMin)
  .max(GROUP_LIMITS.pointsMax, GROUP_MESSAGES.pointsMax);

/**
 * A group's stake tiers as sent: three whole numbers. Which sets a group may choose is a rule
 * (stakes.ts stakeTierSet), refused with 422 by the service, so the form and the server say the same.
 */
const stakeTiersSchema = z.array(
  z.number({ error: STAKE_MESSAGES.tiersNotOffered }).int(STAKE_MESSAGES.tiersNotOffered),
  { error: STAKE_MESSAGES.tiersNotOffered },
);

/**
 * POST /groups. An invite code belongs to a private group only: sent with a public group it
 * is dropped (a form keeps the field's value when privacy is switched back), and blank on a
 * private group it is left for the server to generate (`generateInviteCode`).
 */
export const createGroupRequestSchema = z
  .strictObject({
    name: groupName,
    description: z
      .string({ error: GROUP_MESSAGES.descriptionMax })
      .trim()
      .max(GROUP_LIMITS.descriptionMax, GROUP_MESSAGES.descriptionMax)
      .nullish()
      .transform((value) => (value ? value : undefined)),
    privacy: z.enum(GROUP_PRIVACIES, { error: GROUP_MESSAGES.privacyRequired }).default('public'),
    inviteCode,
    defaultPoints: defaultPointsSchema.default(GROUP_LIMITS.defaultPoints),
    stakeTiers: stakeTiersSchema.optional(),
  })
  .transform(({ inviteCode: code, ...rest }): CreateGroupInput =>
    rest.privacy === 'private' && code !== undefined ? { ...rest, inviteCode: code } : rest,
  );

/** POST /groups/join-public: the group is chosen by its name (docs/groups-and-bets.md §4). */
export const joinPublicRequestSchema = z.strictObject({
  groupName: z
    .string({ error: GROUP_MESSAGES.publicGroupRequired })
    .overwrite(normalizeName)
    .min(1, GROUP_MESSAGES.publicGroupRequired)
    .max(GROUP_LIMITS.nameMax, GROUP_MESSAGES.publicGroupRequired),
});

/** POST /groups/join-private: group id and invite code, both required (docs/groups-and-bets.md §5); an id from a link is a string. */
export const joinPrivateRequestSchema = z.strictObject({
  groupId: idSchema(GROUP_MESSAGES.groupIdRequired),
  inviteCode: z
    .string({ error: GROUP_MESSAGES.inviteCodeRequired })
    .trim()
    .min(1, GROUP_MESSAGES.inviteCodeRequired)
    .max(GROUP_LIMITS.inviteCodeMax, GROUP_MESSAGES.inviteCodeLength),
});

/**
 * POST /api/invites/preview, signed out: the id and code of an invite link. It answers who
 * invited the visitor to which group, and only when the code is right.
 */
export const invitePreviewRequestSchema = joinPrivateRequestSchema;

/** What an invite link may tell a visitor before they have an account: two names, nothing more. */
export const invitePreviewSchema = z.object({
  groupName: z.string(),
  inviterName: z.string(),
});

/** POST /groups/{id}/members and POST /groups/{id}/admins. */
export const groupMemberRequestSchema = z.strictObject({
  userId: idSchema(GROUP_MESSAGES.userRequired),
});
export const groupAdminRequestSchema = groupMemberRequestSchema;

/** Route params `{id}` and `{id}/…/{userId}` of the group calls. */
export const groupIdParamsSchema = z.object({ id: idSchema(GROUP_MESSAGES.groupIdRequired) });
export const groupUserParamsSchema = z.object({
  id: idSchema(GROUP_MESSAGES.groupIdRequired),
  userId: idSchema(GROUP_MESSAGES.userRequired),
});

/** GET /groups?membership=mine&managed_by=mine&privacy= (unknown query keys are ignored). */
/** GET /groups answers a page of at most this many groups (the public list reached megabytes). */
const GROUP_LIST_PAGE_MAX = 100;

export const listGroupsQuerySchema = z.object({
  membership: z.literal('mine').optional(),
  managed_by: z.literal('mine').optional(),
  privacy: z.enum(GROUP_PRIVACIES).optional(),
  /** Page size, 1–100 (default 100); the next page starts at the `X-Next-Offset` answer header. */
  limit: z.coerce.number().int().min(1).max(GROUP_LIST_PAGE_MAX).default(GROUP_LIST_PAGE_MAX),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

/** GET /groups/public?search= */
export const publicGroupsQuerySchema = z.object({
  search: z.string().overwrite(normalizeName).max(GROUP_LIMITS.searchMax).optional(),
});

/** GET /groups/{id}/membership?user= */
export const membershipQuerySchema = z.object({
  user: idSchema(GROUP_MESSAGES.userRequired).optional(),
});

// ---- responses (docs/groups-and-bets.md §3) ----

/**
 * A group. `inviteCode` is present only for members of a private group (docs/groups-and-bets.md §3: "private
 * only, optional"); admins count as members (docs/groups-and-bets.md §6), and both lists hold user ids.
 */
export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  privacy: z.enum(GROUP_PRIVACIES),
  inviteCode: z.string().optional(),
  defaultPoints: z.number().int(),
  /** For its members: the weekly floor top-up is on (admins switch it in the group's settings). */
  floorTopUp: z.boolean().optional(),
  /** The base amounts of its bets, $ / $$ / $$$ (stakes.ts); 1, 2, 3 unless an admin chose larger. */
  stakeTiers: z.array(z.number().int()),
  createdByUserId: z.number().int(),
  admins: z.array(z.number().int()),
  memberUserIds: z.array(z.number().int()),
  /** For its admins: the players an admin removed, whom they may add back. */
  removedMembers: z.array(z.object({ userId: z.number().int(), userName: z.string() })).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A group's settings an admin may change (the weekly floor top-up, on by default). */
export const groupSettingsSchema = z.object({
  floorTopUp: z.boolean(),
});

/** POST /groups/{id}/invite-code: an admin's new invite code for a private group (the old one stops working). */
export const inviteCodeResponseSchema = z.object({ inviteCode: z.string() });

/**
 * PATCH /groups/{id}: an admin renames the group or changes its description (the name's rules
 * are the create form's; a public group's name stays unique without case). Only the fields
 * sent change; a blank description clears it.
 */
export const updateGroupRequestSchema = z
  .strictObject({
    name: groupName.optional(),
    description: z
      .string({ error: GROUP_MESSAGES.descriptionMax })
      .trim()
      .max(GROUP_LIMITS.descriptionMax, GROUP_MESSAGES.descriptionMax)
      .nullable()
      .optional()
      .transform((value) => (value === undefined ? undefined : value ? value : null)),
    stakeTiers: stakeTiersSchema.optional(),
  })
  .refine(
    (input) =>
      input.name !== undefined || input.description !== undefined || input.stakeTiers !== undefined,
    {
      error: GROUP_MESSAGES.nothingToChange,
    },
  );

/** Changing settings: only the fields sent change. */
export const updateGroupSettingsRequestSchema = groupSettingsSchema.partial().strict();

/** A public group in search results and the join typeahead. */
export const publicGroupSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  memberCount: z.number().int(),
});

/** A user's points in a group; `availablePoints <= totalPoints`, available below zero only while a re-resolution's debt is unpaid. */
export const membershipSchema = z.object({
  groupId: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  totalPoints: z.number().int(),
  availablePoints: z.number().int(),
  role: z.enum(MEMBERSHIP_ROLES).optional(),
});

const leaderboardEntrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  points: z.number().int(),
});

/** GET /groups/{id}/leaderboard */
export const leaderboardResponseSchema = z.object({ users: z.array(leaderboardEntrySchema) });
