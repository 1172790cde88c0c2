import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { SYNC_WRITES, type SyncMutationName } from '../../domain/sync';
import { z } from '../../domain/schemas/zod';
import { currentUser } from '../auth/authenticate';
import type { AuthUser } from '../auth/tokens';
import type { RateLimits } from '../config';
import {
  commentsPerUserRule,
  joinPrivateRules,
  rateLimitHook,
  type RateLimitRule,
} from '../rate-limits';
import { markReplayed } from '../idempotency/idempotency.plugin';
import type { IdempotencyRequest, StoredResponse } from '../idempotency/idempotency.service';

// A write is declared once, next to its feature's other routes, and serves both ways in: the
// REST route (method and path from its entry in src/domain/sync.ts, which names every write for
// the device too) and the mutation of the same name a push carries (../sync/push.service.ts).
// Both check the same params and body schemas and run the same `run` on the same services, so
// a write means the same whichever way it arrives; there is no second list of mutations to keep
// in step. This folder sits below the features: they import it to declare their writes; the
// runner that applies them (../sync/write-services.ts) sits above them and imports theirs.

type Schema = z.ZodType | undefined;
type Output<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/** Which rate limit of its own a write has, on top of the writes per user (rate-limits.ts). */
export type WriteLimit = 'comments' | 'joinPrivate';

export interface Write<
  P extends Schema = Schema,
  B extends Schema = Schema,
  R = unknown,
  S = unknown,
> {
  /** The path parameters' schema. */
  params?: P;
  /** The body's schema (none: no body is read). */
  body?: B;
  /** The answer's schema, sent with `status`. */
  response: z.ZodType;
  /** The REST answer's status (200 unless said). */
  status?: 200 | 201;
  /** The service call: the very one both ways make, on the services its feature names (`S`). */
  run(services: S, caller: AuthUser, args: { params: Output<P>; body: Output<B> }): Promise<R>;
  /** The id of the row the write made: a device's temporary id becomes it. */
  created?: (result: R) => number;
  limit?: WriteLimit;
}

// Writes are kept by name; their argument types are each write's own business.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyWrite = Write<any, any, any, any>;

/** What a write's `run` gets besides the services and the caller: its checked params and body. */
export type WriteArgs = Parameters<AnyWrite['run']>[2];

/**
 * The declaration helper of a feature whose writes call the services `S` (each one of those
 * `createWriteServices` makes, ../sync/write-services.ts): `const write = writeWith<S>()`, then
 * `write({ … })` types each entry by its schemas.
 */
export const writeWith =
  <S>() =>
  <P extends Schema = undefined, B extends Schema = undefined, R = unknown>(
    entry: Write<P, B, R, S>,
  ): Write<P, B, R, S> =>
    entry;

/** A feature's writes, each under the name of its mutation. */
export type Writes = Partial<Record<SyncMutationName, AnyWrite>>;

/** The headers a write's answer is kept with: JSON, as Fastify types it. */
export const JSON_ANSWER_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** What a keyed REST write answers: its own first answer, or the one its key was recorded with. */
export interface KeyedAnswer {
  response: StoredResponse;
  replayed: boolean;
}

/** How the REST routes run a write (made by `createWriteRunner`, ../sync/write-services.ts). */
export interface WriteRunner {
  run(caller: AuthUser, write: AnyWrite, args: WriteArgs): Promise<unknown>;
  runKeyed(
    caller: AuthUser,
    write: AnyWrite,
    args: WriteArgs,
    key: IdempotencyRequest,
    answer: (result: unknown) => StoredResponse,
  ): Promise<KeyedAnswer>;
}

/** The id field of the row a write answers with. */
export const createdRowId = (result: { id: number }) => result.id;

const argsSchemas = new WeakMap<AnyWrite, z.ZodType>();

/** What a pushed mutation's args must be: the write's params and body, each as its route checks it. */
export function argsSchemaOf(entry: AnyWrite): z.ZodType {
  let schema = argsSchemas.get(entry);
  if (!schema) {
    schema = z.object({
      ...(entry.params ? { params: entry.params } : {}),
      ...(entry.body ? { body: entry.body } : {}),
    });
    argsSchemas.set(entry, schema);
  }
  return schema;
}

/** The rules of each write limit. */
export function writeLimitRules(limits: RateLimits): Record<WriteLimit, RateLimitRule[]> {
  return { comments: [commentsPerUserRule(limits)], joinPrivate: joinPrivateRules(limits) };
}

/**
 * Registers each of `writes` as its REST route on `app` (signed in already: `requireSignIn`),
 * with its own rate limit checked before the body is read.
 */
export function registerWrites(
  app: FastifyInstance,
  writes: Writes,
  { runner, rateLimits }: { runner: WriteRunner; rateLimits: RateLimits },
): void {
  const limitHooks = new Map<WriteLimit, onRequestHookHandler[]>();
  const hooksOf = (limit: WriteLimit) => {
    let hooks = limitHooks.get(limit);
    if (!hooks) {
      hooks = writeLimitRules(rateLimits)[limit].map((rule) => rateLimitHook(app, rule));
      limitHooks.set(limit, hooks);
    }
    return hooks;
  };
  for (const [name, entry] of Object.entries(writes) as [SyncMutationName, AnyWrite][]) {
    const { method, path: url } = SYNC_WRITES[name];
    const status = entry.status ?? 200;
    app.route({
      method,
      url,
      ...(entry.limit ? { onRequest: hooksOf(entry.limit) } : {}),
      schema: {
        ...(entry.params ? { params: entry.params } : {}),
        ...(entry.body ? { body: entry.body } : {}),
        response: { [status]: entry.response },
      },
      config: { isKeyedWrite: true },
      handler: async (request, reply) => {
        const args = { params: request.params, body: request.body };
        const key = request.idempotencyKey;
        if (!key)
          return reply.status(status).send(await runner.run(currentUser(request), entry, args));
        // Serialized here, as the route's schema sends it, so a replay is the same bytes.
        const answer = (result: unknown) => ({
          statusCode: status,
          body: reply.code(status).serialize(result) as string,
          headers: JSON_ANSWER_HEADERS,
        });
        const { response, replayed } = await runner.runKeyed(
          currentUser(request),
          entry,
          args,
          key,
          answer,
        );
        if (replayed) markReplayed(reply);
        return reply.status(response.statusCode).headers(response.headers).send(response.body);
      },
    });
  }
}
