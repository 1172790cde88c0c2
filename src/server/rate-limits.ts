import type {} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimited } from './errors';

// Flood protection with @fastify/rate-limit's store (in memory, or Redis with REDIS_URL so
// every instance shares the counts). We use createRateLimit rather than the route option
// because a route can need two limits at once (login: per IP and per email), and the answer
// must be our error body: 429, Retry-After, {message, code: 'rate_limited'}.

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
