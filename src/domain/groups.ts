import { z } from './zod';
import { idSchema, MAX_ID } from './ids';

// Groups: the request and response schemas of spec 02 §7 (Groups) with the messages of
// spec 02 §5, and the pure group rules (share link of spec 02 §2, invite codes, the role
// checks of spec 02 §6, the leaderboard order of spec 02 §2).

export const GROUP_LIMITS = {
  nameMin: 3,
  nameMax: 100,
  descriptionMax: 500,
  inviteCodeMin: 6,
  inviteCodeMax: 20,
  /** Length of a generated invite code: 64^10 ≈ 10^18 codes, never guessed. */
  generatedInviteCodeLength: 10,
  defaultPoints: 100,
  pointsMin: 1,
  /** Our cap: keeps every pool far below 2^31 and the payout products exact (src/domain/payout.ts). */
  pointsMax: 1_000_000,
  searchMax: 100,
} as const;

const GROUP_PRIVACIES = ['public', 'private'] as const;
export type GroupPrivacy = (typeof GROUP_PRIVACIES)[number];

export const GROUP_MESSAGES = {
  nameRequired: 'Group name is required',
  nameMin: 'Group name must be at least 3 characters',
  nameMax: 'Group name must not exceed 100 characters',
  descriptionMax: 'Description must not exceed 500 characters',
  privacyRequired: 'Privacy setting is required',
  inviteCodeLength: 'Invite code must be 6-20 characters',
  inviteCodeCharacters: 'Invite code may only contain letters, numbers, - and _',
  pointsRequired: 'Starting points is required',
  pointsMin: 'Points must be at least 1',
  pointsWhole: 'Points must be a whole number',
  pointsMax: 'Points must not exceed 1,000,000',
  publicGroupRequired: 'Please select a public group.',
  groupIdRequired: 'Group ID is required',
  inviteCodeRequired: 'Invite code is required',
  userRequired: 'User is required',
} as const;

/** The characters of an invite code: URL-safe, so a code survives a share link unescaped. */
export const INVITE_CODE_PATTERN = /^[A-Za-z0-9_-]+$/;

// ---- requests ----

const groupName = z
  .string({ error: GROUP_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: GROUP_MESSAGES.nameRequired, abort: true })
  .min(GROUP_LIMITS.nameMin, GROUP_MESSAGES.nameMin)
  .max(GROUP_LIMITS.nameMax, GROUP_MESSAGES.nameMax);

const inviteCode = z
  .string({ error: GROUP_MESSAGES.inviteCodeLength })
  .trim()
  .nullish()
  // Blank means "generate one" (spec 02 §5).
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

/** Starting points: a whole number from 1 to 1,000,000, default 100 (spec 02 §5, §9). */
const defaultPointsSchema = z
  .number({ error: GROUP_MESSAGES.pointsRequired })
  .int(GROUP_MESSAGES.pointsWhole)
  .min(GROUP_LIMITS.pointsMin, GROUP_MESSAGES.pointsMin)
  .max(GROUP_LIMITS.pointsMax, GROUP_MESSAGES.pointsMax);

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
  })
  .transform(({ inviteCode: code, ...rest }): CreateGroupInput =>
    rest.privacy === 'private' && code !== undefined ? { ...rest, inviteCode: code } : rest,
  );
export type CreateGroupRequest = z.input<typeof createGroupRequestSchema>;
/** A validated group request: `inviteCode` only on a private group that chose one. */
export type CreateGroupInput = {
  name: string;
  description?: string | undefined;
  privacy: GroupPrivacy;
  inviteCode?: string;
  defaultPoints: number;
};

/** POST /groups/join-public: the group is chosen by its name (spec 02 §4). */
export const joinPublicRequestSchema = z.strictObject({
  groupName: z
    .string({ error: GROUP_MESSAGES.publicGroupRequired })
    .trim()
    .min(1, GROUP_MESSAGES.publicGroupRequired)
    .max(GROUP_LIMITS.nameMax, GROUP_MESSAGES.publicGroupRequired),
});

/** POST /groups/join-private: group id and invite code, both required (spec 02 §5); an id from a link is a string. */
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
export type InvitePreview = z.infer<typeof invitePreviewSchema>;

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
  search: z.string().trim().max(GROUP_LIMITS.searchMax).optional(),
});

/** GET /groups/{id}/membership?user= */
export const membershipQuerySchema = z.object({
  user: idSchema(GROUP_MESSAGES.userRequired).optional(),
});

// ---- responses (spec 02 §3) ----

/**
 * A group. `inviteCode` is present only for members of a private group (spec 02 §3: "private
 * only, optional"); admins count as members (spec 02 §6), and both lists hold user ids.
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
  createdByUserId: z.number().int(),
  admins: z.array(z.number().int()),
  memberUserIds: z.array(z.number().int()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

/** A group's settings an admin may change (the weekly floor top-up, on by default). */
export const groupSettingsSchema = z.object({
  floorTopUp: z.boolean(),
});
export type GroupSettings = z.infer<typeof groupSettingsSchema>;

/** POST /groups/{id}/invite-code: an admin's new invite code for a private group (the old one stops working). */
export const inviteCodeResponseSchema = z.object({ inviteCode: z.string() });
export type InviteCodeResponse = z.infer<typeof inviteCodeResponseSchema>;

/** Changing settings: only the fields sent change. */
export const updateGroupSettingsRequestSchema = groupSettingsSchema.partial().strict();
export type UpdateGroupSettingsInput = z.infer<typeof updateGroupSettingsRequestSchema>;

/** A public group in search results and the join typeahead. */
export const publicGroupSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  memberCount: z.number().int(),
});
export type PublicGroupSummary = z.infer<typeof publicGroupSummarySchema>;

const MEMBERSHIP_ROLES = ['member', 'admin', 'creator'] as const;

/** A user's points in a group; `availablePoints <= totalPoints`, available below zero only while a re-resolution's debt is unpaid. */
export const membershipSchema = z.object({
  groupId: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  totalPoints: z.number().int(),
  availablePoints: z.number().int(),
  role: z.enum(MEMBERSHIP_ROLES).optional(),
});
export type Membership = z.infer<typeof membershipSchema>;

const leaderboardEntrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  points: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

/** GET /groups/{id}/leaderboard */
export const leaderboardResponseSchema = z.object({ users: z.array(leaderboardEntrySchema) });
export type LeaderboardResponse = z.infer<typeof leaderboardResponseSchema>;

// ---- rules ----

/** Spec 02 §6: the creator, admin and member checks derive from the group; admins count as members. */
export function isGroupCreator(group: Pick<Group, 'createdByUserId'>, userId: number): boolean {
  return group.createdByUserId === userId;
}

export function isGroupAdmin(group: Pick<Group, 'admins'>, userId: number): boolean {
  return group.admins.includes(userId);
}

export function isGroupMember(
  group: Pick<Group, 'admins' | 'memberUserIds'>,
  userId: number,
): boolean {
  return group.memberUserIds.includes(userId) || group.admins.includes(userId);
}

/**
 * What `viewerId` sees of a membership: their own as it is; anyone else's (and any announcement
 * to the whole group: `viewerId` null) with available points equal to total points. Available
 * points drop by a wager the moment it is placed, so reading them next to a bet's moving totals
 * would tell who picked what while betting is open; total points move only when bets settle.
 */
export function membershipAsSeenBy<
  T extends { userId: number; totalPoints: number; availablePoints: number },
>(membership: T, viewerId: number | null): T {
  return membership.userId === viewerId
    ? membership
    : { ...membership, availablePoints: membership.totalPoints };
}

/**
 * The share link of spec 02 §2: {origin}/group/{id}, plus ?inviteCode={code} for a private
 * group whose code the viewer knows. A trailing slash on the origin is ignored.
 */
export function shareLink(
  origin: string,
  group: Pick<Group, 'id' | 'privacy'> & { inviteCode?: string | null | undefined },
): string {
  const base = `${origin.replace(/\/+$/, '')}/group/${group.id}`;
  return group.privacy === 'private' && group.inviteCode
    ? `${base}?inviteCode=${encodeURIComponent(group.inviteCode)}`
    : base;
}

/**
 * An invite code as it is compared: without case and surrounding blanks, so a code read aloud
 * or typed on a phone's keyboard in the wrong case still lets the friend in. Both sides of the
 * comparison go through it.
 */
export function normalizeInviteCode(code: string): string {
  return code.trim().toLowerCase();
}

/** A group id and, when the link has one, its invite code. */
export interface InviteLinkParts {
  groupId: number;
  inviteCode?: string;
}

const INVITE_PATH = /^\/group\/(\d{1,15})(?:\/invite)?\/?$/;

/**
 * The group id and invite code of a share link (`shareLink`), pasted whole or as its path
 * (`/group/7?inviteCode=…`, `/group/7/invite?inviteCode=…`), from any origin; null for
 * anything else. Whether the code is right is the server's to say.
 */
export function parseInviteLink(text: string): InviteLinkParts | null {
  const trimmed = text.trim();
  if (!trimmed.includes('/group/')) return null;
  let url: URL;
  try {
    url = new URL(trimmed, 'http://invite.invalid');
  } catch {
    return null;
  }
  const match = INVITE_PATH.exec(url.pathname);
  const groupId = Number(match?.[1]);
  if (!match || groupId <= 0 || groupId > MAX_ID) return null;
  const inviteCode = url.searchParams.get('inviteCode')?.trim();
  return inviteCode ? { groupId, inviteCode } : { groupId };
}

const INVITE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A fresh invite code of 10 URL-safe characters. The random bytes come in as a function
 * (node's `randomBytes`, or `crypto.getRandomValues` in a browser) so this stays pure; 64
 * divides 256, so each byte picks a character without bias.
 */
export function generateInviteCode(randomBytes: (length: number) => Uint8Array): string {
  const bytes = randomBytes(GROUP_LIMITS.generatedInviteCodeLength);
  if (bytes.length < GROUP_LIMITS.generatedInviteCodeLength)
    throw new Error('randomBytes returned too few bytes');
  let code = '';
  for (let index = 0; index < GROUP_LIMITS.generatedInviteCodeLength; index += 1) {
    code += INVITE_ALPHABET[(bytes[index] ?? 0) & 63];
  }
  return code;
}

/** The group selector's search (spec 02 §2, §5): a case-insensitive substring of the name; a blank query matches all. */
export function searchGroupsByName<T extends { name: string }>(
  groups: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLowerCase();
  return needle === ''
    ? [...groups]
    : groups.filter((group) => group.name.toLowerCase().includes(needle));
}

/** The leaderboard order (spec 02 §2): points descending, ties by user id so the order is stable; ranks 1..n. */
export function rankLeaderboard<T extends LeaderboardEntry>(
  users: readonly T[],
): Array<T & { rank: number }> {
  return [...users]
    .sort((a, b) => b.points - a.points || a.id - b.id)
    .map((user, index) => ({ ...user, rank: index + 1 }));
}

/**
 * Whether a user is kept out of a group: an admin removed them (rather than them leaving), and
 * no admin has added them back. Such a user may not join again by themself (by name, link or
 * invite code), whatever code they know; an admin adding them back lifts it.
 */
export function isKeptOutOfGroup(
  membership: { leftAt: unknown; removedAt: unknown } | undefined,
): boolean {
  return Boolean(membership && membership.leftAt !== null && membership.removedAt !== null);
}
