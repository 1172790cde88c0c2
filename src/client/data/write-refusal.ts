import { isApiErrorCode, type ApiErrorCode } from '../../domain/api-error';
import { ApiError } from './api-client';
import { TEMP_IDS_KEY, type HunchDb, type OutboxEntry } from './db';
import { mutatorOf, replaceIds, textsOf, type MutatorRegistry } from './mutators';

// A refused write, as its player reads it: run()'s rejection (the server's message, else the
// mutator's), and for a write nobody was waiting on (sent by a later flush, after the network
// came back) one sentence naming what it was and its bet, from this device's mirror so it reads
// the same offline: "Your 2 points on 'Pizza Friday?' came back: betting had closed". Whether a
// retry may get through decides whether the sync status sheet offers Retry or only Dismiss.

/**
 * A write that did not go through, as run() rejects with it: its message is the text to show,
 * the server's own or else `refused` (the mutator's). A refusal stays the ApiError it was (its
 * status, code and field errors); a failure on the device keeps its error as `cause`.
 */
export function refusalOf(error: unknown, refused: string | undefined): Error {
  if (error instanceof ApiError) {
    if (error.hasServerMessage || refused === undefined) return error;
    const { status, code, fieldErrors } = error;
    return new ApiError(
      status,
      { ...(isApiErrorCode(code) ? { code } : {}), ...(fieldErrors ? { fieldErrors } : {}) },
      refused,
    );
  }
  if (refused === undefined) return error instanceof Error ? error : new Error(String(error));
  return new Error(refused, { cause: error });
}

/** Why the server said no, in a few words after the write's name; others keep the server's message. */
const REASONS: Partial<Record<ApiErrorCode, string>> = {
  bet_closed: 'betting had closed',
  already_resolved: 'the bet was already settled',
  bet_not_active: 'the bet can no longer change',
  bet_not_found: 'the bet is gone',
  comment_not_found: 'the comment is gone',
  wager_not_found: 'the wager is gone',
  not_member: "you're no longer in that group",
  removed_from_group: "you're no longer in that group",
  insufficient_points: 'not enough points',
  wager_exists: 'you had already wagered',
  undo_window_over: 'the time to undo was over',
  dispute_window_over: 'the time to dispute was over',
  dispute_exists: 'it was already disputed',
  no_open_dispute: 'the dispute was already settled',
};

/**
 * Refusals a second try may get through: points can come back, a session or the server's load
 * can change. The rest (a closed bet, a removed member, a bad value) answer the same each time.
 */
const RETRYABLE = new Set<string>([
  'insufficient_points',
  'authentication_required',
  'invalid_access_token',
  'invalid_refresh_token',
  'csrf_mismatch',
  'request_timeout',
  'rate_limited',
  'too_many_sync_clients',
  'season_active',
  'internal_error',
  'database_unavailable',
]);

/** Whether Retry is worth offering for a refused write (one refused before codes were kept: yes). */
export const canRetryRefusal = (code: string | undefined): boolean =>
  code === undefined || RETRYABLE.has(code);

/** How a refused write is kept in the outbox: its sentence, and the server's code for Retry. */
export interface RefusalRecord {
  error: string;
  errorCode?: string;
}

/** The bet's question, quoted, from the mirror; "a bet" when this device does not hold it. */
async function betNamed(db: HunchDb, betId: number | undefined): Promise<string> {
  if (betId === undefined) return 'a bet';
  const ids = ((await db.meta.get(TEMP_IDS_KEY))?.value ?? {}) as Record<string, number>;
  const bet = await db.bets.get(replaceIds(betId, ids));
  return bet?.title ? `'${bet.title}'` : 'a bet';
}

/** "Your 2 points on 'Pizza Friday?' came back: betting had closed", from the mirror. */
export async function describeRefusal(
  db: HunchDb,
  mutators: MutatorRegistry,
  entry: Pick<OutboxEntry, 'mutator' | 'args'>,
  refusal: Error,
): Promise<RefusalRecord> {
  const code =
    refusal instanceof ApiError && isApiErrorCode(refusal.code) ? refusal.code : undefined;
  const mutator = mutatorOf(mutators, entry.mutator);
  if (!mutator) return { error: refusal.message, ...(code ? { errorCode: code } : {}) };
  const texts = textsOf(mutator, entry.args as never);
  const detail = mutator.describe?.(entry.args as never);
  const head = texts.refusedAs
    ? texts.refusedAs(await betNamed(db, mutator.betIdOf?.(entry.args as never)))
    : `${texts.label}${detail ? ` (${detail})` : ''} wasn't saved`;
  const reason = code && REASONS[code];
  return {
    error: reason ? `${head}: ${reason}` : `${head}. ${refusal.message}`,
    ...(code ? { errorCode: code } : {}),
  };
}
