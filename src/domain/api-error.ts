// The one error body every endpoint answers with (docs/architecture.md §6): the client shows
// `message` and branches on the stable snake_case `code`. These are all the codes the server
// sends: its AppError takes nothing else, so the client's checks on `code` are checked too.
export const API_ERROR_CODES = [
  // 400
  'validation_failed',
  'invalid_json',
  'bad_request',
  'unknown_push_service',
  'invalid_reset_token',
  'invalid_email_change_token',
  'invalid_transfer_code',
  'upgrade_incomplete',
  'invalid_prediction',
  'invalid_wager_points',
  'invalid_answer',
  'upgrade_required',
  'invalid_idempotency_key',
  'idempotency_key_not_supported',
  'invalid_content_length',
  'body_too_deep',
  // 401: no Bearer token at all, or one that is no longer valid
  'authentication_required',
  'invalid_access_token',
  'invalid_refresh_token',
  'invalid_credentials',
  'invalid_api_token',
  // 403
  'csrf_mismatch',
  'not_member',
  'not_group_admin',
  'not_bet_creator',
  'cannot_cancel_bet',
  'not_wager_owner',
  'cannot_delete_comment',
  'cannot_undo_resolution',
  'cannot_dispute',
  'cannot_review_dispute',
  'picks_hidden',
  'cannot_stop_sharing',
  'not_a_friend',
  'invalid_current_password',
  'invalid_invite_code',
  'removed_from_group',
  'member_not_removed',
  'client_group_not_yours',
  'registration_closed',
  'invite_required',
  'guests_disabled',
  'insufficient_scope',
  'full_account_required',
  // 404
  'not_found',
  'bet_not_found',
  'wager_not_found',
  'comment_not_found',
  'push_subscription_not_found',
  'share_link_not_found',
  // 410: a shared bet's link its sharer or an admin turned off
  'share_link_turned_off',
  // 409
  'email_or_username_taken',
  'already_exists',
  'group_name_taken',
  'push_endpoint_taken',
  'wager_exists',
  'dispute_exists',
  'season_active',
  'mutation_out_of_order',
  // 426: the device's sync protocol is one this server no longer speaks (sync-protocol.ts)
  'client_too_old',
  // 408: the request did not arrive in time (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS)
  'request_timeout',
  // 413, 415, 431
  'body_too_large',
  'unsupported_media_type',
  'headers_too_large',
  // 422 (a rule)
  'bet_closed',
  'already_resolved',
  'bet_not_active',
  'cannot_become_temporary',
  'cannot_remove_creator',
  'cannot_demote_creator',
  'creator_cannot_leave',
  'insufficient_points',
  'stake_tiers_not_offered',
  'base_not_in_tiers',
  'idempotency_key_reused',
  'undo_window_over',
  'dispute_window_over',
  'no_open_dispute',
  'settlement_spent',
  'season_over',
  'round_started',
  'no_invite_code',
  'too_many_api_tokens',
  'webhook_limit',
  // 429
  'rate_limited',
  'too_many_sync_clients',
  // 500, 503 (`not_ready` is GET /readyz while the database does not answer; `server_too_old`:
  // the device speaks a newer sync protocol than this instance, as in a rolling deploy)
  'internal_error',
  'database_unavailable',
  'server_too_old',
  'not_ready',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** Whether a value is one of the codes the server sends. */
export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return (API_ERROR_CODES as readonly unknown[]).includes(value);
}

/** The body of every refusal (docs/architecture.md §6). */
export interface ApiErrorBody {
  message: string;
  code: ApiErrorCode;
  fieldErrors?: Record<string, string>;
}
