import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/connect';
import type { Metrics } from '../metrics';
import { idempotencyKeyNotSupported, invalidIdempotencyKey } from '../errors';
import {
  hashRequest,
  isValidIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  type IdempotencyRequest,
} from './idempotency.service';

// The Idempotency-Key header (docs/architecture.md §4): a program calling the REST API sends
// each write with a key of its own and may send it again and again (a lost answer, a timeout, a
// crash on either side); the same key from the same user gets the first answer back and applies
// nothing again. The app's own outbox does the same through the push, with mutation ids.
//
// This plugin only reads the header: a preValidation hook (after the route's app.authenticate
// and the body's parsing) checks it and hands the route `request.idempotencyKey`. The key is
// recorded by the write itself, in its own transaction, with its answer
// (sync/write-services.ts `runKeyed`): no statement of its own, nothing to settle after the
// answer, no window where a crash leaves a key half claimed. The writes of the push
// (`registerWrites`, marked `isKeyedWrite`) take a key; other signed-in writes refuse one (400)
// rather than ignore it. Anonymous calls (register, login, refresh) have no user to scope a key
// to and are left alone.

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface IdempotencyOptions {
  db: Database;
  /** How often keys older than 24 h are deleted; 0 turns the timer off. Default hourly. */
  purgeIntervalMs?: number;
  /** Counts the replays (writes sent again). */
  metrics?: Pick<Metrics, 'idempotentReplay'>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this write was sent with, checked; null without one. */
    idempotencyKey: IdempotencyRequest | null;
  }
  interface FastifyContextConfig {
    /** A write that records an Idempotency-Key with its answer (writes/writes.ts `registerWrites`). */
    isKeyedWrite?: boolean;
  }
}

/** Marks an answer as the first answer of its key, sent again. */
export function markReplayed(reply: FastifyReply): void {
  reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
}

/** Registers the hooks on the root app; call before registering the routes, which inherit them. */
export function registerIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db, metrics } = options;
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preValidation', async (request: FastifyRequest) => {
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    // The fast path: one header check for everything that does not use the feature.
    if (header === undefined || !request.user || !WRITE_METHODS.has(request.method)) return;
    // Sent twice, Node joins the values with ", ", which is no longer one key.
    if (typeof header !== 'string' || !isValidIdempotencyKey(header)) throw invalidIdempotencyKey();
    if (request.routeOptions.config.isKeyedWrite !== true) throw idempotencyKeyNotSupported();
    request.idempotencyKey = {
      userId: request.user.id,
      key: header,
      method: request.method,
      path: request.url,
      requestHash: hashRequest(request.method, request.url, request.body),
    };
  });

  if (metrics)
    app.addHook('onSend', async (_request, reply, payload) => {
      if (reply.getHeader(IDEMPOTENT_REPLAYED_HEADER) === 'true') metrics.idempotentReplay();
      return payload;
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
