import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimits } from './config';
import { rateLimited } from './errors';
import {
  LocalStore,
  RedisStore,
  type RateLimitStore,
  type StoreCallback,
} from './rate-limit-internals';

// Flood protection with @fastify/rate-limit's store (in memory, or Redis with REDIS_URL so
// every instance shares the counts). We use createRateLimit rather than the route option
// because a route can need two limits at once (login: per IP and per email), and the answer
// must be our error body: 429, Retry-After, {message, code: 'rate_limited'}.

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

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
// One limiter per rule name and app: a rule checked in two places (a REST route's hook and the
// same write sent through POST /api/sync/push) counts against one counter, even in memory
// (@fastify/rate-limit gives each createRateLimit its own store otherwise). Keyed by the app's
// createRateLimit, which every encapsulated child of one app shares.
const limiters = new WeakMap<object, Map<string, Limiter>>();

function limiterOf(app: FastifyInstance, rule: RateLimitRule): Limiter {
  let byName = limiters.get(app.createRateLimit);
  if (!byName) limiters.set(app.createRateLimit, (byName = new Map()));
  let limiter = byName.get(rule.name);
  if (!limiter) {
    limiter = app.createRateLimit({
      max: rule.max,
      timeWindow: rule.windowMs,
      keyGenerator: (request) => `${rule.name}:${rule.key(request) ?? ''}`,
    });
    byName.set(rule.name, limiter);
  }
  return limiter;
}

/**
 * Counts one request against the rule: the seconds to wait when its limit is exceeded,
 * undefined when it passes (or the rule skips it). Each call counts once.
 */
export function rateLimitCheck(app: FastifyInstance, rule: RateLimitRule) {
  const check = limiterOf(app, rule);
  return async (request: FastifyRequest): Promise<number | undefined> => {
    if (rule.key(request) === undefined) return undefined;
    const result = await check(request);
    return !result.isAllowed && result.isExceeded ? Math.max(1, result.ttlInSeconds) : undefined;
  };
}

/** A hook (onRequest or preHandler) that answers 429 once the rule's limit is exceeded. */
export function rateLimitHook(app: FastifyInstance, rule: RateLimitRule) {
  const check = rateLimitCheck(app, rule);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const retryAfter = await check(request);
    if (retryAfter !== undefined) {
      reply.header('retry-after', retryAfter);
      throw rateLimited(retryAfter);
    }
  };
}

// The rules of signed-in writes, each used by its REST route and by POST /api/sync/push for
// the same write (src/server/sync), so neither way round the other's limit exists.
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every signed-in write counts against its user (docs/security.md). */
export const writesPerUserRule = (limits: RateLimits): RateLimitRule => ({
  name: 'writes-user',
  max: limits.writesPerUser,
  windowMs: limits.windowMs,
  key: (request) =>
    request.user && WRITE_METHODS.has(request.method) ? String(request.user.id) : undefined,
});

/** Comments posted on bets, per user, on top of the writes. */
export const commentsPerUserRule = (limits: RateLimits): RateLimitRule => ({
  name: 'comments-user',
  max: limits.commentsPerUser,
  windowMs: limits.windowMs,
  key: (request) => (request.user ? String(request.user.id) : undefined),
});

/** An invite code is a secret: guessing one takes many tries, so tries are few (per user, and per IP for many guests). */
/**
 * A read for visitors not signed in that names something by a secret (an invite link's code, a
 * shared bet's token): as few tries per address as joining by invite code, each under its own name.
 */
export const visitorLookupsPerIpRule = (name: string, limits: RateLimits): RateLimitRule => ({
  name,
  max: limits.joinPrivatePerIp,
  windowMs: limits.windowMs,
  key: byIp,
});

export const joinPrivateRules = (limits: RateLimits): RateLimitRule[] => [
  {
    name: 'join-private-user',
    max: limits.joinPrivatePerUser,
    windowMs: limits.windowMs,
    key: (request) => String(request.user?.id ?? '') || undefined,
  },
  { name: 'join-private-ip', max: limits.joinPrivatePerIp, windowMs: limits.windowMs, key: byIp },
];
