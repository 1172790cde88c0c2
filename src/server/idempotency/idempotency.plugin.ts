import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/connect';
import type { Metrics } from '../metrics';
import { invalidIdempotencyKey } from '../errors';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  hashRequest,
  isValidIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
  type IdempotencyRequest,
  type StoredResponse,
} from './idempotency.service';

// The Idempotency-Key header on every signed-in write (docs/architecture.md §4, §8): the client's
// outbox sends each queued write with a key of its own and may send it again and again (a
// lost answer, a background-sync replay, two tabs); the same key from the same user gets the
// first answer back and applies nothing again.
//
// Hooks, in request order:
// - preValidation (after the route's app.authenticate on onRequest, and after the body is
//   parsed): validate the key, claim it, or replay the first answer. Anonymous calls (register,
//   login, refresh) have no user to scope a key to and are left alone.
// - onSend: the route has answered, so its own transaction has committed; store the answer
//   (2xx and the 4xx that are final) or release the key (5xx, transient 4xx) so a retry runs.
// - onResponse: a claimed key that onSend never settled is released.
//
// No transaction wraps the route's: the pending row, committed before the route runs, is
// what keeps a twin from running it too. The window between the route's commit and the
// stored answer is covered the same way (the row is still pending, twins wait). Only a
// process dying inside that window leaves a pending row whose write did apply; a retry takes
// it over after the lease (idempotency.service.ts) and the domain's own uniqueness rules
// (one wager per user per bet, one membership per user per group, a bet resolved once) refuse
// most second applications.

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Answers that say "not now" rather than "no": a retry with the same key must run again.
const TRANSIENT_CLIENT_ERRORS = new Set([401, 408, 429]);
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface IdempotencyOptions {
  db: Database;
  /** How long a twin waits for the first request with its key (default 10 s), then 409. */
  waitMs?: number;
  /** How often keys older than 24 h are deleted; 0 turns the timer off. Default hourly. */
  purgeIntervalMs?: number;
  /** Counts the replays (outbox writes sent again). */
  metrics?: Pick<Metrics, 'idempotentReplay'>;
}

interface IdempotencyState {
  request: IdempotencyRequest;
  /** True on a replay (nothing to store) and once the claim is settled. */
  isSettled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request carries an Idempotency-Key that it claimed or replays. */
    idempotency: IdempotencyState | null;
  }
}

function headerValue(reply: FastifyReply, name: string): string | undefined {
  const value = reply.getHeader(name);
  return value === undefined ? undefined : String(value);
}

function payloadText(payload: unknown): string | null | undefined {
  if (payload === null || payload === undefined) return null;
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined; // a stream: not something the API sends, and not storable
}

// Fields that are credentials (a session's tokens, a move-to-another-device code): an answer
// holding one is stored without them.
const TOKEN_FIELDS = ['accessToken', 'refreshToken', 'transferCode'];

/**
 * The answer as it may be kept: a JSON object's token fields removed, so the table never holds
 * a credential and a replay neither mints nor reveals one (PUT /auth/users/me answers the new
 * session's tokens once; a client that lost that answer signs in again).
 */
function withoutTokens(body: string | null, contentType: string | undefined): string | null {
  if (
    body === null ||
    !contentType?.includes('json') ||
    !TOKEN_FIELDS.some((field) => body.includes(`"${field}"`))
  )
    return body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return body;
    const kept = Object.fromEntries(
      Object.entries(parsed).filter(([field]) => !TOKEN_FIELDS.includes(field)),
    );
    return JSON.stringify(kept);
  } catch {
    return body;
  }
}

async function settle(
  db: Database,
  log: FastifyBaseLogger,
  state: IdempotencyState,
  response: StoredResponse | undefined,
): Promise<void> {
  state.isSettled = true;
  try {
    if (response) await completeIdempotencyKey(db, state.request, response);
    else await releaseIdempotencyKey(db, state.request);
  } catch (error) {
    // The answer still goes out. An unsettled row stays pending until its lease ends; then a
    // retry runs again, which the domain's uniqueness rules mostly absorb.
    log.error({ err: error }, 'could not settle idempotency key');
  }
}

/** Registers the hooks on the root app; call before registering the routes, which inherit them. */
export function registerIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db } = options;
  const waitMs = options.waitMs ?? 10_000;
  app.decorateRequest('idempotency', null);

  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    // The fast path: one header check for everything that does not use the feature.
    if (header === undefined || !request.user || !WRITE_METHODS.has(request.method)) return;
    // Sent twice, Node joins the values with ", ", which is no longer one key.
    if (typeof header !== 'string' || !isValidIdempotencyKey(header)) throw invalidIdempotencyKey();

    const idempotencyRequest: IdempotencyRequest = {
      userId: request.user.id,
      key: header,
      method: request.method,
      path: request.url,
      requestHash: hashRequest(request.method, request.url, request.body),
    };
    const claim = await claimIdempotencyKey(db, idempotencyRequest, { waitMs });
    if (claim.kind === 'owner') {
      request.idempotency = { request: idempotencyRequest, isSettled: false };
      return;
    }
    request.idempotency = { request: idempotencyRequest, isSettled: true };
    options.metrics?.idempotentReplay();
    const { statusCode, body, headers } = claim.response;
    reply.status(statusCode).headers(headers).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return reply.send(body ?? undefined);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const state = request.idempotency;
    if (!state || state.isSettled) return payload;
    const statusCode = reply.statusCode;
    const body = payloadText(payload);
    const isFinal =
      statusCode < 500 && !TRANSIENT_CLIENT_ERRORS.has(statusCode) && body !== undefined;
    const contentType = headerValue(reply, 'content-type');
    await settle(
      db,
      request.log,
      state,
      isFinal
        ? {
            statusCode,
            body: withoutTokens(body ?? null, contentType),
            headers: contentType ? { 'content-type': contentType } : {},
          }
        : undefined,
    );
    return payload;
  });

  // onSend skipped (the connection went away first, or a hook threw): never leave a claim behind.
  app.addHook('onResponse', async (request) => {
    const state = request.idempotency;
    if (state && !state.isSettled) await settle(db, request.log, state, undefined);
  });

  const purgeIntervalMs = options.purgeIntervalMs ?? PURGE_INTERVAL_MS;
  if (purgeIntervalMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        purgeExpiredIdempotencyKeys(db).catch((error: unknown) =>
          app.log.error({ err: error }, 'idempotency key purge failed'),
        );
      }, purgeIntervalMs);
      timer.unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  }
}
