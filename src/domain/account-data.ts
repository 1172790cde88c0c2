import type { ApiTokenScope } from './api-tokens';
import type { BetState } from './bets';
import type { BetType } from './bet-types';
import type { LEDGER_KINDS } from './ledger';
import type { NotificationKind, NotificationPayload, PushKind } from './notifications';

// A player's own data: GET /auth/users/me/export answers
// the export document below as a JSON download; DELETE /auth/users/me deletes the account.
// Nothing secret is ever part of the export: no password hash, no token or token hash, no
// push keys (docs/security.md). The wire schemas: schemas/account-data.ts.

/** What a deleted player is called wherever their points, wagers and bets still show. */
export const DELETED_PLAYER_NAME = 'Deleted player';

/** The export's format marker and version, so a reader knows what it holds. */
export const ACCOUNT_EXPORT_FORMAT = 'hunch-account-export';
export const ACCOUNT_EXPORT_VERSION = 1;

/** `hunch-export-<id>-<YYYY-MM-DD>.json`, the date in UTC: the server's download name, the client's too. */
export function accountExportFileName(userId: number, at: Date): string {
  return `hunch-export-${userId}-${at.toISOString().slice(0, 10)}.json`;
}

/**
 * DELETE /auth/users/me. A full account confirms with its current password (403
 * `invalid_current_password` otherwise, as a password change); a guest has none to send, and
 * may send no body at all.
 */
export type DeleteAccountRequest = { currentPassword?: string | undefined } | null | undefined;

export type AccountExport = {
  format: typeof ACCOUNT_EXPORT_FORMAT;
  version: typeof ACCOUNT_EXPORT_VERSION;
  exportedAt: string;
  profile: {
    id: number;
    displayName: string;
    firstName: string;
    lastName: string;
    /** Empty for a guest. */
    email: string;
    username: string;
    isTemporary: boolean;
    appName: string;
    profilePictureUrl: string | null;
    createdAt: string;
    updatedAt: string;
  };
  /** Every group the player is or was in, with their points there now. */
  memberships: {
    groupId: number;
    groupName: string;
    role: 'member' | 'admin';
    isCreator: boolean;
    totalPoints: number;
    availablePoints: number;
    joinedAt: string;
    leftAt: string | null;
  }[];
  wagers: {
    id: number;
    betId: number;
    betTitle: string;
    groupId: number;
    prediction: string;
    points: number;
    createdAt: string;
    updatedAt: string;
  }[];
  /** The comments the player wrote on bets (deleted ones are gone). */
  comments: {
    id: number;
    betId: number;
    betTitle: string;
    groupId: number;
    text: string;
    createdAt: string;
  }[];
  betsCreated: {
    id: number;
    groupId: number;
    title: string;
    description: string | null;
    betType: BetType;
    state: BetState;
    baseWagerAmount: number;
    expiresAt: string;
    correctAnswer: string | null;
    resolvedAt: string | null;
    createdAt: string;
  }[];
  /** Every change of the player's points, oldest first. */
  ledger: {
    id: number;
    groupId: number;
    kind: (typeof LEDGER_KINDS)[number];
    totalDelta: number;
    availableDelta: number;
    betId: number | null;
    wagerId: number | null;
    createdAt: string;
  }[];
  /** The browsers that may receive notifications: the push service's host only, never the endpoint's path or keys. */
  pushSubscriptions: {
    deviceName: string | null;
    userAgent: string | null;
    appName: string;
    endpointHost: string;
    isActive: boolean;
    createdAt: string;
    lastSuccessAt: string | null;
  }[];
  /** Each sign-in (a refresh token family): when it began, when it was last refreshed, whether it is still live. */
  sessions: {
    appName: string;
    createdAt: string;
    lastUsedAt: string;
    expiresAt: string;
    isActive: boolean;
  }[];
  /** The player's personal API tokens, oldest first: never the token nor its hash. */
  apiTokens: {
    name: string;
    scopes: ApiTokenScope[];
    createdAt: string;
    lastUsedAt: string | null;
    expiresAt: string | null;
  }[];
  /** The player's inbox, newest activity first: each entry as it was sent. */
  notifications: {
    id: number;
    kind: NotificationKind;
    groupId: number;
    betId: number | null;
    count: number;
    payload: NotificationPayload;
    createdAt: string;
    updatedAt: string;
    readAt: string | null;
  }[];
  /** Which kinds the player keeps off push, and the groups and bets they muted. */
  notificationSettings: {
    pushOff: PushKind[];
    mutedGroupIds: number[];
    mutedBetIds: number[];
  };
};

// ---- the profile's delete confirmation ----

export const DELETE_ACCOUNT_PASSWORD_REQUIRED =
  'Enter your current password to delete your account.';

export type DeleteAccountForm = { currentPassword: string };
