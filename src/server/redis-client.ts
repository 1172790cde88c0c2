import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * The app's Redis client (REDIS_URL; none without it), connected before it is returned so the
 * first requests are counted in Redis.
 */
export async function connectRedis(
  redisUrl: string | undefined,
  log: FastifyBaseLogger,
): Promise<Redis | undefined> {
  // Commands fail fast instead of queueing while Redis is away. An unreachable Redis does not
  // stop start-up (audit item 13): the limits count in memory and live updates stay on this
  // instance until ioredis reconnects, and /readyz says so.
  const redis = redisUrl
    ? new Redis(redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: true,
      })
    : undefined;
  let isRedisDown = false;
  redis?.on('error', (error) => {
    if (!isRedisDown) log.warn({ err: error }, 'redis error');
    isRedisDown = true;
  });
  redis?.on('ready', () => {
    if (isRedisDown) log.info('redis is back: rate limits are shared again');
    isRedisDown = false;
  });
  if (redis) {
    // Wait for the first connection when there is one, or the first requests would go uncounted in Redis.
    await redis.connect().catch((error: unknown) => {
      isRedisDown = true;
      log.error(
        { err: error },
        'redis is unreachable: starting degraded (rate limits in memory, live updates on this instance only); reconnecting',
      );
    });
  }
  return redis;
}
