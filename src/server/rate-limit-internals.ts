import { createRequire } from 'node:module';

// The one place this app reaches into @fastify/rate-limit's internals (for rate-limits.ts):
// its memory and Redis stores. The plugin exports neither, yet a store that counts in Redis
// while Redis answers and in memory while it does not must be made of both; writing our own
// would copy their counting (the Redis one is a Lua script). So they are loaded from the
// package's files, with the constructors the plugin itself calls:
// `new LocalStore(continueExceeding, exponentialBackoff)` and
// `new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace)`.
// tests/server/rate-limit-internals.test.ts holds the installed version to them.

export type StoreCallback = (
  error: Error | null,
  result?: { current: number; ttl: number },
) => void;

export interface RateLimitStore {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  read?(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
}

type StoreConstructor = new (...args: unknown[]) => RateLimitStore;

const require = createRequire(import.meta.url);

function storeClass(file: string): StoreConstructor {
  const loaded: unknown = require(`@fastify/rate-limit/store/${file}.js`);
  const prototype = (loaded as { prototype?: Partial<RateLimitStore> } | undefined)?.prototype;
  if (
    typeof loaded !== 'function' ||
    typeof prototype?.incr !== 'function' ||
    typeof prototype.child !== 'function'
  )
    throw new Error(
      `@fastify/rate-limit/store/${file}.js is no longer a store: an upgrade changed it; see src/server/rate-limit-internals.ts`,
    );
  return loaded as StoreConstructor;
}

export const LocalStore = storeClass('LocalStore');
export const RedisStore = storeClass('RedisStore');
