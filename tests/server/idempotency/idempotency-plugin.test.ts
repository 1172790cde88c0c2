import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../../../src/server/db/connect';
import { idempotencyKeys, users } from '../../../src/server/db/schema';
import { handleError } from '../../../src/server/error-handler';
import { internalError } from '../../../src/server/errors';
import { registerIdempotency } from '../../../src/server/idempotency/idempotency.plugin';
import { hashRequest } from '../../../src/server/idempotency/idempotency.service';
import { openTestDatabase } from '../harness';

// The plugin's paths a real route cannot reach on demand: a first request that fails with a
// 5xx, a twin that outlives the wait, a request that died and left its claim behind. A small
// Fastify app with the plugin and a stand-in sign-in, on a real database, over real HTTP.

let database: DatabaseConnection;
let app: FastifyInstance;
let url: string;
let userId: number;
let runs = 0;
let failNext = false;
let releaseSlow: (() => void) | undefined;

beforeAll(async () => {
  database = await openTestDatabase();
  const [user] = await database.db
    .insert(users)
    .values({ appName: 'hunch', displayName: 'Plugin tester' })
    .returning({ id: users.id });
  userId = user!.id;
  app = Fastify({ logger: false });
  app.setErrorHandler(handleError);
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    request.user = { id: userId, appName: 'hunch', isTemporary: false } as never;
  });
  registerIdempotency(app, { db: database.db, waitMs: 300, purgeIntervalMs: 0 });
  app.post('/count', async () => {
    runs += 1;
    if (failNext) {
      failNext = false;
      throw internalError();
    }
    return { run: runs };
  });
  app.post('/slow', async () => {
    await new Promise<void>((resolve) => (releaseSlow = resolve));
    return { done: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app.close();
  await database.close();
});

function post(path: string, key: string) {
  return fetch(url + path, { method: 'POST', headers: { 'idempotency-key': key } });
}

describe('the idempotency plugin', () => {
  it('forgets a key whose first answer was a 5xx, so the retry runs', async () => {
    failNext = true;
    const failed = await post('/count', 'after-a-500');
    expect(failed.status).toBe(500);
    const before = runs;
    const retried = await post('/count', 'after-a-500');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(runs).toBe(before + 1);
  });

  it('answers 409 idempotency_in_progress when the twin outlives the wait, then replays once it is done', async () => {
    const first = post('/slow', 'slow-key');
    await expect.poll(() => releaseSlow !== undefined).toBe(true);
    const twin = await post('/slow', 'slow-key');
    expect(twin.status).toBe(409);
    expect(await twin.json()).toEqual({
      code: 'idempotency_in_progress',
      message: 'A request with this key is still being processed. Try again shortly.',
    });
    releaseSlow!();
    expect((await first).status).toBe(200);
    const later = await post('/slow', 'slow-key');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(await later.json()).toEqual({ done: true });
  });

  it('takes over a claim left pending by a request that died more than a minute ago', async () => {
    await database.db.insert(idempotencyKeys).values({
      userId,
      key: 'orphan',
      method: 'POST',
      path: '/count',
      requestHash: hashRequest('POST', '/count', undefined),
      status: 'pending',
      createdAt: new Date(Date.now() - 2 * 60 * 1000),
    });
    const response = await post('/count', 'orphan');
    expect(response.status).toBe(200);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
  });
});
