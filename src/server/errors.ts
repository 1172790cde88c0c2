import type { ApiErrorBody, ApiErrorCode } from '../domain/api-error';
import {
  API_TOKEN_MESSAGES as TOKEN_TEXT,
  insufficientScopeText,
  type ApiTokenScope,
} from '../domain/api-tokens';
import { PUSH_MESSAGES } from '../domain/push';
import { removedFromGroupText } from '../domain/groups';
import { SIGN_UP_REFUSAL_MESSAGES } from '../domain/registration';
import { baseNotInTiersMessage, STAKE_MESSAGES } from '../domain/stakes';
import { WEBHOOK_LIMITS } from '../domain/webhooks';

// The one error vocabulary of the API (docs/conventions.md, "One error vocabulary"): each factory
// has an HTTP status and a stable snake_case code; the client branches on `code` and shows
// `message`. Every error leaves the server as {message, code, fieldErrors?}; the codes are
// the domain's ApiErrorCode, so a code outside that list does not compile.

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ApiErrorBody {
    return this.fieldErrors
      ? { message: this.message, code: this.code, fieldErrors: this.fieldErrors }
      : { message: this.message, code: this.code };
  }
}

// ---- 400 ----
export const validationFailed = (message: string, fieldErrors?: Record<string, string>) =>
  new AppError(400, 'validation_failed', message, fieldErrors);
/** The server requests only the browsers' push services (PUSH_ENDPOINT_HOSTS): any other endpoint would let anyone aim it at any host. */
export const unknownPushService = () =>
  new AppError(400, 'unknown_push_service', PUSH_MESSAGES.endpointService, {
    endpoint: PUSH_MESSAGES.endpointService,
  });
export const invalidResetToken = () =>
  new AppError(
    400,
    'invalid_reset_token',
    'This password reset link is invalid or has expired. Please request a new one.',
  );
/** A link confirming a new email that is unknown, used, expired or replaced: all alike. */
export const invalidEmailChangeToken = () =>
  new AppError(
    400,
    'invalid_email_change_token',
    'This email confirmation link is invalid or has expired. Change your email again from your profile.',
  );
/** A move-to-another-device code that is unknown, used, expired or revoked: all alike. */
export const invalidTransferCode = () =>
  new AppError(
    400,
    'invalid_transfer_code',
    'This sign-in link has expired, was already used or was cancelled. Make a new one on your other device.',
  );
/** A guest upgrade must carry every field of a full account (docs/accounts-and-shell.md §3, docs/architecture.md §6). */
export const upgradeIncomplete = (missing: string[]) =>
  new AppError(
    400,
    'upgrade_incomplete',
    'To upgrade, send firstName, lastName, username, email, password and passwordConfirm.',
    Object.fromEntries(missing.map((field) => [field, 'Required'])),
  );
/** A prediction that does not fit the bet's type (docs/architecture.md §5); the message is the domain's. */
export const invalidPrediction = (message: string) =>
  new AppError(400, 'invalid_prediction', message, { prediction: message });
/** A wager's points must be the bet's base amount times 1, 2 or 3 (docs/groups-and-bets.md §3, §5). */
export const invalidWagerPoints = (base: number) =>
  new AppError(
    400,
    'invalid_wager_points',
    `Points must be 1, 2 or 3 times the base wager amount: ${base}, ${base * 2} or ${base * 3}.`,
    { points: `Points must be ${base}, ${base * 2} or ${base * 3}` },
  );
/** A correct answer that does not fit the bet's type (an over/under bet is resolved with the actual number). */
export const invalidAnswer = (message: string) =>
  new AppError(400, 'invalid_answer', message, { correctAnswer: message });
/** A guest sets an email, username or password only by upgrading to a full account. */
export const upgradeRequired = () =>
  new AppError(
    400,
    'upgrade_required',
    'Upgrade to a full account (isTemporary false) to set an email, username or password.',
  );
/** A JSON body nested deeper than any request of Hunch (src/server/json-body.ts). */
export const bodyTooDeep = () =>
  new AppError(400, 'body_too_deep', 'The request body is nested too deeply.');
/** The writes of the push take an Idempotency-Key (docs/architecture.md §4); other routes refuse one rather than ignore it. */
export const idempotencyKeyNotSupported = () =>
  new AppError(
    400,
    'idempotency_key_not_supported',
    'This request does not take an Idempotency-Key: send it without one.',
  );
/** Idempotency-Key is 1–255 visible ASCII characters (docs/architecture.md §4); a UUID fits. */
export const invalidIdempotencyKey = () =>
  new AppError(
    400,
    'invalid_idempotency_key',
    'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, for example).',
  );

// ---- 401 ----
export const invalidCredentials = () =>
  new AppError(401, 'invalid_credentials', 'Invalid email or password');
export const authenticationRequired = () =>
  new AppError(401, 'authentication_required', 'Authentication required');
export const invalidAccessToken = () =>
  new AppError(401, 'invalid_access_token', 'Your session has expired. Please sign in again.');
export const invalidRefreshToken = () =>
  new AppError(401, 'invalid_refresh_token', 'Your session has expired. Please sign in again.');
export const invalidApiToken = () => new AppError(401, 'invalid_api_token', TOKEN_TEXT.invalid);

// ---- 403 ----
export const csrfMismatch = () =>
  new AppError(
    403,
    'csrf_mismatch',
    'Security token mismatch. Please reload the page and try again.',
  );
/** A private group's content is for its members (docs/groups-and-bets.md §6); the client opens the private join dialog on it. */
export const notMember = () => new AppError(403, 'not_member', "You're not a member of this group");
/** A push naming a client group that another player's device made (src/server/sync). */
export const clientGroupNotYours = () =>
  new AppError(403, 'client_group_not_yours', 'This device id belongs to another player.');
export const notGroupAdmin = () =>
  new AppError(403, 'not_group_admin', 'Only group admins can do this.');
/** A comment is deleted by its author or an admin of its group. */
export const cannotDeleteComment = () =>
  new AppError(
    403,
    'cannot_delete_comment',
    'Only the author or a group admin can delete this comment.',
  );
export const shareLinkNotFound = () =>
  new AppError(404, 'share_link_not_found', 'This link does not lead to a bet.');
export const shareLinkTurnedOff = () =>
  new AppError(410, 'share_link_turned_off', 'This link was turned off.');
export const notWagerOwner = () =>
  new AppError(403, 'not_wager_owner', 'You can only change your own wager.');
/** An admin adds by id only someone who already shares a group with them (docs/security.md); unknown ids answer the same. */
export const notAFriend = () =>
  new AppError(
    403,
    'not_a_friend',
    'You can only add someone who is already in one of your groups. Share the invite link instead.',
  );
/** Changing a full account's password or email needs its current password (a stolen access token alone must not take the account). */
export const invalidCurrentPassword = () =>
  new AppError(403, 'invalid_current_password', 'Your current password is incorrect.', {
    currentPassword: 'Your current password is incorrect.',
  });
// The operator's REGISTRATION / GUESTS settings refuse a new account (src/domain/registration.ts).
export const registrationClosed = () =>
  new AppError(403, 'registration_closed', SIGN_UP_REFUSAL_MESSAGES.registration_closed);
export const inviteRequired = () =>
  new AppError(403, 'invite_required', SIGN_UP_REFUSAL_MESSAGES.invite_required);
export const guestsDisabled = () =>
  new AppError(403, 'guests_disabled', SIGN_UP_REFUSAL_MESSAGES.guests_disabled);
// Personal API tokens (domain/policies/token-scopes.ts says which scope a route needs).
export const insufficientScope = (needs: ApiTokenScope | null) =>
  new AppError(403, 'insufficient_scope', insufficientScopeText(needs));
export const fullAccountRequired = () =>
  new AppError(403, 'full_account_required', TOKEN_TEXT.fullAccountRequired);
export const wrongInviteCode = () =>
  new AppError(403, 'invalid_invite_code', 'Invalid invite code. Check the code and try again.');
/**
 * An admin removed this user: they come back only when an admin adds them (domain/groups.ts
 * isKeptOutOfGroup). The message names the group's admins to ask.
 */
export const removedFromGroup = (adminNames: readonly string[] = []) =>
  new AppError(403, 'removed_from_group', removedFromGroupText(adminNames));

// ---- 404 ----
export const notFound = (what = 'Resource') => new AppError(404, 'not_found', `${what} not found`);
export const betNotFound = () => new AppError(404, 'bet_not_found', 'Bet not found');
export const commentNotFound = () => new AppError(404, 'comment_not_found', 'Comment not found');
export const wagerNotFound = () => new AppError(404, 'wager_not_found', 'Wager not found');
export const pushSubscriptionNotFound = () =>
  new AppError(404, 'push_subscription_not_found', 'No push subscription for this device and app.');

// ---- 408, 431 (answered on the raw connection: connection-limits.ts) ----
/** A client that sends its request too slowly (a byte now and then) is cut off. */
export const requestTimedOut = () =>
  new AppError(408, 'request_timeout', 'The request took too long to arrive.');
export const headersTooLarge = () =>
  new AppError(431, 'headers_too_large', 'The request headers are too large.');

// ---- 409 ----
/** A pushed mutation whose id skips one the server has not applied yet: the device sends its writes again from the one expected. */
export const mutationOutOfOrder = (expected: number) =>
  new AppError(
    409,
    'mutation_out_of_order',
    `Writes arrived out of order: write ${expected} is expected next.`,
  );
export const emailOrUsernameTaken = () =>
  new AppError(409, 'email_or_username_taken', 'Email or username already exists.');
export const alreadyExists = () => new AppError(409, 'already_exists', 'This already exists.');
/** Public groups are joined by name, so their names are unique case-insensitively (docs/architecture.md §4). */
export const groupNameTaken = () =>
  new AppError(409, 'group_name_taken', 'A public group with this name already exists.');
/** Another account's push endpoint is taken over only with its subscription's keys (the same browser). */
export const pushEndpointTaken = () =>
  new AppError(409, 'push_endpoint_taken', 'This push endpoint belongs to another subscription.', {
    endpoint: 'This push endpoint belongs to another subscription.',
  });

/** One dispute per resolution: an open one waits for an admin, a reviewed one is final. */
export const disputeExists = () =>
  new AppError(409, 'dispute_exists', 'This resolution has already been disputed.');
/** One wager per user per bet (docs/architecture.md §4): a change is a PUT of the existing wager. */
export const wagerExists = (wagerId?: number) =>
  new AppError(
    409,
    'wager_exists',
    wagerId
      ? `You already have a wager on this bet. Update it instead (PUT /api/bets/wagers/${wagerId}).`
      : 'You already have a wager on this bet. Update it instead.',
  );

/** At most one season runs in a group at a time. */
export const seasonActive = () =>
  new AppError(409, 'season_active', 'A season is already running in this group. End it first.');

// ---- 422 (a rule) ----
/** Ending needs a running season: one that ended already (on its date, or by another admin) stays as it was. */
export const seasonOver = () => new AppError(422, 'season_over', 'This season has already ended.');
/** A group keeps at most WEBHOOK_LIMITS.perGroup webhooks (domain/policies/webhook-policy.ts). */
export const webhookLimit = () =>
  new AppError(
    422,
    'webhook_limit',
    `A group can have up to ${WEBHOOK_LIMITS.perGroup} webhooks. Delete one to add another.`,
  );
export const roundStarted = () =>
  new AppError(422, 'round_started', 'The round has started: its scoring can no longer change.');

/** A public group is joined by name or link: it has no invite code to change. */
export const noInviteCode = () =>
  new AppError(422, 'no_invite_code', 'Only a private group has an invite code.');
/** Undoing would take back points that were wagered again meanwhile: nothing moves. */
export const settlementSpent = () =>
  new AppError(
    422,
    'settlement_spent',
    "Someone has already wagered points from this bet, so it can't be undone.",
  );
export const cannotBecomeTemporary = () =>
  new AppError(422, 'cannot_become_temporary', 'A full account cannot become a guest account.');
// The creator is always a member and an admin, so every group keeps someone who can manage it.
export const cannotRemoveCreator = () =>
  new AppError(422, 'cannot_remove_creator', "The group's creator cannot be removed.");
/** Add back is for a player an admin removed (domain/policies/group-policy.ts addBackMemberRefusal). */
export const memberNotRemoved = () =>
  new AppError(409, 'member_not_removed', 'Only a player an admin removed can be added back.');
export const cannotDemoteCreator = () =>
  new AppError(422, 'cannot_demote_creator', "The group's creator cannot stop being an admin.");
export const creatorCannotLeave = () =>
  new AppError(422, 'creator_cannot_leave', "The group's creator cannot leave the group.");
/** A group's stake tiers are one of the sets of src/domain/stakes.ts. */
export const stakeTiersNotOffered = () =>
  new AppError(422, 'stake_tiers_not_offered', `${STAKE_MESSAGES.tiersNotOffered}.`, {
    stakeTiers: STAKE_MESSAGES.tiersNotOffered,
  });
/** A new bet's base is one of its group's tiers at the time (existing bets keep theirs). */
export const baseNotInTiers = (tiers: readonly number[]) =>
  new AppError(422, 'base_not_in_tiers', `${baseNotInTiersMessage(tiers)}.`, {
    baseWagerAmount: baseNotInTiersMessage(tiers),
  });
export const insufficientPoints = (needed: number, available: number) =>
  new AppError(
    422,
    'insufficient_points',
    `Not enough points: this needs ${needed} and you have ${available} available.`,
  );
/** One Idempotency-Key names one request: the same key with another method, path or body is a client bug. */
export const idempotencyKeyReused = () =>
  new AppError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was already used for a different request. Send a new key for a new request.',
  );

export const tooManyApiTokens = () => new AppError(422, 'too_many_api_tokens', TOKEN_TEXT.tooMany);

// ---- 429 ----
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'rate_limited',
    `Too many attempts. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
  );
/** A push from a new client id while the user's clients are at their bound (src/server/sync/README.md). */
export const tooManySyncClients = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'too_many_sync_clients',
    `This account writes from too many devices at once. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
  );

// ---- 426 ----
/** The device's sync protocol is older than any this server speaks: the app updates itself. */
export const clientTooOld = () =>
  new AppError(426, 'client_too_old', 'This version of Hunch is out of date. Updating Hunch…');

// ---- 503 ----
/**
 * The database connection dropped mid-request (a failover, a restart), or a transaction kept
 * meeting deadlocks: nothing was applied by halves; retry.
 */
export const databaseUnavailable = () =>
  new AppError(
    503,
    'database_unavailable',
    'The service is briefly unavailable. Please try again in a moment.',
  );

/** The device's sync protocol is newer than this instance's (a rolling deploy): try again soon. */
export const serverTooOld = () =>
  new AppError(503, 'server_too_old', 'Hunch is being updated. Please try again in a moment.');

// ---- 500 ----
export const internalError = () =>
  new AppError(500, 'internal_error', 'Something went wrong. Please try again later.');
