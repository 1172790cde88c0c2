import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from '../domain/schemas/zod';
import type { DatabaseConnection } from './db/connect';

// GET /healthz (the process lives: for a restart policy) and GET /readyz (the database answers:
// for a load balancer), as docs/self-hosting.md describes them.

const healthSchema = z.object({ status: z.literal('ok') }).describe('The process lives.');
const readinessSchemas = {
  200: z
    .object({ status: z.literal('ready'), redis: z.enum(['ok', 'unavailable']).optional() })
    .describe('The database answers; `redis` is there when REDIS_URL is set.'),
  503: z
    .object({ message: z.string(), code: z.literal('not_ready') })
    .describe('The database does not answer.'),
};

export function registerHealthRoutes(
  app: FastifyInstance,
  options: { database: DatabaseConnection; redis: Redis | undefined },
): void {
  const { database, redis } = options;
  app.get('/healthz', { schema: { response: { 200: healthSchema } } }, async () => ({
    status: 'ok',
  }));
  app.get('/readyz', { schema: { response: readinessSchemas } }, async (request, reply) => {
    try {
      await database.ping();
      // Degraded, still serving: without Redis, limits and live updates are this instance's own.
      if (redis) return { status: 'ready', redis: redis.status === 'ready' ? 'ok' : 'unavailable' };
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not ready');
      return reply
        .status(503)
        .send({ message: 'The database is not answering.', code: 'not_ready' });
    }
  });
}
