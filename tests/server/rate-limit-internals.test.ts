import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LocalStore, RedisStore, type RateLimitStore } from '../../src/server/rate-limit-internals';

// The @fastify/rate-limit internals src/server/rate-limit-internals.ts relies on (its memory
// and Redis stores, built with the arguments the plugin passes), checked on the installed
// version. A failure here means an upgrade changed them: fix rate-limit-internals.ts first.

const UPGRADED = '@fastify/rate-limit changed a store that src/server/rate-limit-internals.ts uses';

function count(store: RateLimitStore, key: string, max = 2) {
  return new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), 60_000, max),
  );
}

describe('@fastify/rate-limit stores', () => {
  it('the memory store counts per key, within its window, and per child', async () => {
    const store = new LocalStore(false, false);
    expect((await count(store, 'a')).current, UPGRADED).toBe(1);
    expect((await count(store, 'a')).current, UPGRADED).toBe(2);
    const ttl = (await count(store, 'b')).ttl;
    expect(ttl, `${UPGRADED}: ttl`).toBeGreaterThan(0);
    expect(ttl, `${UPGRADED}: ttl`).toBeLessThanOrEqual(60_000);
    expect(typeof store.child({}).incr, `${UPGRADED}: child()`).toBe('function');
  });

  it.runIf(process.env.REDIS_URL)(
    'the Redis store counts per key in Redis, under its name space',
    async () => {
      const redis = new Redis(process.env.REDIS_URL!);
      try {
        const nameSpace = `hunch-test-${randomBytes(4).toString('hex')}-`;
        const store = new RedisStore(false, false, redis, nameSpace);
        expect((await count(store, 'a')).current, UPGRADED).toBe(1);
        expect((await count(store, 'a')).current, UPGRADED).toBe(2);
        expect(await redis.get(`${nameSpace}a`), `${UPGRADED}: the key`).toBe('2');
        await redis.del(`${nameSpace}a`);
      } finally {
        await redis.quit();
      }
    },
  );
});
