import { MAX_ID } from './ids';
import { normalizeName } from './text-rules';

// Groups: their types and messages (the wire schemas: schemas/groups.ts), and the pure group
// rules (share link of docs/groups-and-bets.md §2, invite codes, the role
// checks of docs/groups-and-bets.md §6, the leaderboard order of docs/groups-and-bets.md §2).

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

export const GROUP_PRIVACIES = ['public', 'private'] as const;
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
  nothingToChange: 'Send a new name, description or stake tiers.',
} as const;

/** The characters of an invite code: URL-safe, so a code survives a share link unescaped. */
export const INVITE_CODE_PATTERN = /^[A-Za-z0-9_-]+$/;

// ---- request/** POST /groups, as a form sends it. */
export type CreateGroupRequest = {
  name: string;
  description?: string | null | undefined;
  privacy?: GroupPrivacy | undefined;
  inviteCode?: string | null | undefined;
  defaultPoints?: number | undefined;
  /** One of the tier sets of stakes.ts; 1, 2, 3 when left out. */
  stakeTiers?: number[] | undefined;
};
/** A validated group request: `inviteCode` only on a private group that chose one. */
export type CreateGroupInput = {
  name: string;
  description?: string | undefined;
  privacy: GroupPrivacy;
  inviteCode?: string;
  defaultPoints: number;
  stakeTiers?: number[] | undefined;
};

/** What an invite link may tell a visitor before they have an account: two names, nothing more. */
export type InvitePreview = { groupName: string; inviterName: string };

/**
 * A group. `inviteCode` is present only for members of a private group (docs/groups-and-bets.md §3: "private
 * only, optional"); admins count as members (docs/groups-and-bets.md §6), and both lists hold user ids.
 */
export type Group = {
  id: number;
  name: string;
  description: string | null;
  privacy: GroupPrivacy;
  inviteCode?: string | undefined;
  defaultPoints: number;
  /** For its members: the weekly floor top-up is on (admins switch it in the group's settings). */
  floorTopUp?: boolean | undefined;
  /** The base amounts of its bets, $ / $$ / $$$ (stakes.ts). */
  stakeTiers: number[];
  createdByUserId: number;
  admins: number[];
  memberUserIds: number[];
  /**
   * For its admins: the players an admin removed (or barred after they left) whose accounts
   * still exist, by name; an admin may add each back. Absent for everyone else.
   */
  removedMembers?: RemovedMember[] | undefined;
  createdAt: string;
  updatedAt: string;
};

/** A player an admin removed from a group, as its admins see them ("Add back"). */
export type RemovedMember = { userId: number; userName: string };

/** A group's settings an admin may change (the weekly floor top-up, on by default). */
export type GroupSettings = { floorTopUp: boolean };

/** POST /groups/{id}/invite-code: an admin's new invite code for a private group (the old one stops working). */
export type InviteCodeResponse = { inviteCode: string };

/** PATCH /groups/{id}, as a form sends it: only the fields sent change; a blank description clears it. */
export type UpdateGroupRequest = {
  name?: string | undefined;
  description?: string | null | undefined;
  /** An admin's choice of stake tiers (stakes.ts STAKE_TIER_SETS). */
  stakeTiers?: number[] | undefined;
};
/** A validated PATCH /groups/{id}: a new name, a new description (null: none), or both. */
export type UpdateGroupInput = {
  name?: string | undefined;
  description?: string | null | undefined;
  stakeTiers?: number[] | undefined;
};

/** Changing settings: only the fields sent change. */
export type UpdateGroupSettingsInput = Partial<GroupSettings>;

/** A public group in search results and the join typeahead. */
export type PublicGroupSummary = {
  id: number;
  name: string;
  description: string | null;
  memberCount: number;
};

/** A membership's role, as the server stores it; the group's creator is an admin (`createdByUserId` says who created it). */
export const MEMBERSHIP_ROLES = ['member', 'admin'] as const;

/** A user's points in a group; `availablePoints <= totalPoints`, available below zero only while a re-resolution's debt is unpaid. */
export type Membership = {
  groupId: number;
  userId: number;
  userName: string;
  totalPoints: number;
  availablePoints: number;
  role?: (typeof MEMBERSHIP_ROLES)[number] | undefined;
};

export type LeaderboardEntry = { id: number; name: string; points: number };

/** GET /groups/{id}/leaderboard */
export type LeaderboardResponse = { users: LeaderboardEntry[] };

// ---- rules ----

/** docs/groups-and-bets.md §6: the creator, admin and member checks derive from the group; admins count as members. */
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
 * The share link of docs/groups-and-bets.md §2: {origin}/group/{id}, plus ?inviteCode={code} for a private
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

/** The group selector's search (docs/groups-and-bets.md §2, §5): a case-insensitive substring of the name, the query normalised as names are (text-rules.ts); a blank query matches all. */
export function searchGroupsByName<T extends { name: string }>(
  groups: readonly T[],
  query: string,
): T[] {
  const needle = normalizeName(query).toLowerCase();
  return needle === ''
    ? [...groups]
    : groups.filter((group) => group.name.toLowerCase().includes(needle));
}

/** The leaderboard order (docs/groups-and-bets.md §2): points descending, ties by user id so the order is stable; ranks 1..n. */
export function rankLeaderboard<T extends LeaderboardEntry>(
  users: readonly T[],
): Array<T & { rank: number }> {
  return [...users]
    .sort((a, b) => b.points - a.points || a.id - b.id)
    .map((user, index) => ({ ...user, rank: index + 1 }));
}

/** What a player hears (the toast, the inbox) when an admin removed them: "Ana removed you from Los Galácticos". */
export function removedYouText(adminName: string, groupName: string): string {
  return `${adminName} removed you from ${groupName}`;
}

/**
 * What a player an admin removed reads when they try to join again: who can add them back (the
 * group's admins by name, "Ask Ana or Ben to add you back.").
 */
export function removedFromGroupText(adminNames: readonly string[]): string {
  const names =
    adminNames.length === 0
      ? 'an admin'
      : adminNames.length === 1
        ? adminNames[0]!
        : `${adminNames.slice(0, -1).join(', ')} or ${adminNames.at(-1)!}`;
  return `An admin removed you from this group. Ask ${names} to add you back.`;
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
