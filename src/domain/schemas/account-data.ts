import { z } from './zod';
import { LIMITS } from '../constants';
import {
  ACCOUNT_EXPORT_FORMAT,
  ACCOUNT_EXPORT_VERSION,
  DELETE_ACCOUNT_PASSWORD_REQUIRED,
} from '../account-data';
import { API_TOKEN_SCOPES } from '../api-tokens';
import { BET_TYPES } from '../bet-types';
import { BET_STATES } from '../bets';
import { LEDGER_KINDS } from '../ledger';
import { NOTIFICATION_KINDS, PUSH_KINDS } from '../notifications';
import { notificationPayloadSchema } from './notifications';

// A player's own data on the wire: the export document and the delete request (types and
// rules: account-data.ts).

/**
 * DELETE /auth/users/me. A full account confirms with its current password (403
 * `invalid_current_password` otherwise, as a password change); a guest has none to send.
 */
export const deleteAccountRequestSchema = z
  .object({
    currentPassword: z
      .string()
      .max(LIMITS.passwordMax * 4)
      .optional(),
  })
  // A guest's request may come without a body at all.
  .nullish()
  .transform((value) => value ?? {});

const isoTime = z.string();

export const accountExportSchema = z.object({
  format: z.literal(ACCOUNT_EXPORT_FORMAT),
  version: z.literal(ACCOUNT_EXPORT_VERSION),
  exportedAt: isoTime,
  profile: z.object({
    id: z.number().int(),
    displayName: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    /** Empty for a guest. */
    email: z.string(),
    username: z.string(),
    isTemporary: z.boolean(),
    appName: z.string(),
    profilePictureUrl: z.string().nullable(),
    createdAt: isoTime,
    updatedAt: isoTime,
  }),
  /** Every group the player is or was in, with their points there now. */
  memberships: z.array(
    z.object({
      groupId: z.number().int(),
      groupName: z.string(),
      role: z.enum(['member', 'admin']),
      isCreator: z.boolean(),
      totalPoints: z.number().int(),
      availablePoints: z.number().int(),
      joinedAt: isoTime,
      leftAt: isoTime.nullable(),
    }),
  ),
  wagers: z.array(
    z.object({
      id: z.number().int(),
      betId: z.number().int(),
      betTitle: z.string(),
      groupId: z.number().int(),
      prediction: z.string(),
      points: z.number().int(),
      createdAt: isoTime,
      updatedAt: isoTime,
    }),
  ),
  /** The comments the player wrote on bets (deleted ones are gone). */
  comments: z.array(
    z.object({
      id: z.number().int(),
      betId: z.number().int(),
      betTitle: z.string(),
      groupId: z.number().int(),
      text: z.string(),
      createdAt: isoTime,
    }),
  ),
  betsCreated: z.array(
    z.object({
      id: z.number().int(),
      groupId: z.number().int(),
      title: z.string(),
      description: z.string().nullable(),
      betType: z.enum(BET_TYPES),
      state: z.enum(BET_STATES),
      baseWagerAmount: z.number().int(),
      expiresAt: isoTime,
      correctAnswer: z.string().nullable(),
      resolvedAt: isoTime.nullable(),
      createdAt: isoTime,
    }),
  ),
  /** Every change of the player's points, oldest first. */
  ledger: z.array(
    z.object({
      id: z.number().int(),
      groupId: z.number().int(),
      kind: z.enum(LEDGER_KINDS),
      totalDelta: z.number().int(),
      availableDelta: z.number().int(),
      betId: z.number().int().nullable(),
      wagerId: z.number().int().nullable(),
      createdAt: isoTime,
    }),
  ),
  /** The browsers that may receive notifications: the push service's host only, never the endpoint's path or keys. */
  pushSubscriptions: z.array(
    z.object({
      deviceName: z.string().nullable(),
      userAgent: z.string().nullable(),
      appName: z.string(),
      endpointHost: z.string(),
      isActive: z.boolean(),
      createdAt: isoTime,
      lastSuccessAt: isoTime.nullable(),
    }),
  ),
  /** Each sign-in (a refresh token family): when it began, when it was last refreshed, whether it is still live. */
  sessions: z.array(
    z.object({
      appName: z.string(),
      createdAt: isoTime,
      lastUsedAt: isoTime,
      expiresAt: isoTime,
      isActive: z.boolean(),
    }),
  ),
  /** The player's personal API tokens, oldest first: never the token nor its hash. */
  apiTokens: z.array(
    z.object({
      name: z.string(),
      scopes: z.array(z.enum(API_TOKEN_SCOPES)),
      createdAt: isoTime,
      lastUsedAt: isoTime.nullable(),
      expiresAt: isoTime.nullable(),
    }),
  ),
  /** The player's inbox, newest activity first: each entry as it was sent. */
  notifications: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(NOTIFICATION_KINDS),
      groupId: z.number().int(),
      betId: z.number().int().nullable(),
      count: z.number().int(),
      payload: notificationPayloadSchema,
      createdAt: isoTime,
      updatedAt: isoTime,
      readAt: isoTime.nullable(),
    }),
  ),
  /** Which kinds the player keeps off push, and the groups and bets they muted. */
  notificationSettings: z.object({
    pushOff: z.array(z.enum(PUSH_KINDS)),
    mutedGroupIds: z.array(z.number().int()),
    mutedBetIds: z.array(z.number().int()),
  }),
});

// ---- the profile's delete confirmation ----

/** A full account's confirmation: its current password. */
export const deleteFullAccountFormSchema = z.object({
  currentPassword: z.string().min(1, DELETE_ACCOUNT_PASSWORD_REQUIRED),
});
/** A guest's confirmation: the button alone. */
export const deleteGuestAccountFormSchema = z.object({ currentPassword: z.string() });
