import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { syncPushRequestSchema, syncPushResponseSchema } from '../../domain/schemas/sync';
import { currentUser, requireSignIn } from '../auth/authenticate';
import type { RateLimits } from '../config';
import { requireSpokenProtocol } from '../protocol-version';
import { rateLimitCheck, writesPerUserRule } from '../rate-limits';
import type { Database } from '../db/connect';
import { purgeOldOutcomes } from './client-mutations';
import type { MutationLimiter, SyncPushService } from './push.service';
import { SYNC_MUTATIONS } from './sync-mutations';
import { writeLimitRules, type WriteLimit } from '../writes/writes';

// POST /api/sync/push (push.service.ts), for signed-in users. Each mutation that runs counts
// against the limits its REST route has, on the same counters (rate-limits.ts): the writes
// per user, and the comments or invite-code joins on top. The request itself is not counted
// as a write (app.ts), its mutations are.

export interface SyncRoutesOptions {
  push: SyncPushService;
  rateLimits: RateLimits;
  /** The database the hourly purge of old outcomes runs on. */
  db: Database;
  /** How often outcomes older than 24 h are deleted; 0 turns the timer off. Default hourly. */
  purgeIntervalMs?: number;
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export async function syncRoutes(
  instance: FastifyInstance,
  { push, rateLimits, db, purgeIntervalMs = PURGE_INTERVAL_MS }: SyncRoutesOptions,
) {
  // Outcomes are for the pulls of the next hours (client-mutations.ts OUTCOME_RETENTION_MS).
  if (purgeIntervalMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    instance.addHook('onReady', async () => {
      timer = setInterval(() => {
        purgeOldOutcomes(db, new Date()).catch((error: unknown) =>
          instance.log.error({ err: error }, 'mutation outcome purge failed'),
        );
      }, purgeIntervalMs);
      timer.unref();
    });
    instance.addHook('onClose', async () => clearInterval(timer));
  }
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);
  const writes = rateLimitCheck(app, writesPerUserRule(rateLimits));
  const rules = writeLimitRules(rateLimits);
  const extra = Object.fromEntries(
    Object.entries(rules).map(([limit, each]) => [
      limit,
      each.map((rule) => rateLimitCheck(app, rule)),
    ]),
  ) as Record<WriteLimit, ReturnType<typeof rateLimitCheck>[]>;

  app.post(
    '/sync/push',
    {
      schema: { body: syncPushRequestSchema, response: { 200: syncPushResponseSchema } },
      // Before anything is applied: the device speaks its sync protocol (protocol-version.ts).
      onRequest: [requireSpokenProtocol],
    },
    async (request) => {
      // As the REST route orders them: its own limits, then the writes limit.
      const limit: MutationLimiter = async (name) => {
        const own: WriteLimit | undefined = SYNC_MUTATIONS[name].limit;
        for (const check of [...(own ? extra[own] : []), writes]) {
          const retryAfter = await check(request);
          if (retryAfter !== undefined) return retryAfter;
        }
        return undefined;
      };
      return push.push(currentUser(request), request.body, limit);
    },
  );
}
