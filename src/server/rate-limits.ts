import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimited } from './errors';

// Flood protection with @fastify/rate-limit's store (in memory, or Redis with REDIS_URL so
// every instance shares the counts). We use createRateLimit rather than the route option
// because a route can need two limits at once (login: per IP and per email), and the answer
// must be our error body: 429, Retry-After, {message, code: 'rate_limited'}.

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;
interface RateLimitStore {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  read?(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
}
type StoreConstructor = new (...args: unknown[]) => RateLimitStore;
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreConstructor;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreConstructor;

/**
 * The plugin's store with REDIS_URL: counts in Redis while it answers, and in this process's
 * memory while it does not (an outage at start or later), so limits never pause.
 */
export function redisOrMemoryStore(redis: Redis, nameSpace: string) {
  class RedisOrMemoryStore implements RateLimitStore {
    constructor(
      readonly shared: RateLimitStore,
      readonly local: RateLimitStore,
    ) {}

    static create(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      return new RedisOrMemoryStore(
        new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace),
        new LocalStore(params.continueExceeding, params.exponentialBackoff),
      );
    }

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number) {
      (redis.status === 'ready' ? this.shared : this.local).incr(key, callback, timeWindow, max);
    }

    child(routeOptions: unknown) {
      return new RedisOrMemoryStore(
        this.shared.child(routeOptions),
        this.local.child(routeOptions),
      );
    }
  }
  // The plugin calls `new Store(globalParams)`.
  return function Store(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
    return RedisOrMemoryStore.create(params);
  } as unknown as FastifyRateLimitStoreCtor;
}

export interface RateLimitRule {
  /** Separates the counters of different rules in the shared store. */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted; undefined skips the rule for this request. */
  key: (request: FastifyRequest) => string | undefined;
}

export const byIp = (request: FastifyRequest) => request.ip;

/** A hook (onRequest or preHandler) that answers 429 once the rule's limit is exceeded. */
export function rateLimitHook(app: FastifyInstance, rule: RateLimitRule) {
  const check = app.createRateLimit({
    max: rule.max,
    timeWindow: rule.windowMs,
    keyGenerator: (request) => `${rule.name}:${rule.key(request) ?? ''}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (rule.key(request) === undefined) return;
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      const retryAfter = Math.max(1, result.ttlInSeconds);
      reply.header('retry-after', retryAfter);
      throw rateLimited(retryAfter);
    }
  };
}
