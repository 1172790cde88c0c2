import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { SyncPushRequest, SyncPushResponse } from '../../../src/domain/schemas/sync';
import { clientMutations } from '../../../src/server/db/schema';
import {
  CLIENT_EVICTION_IDLE_MS,
  MAX_CLIENTS_PER_USER,
} from '../../../src/server/sync/client-mutations';
import { NO_EXPIRY_TIMER } from '../bets/bet.factories';
import { createGroup, createPlayer } from '../groups/group.factories';
import { startTestServer, type TestServer } from '../harness';

// Every push is counted (issue 41, finding 4): a push that applies nothing writes nothing, and
// the client ids one player keeps are bounded, a new one past the bound taking the place of
// the least recently written one once it has been idle a day.

let server: TestServer;
beforeAll(async () => {
  // The writes limit is not under test here: room for the bound's worth of pushes.
  server = await startTestServer({ ...NO_EXPIRY_TIMER, rateLimits: { writesPerUser: 10_000 } });
});
afterAll(async () => server.close());

function push(user: AuthResponse, clientID: string, mutations: SyncPushRequest['mutations']) {
  return server.request<SyncPushResponse>('POST', '/api/sync/push', {
    token: user.accessToken,
    body: { clientGroupID: `device-of-${user.user.id}`, clientID, mutations },
  });
}

const mute = (id: number, groupId: number) => ({
  id,
  name: 'muteGroup' as const,
  args: { params: { id: groupId }, body: { muted: id % 2 === 1 } },
});

async function clientsOf(user: AuthResponse): Promise<string[]> {
  const rows = await server.database.db
    .select({ clientId: clientMutations.clientId })
    .from(clientMutations)
    .where(eq(clientMutations.userId, user.user.id));
  return rows.map((row) => row.clientId);
}

describe('pushes that apply nothing', () => {
  it('store nothing, however many new client ids they name', async () => {
    const player = await createPlayer(server, 'Skipper');
    const group = await createGroup(server, player);
    for (let index = 0; index < 20; index++) {
      const response = await push(player, randomUUID(), [mute(2, group.id)]);
      expect(response.status).toBe(200);
      expect(response.body.lastMutationID).toBe(0);
      expect(response.body.results[0]).toMatchObject({
        retry: true,
        error: { code: 'mutation_out_of_order' },
      });
    }
    expect(await clientsOf(player)).toEqual([]);
  });
});

describe('the client ids one player keeps', () => {
  it(`are at most ${MAX_CLIENTS_PER_USER}: a new one waits (429) until the least recently written has been idle a day, then replaces it`, async () => {
    const player = await createPlayer(server, 'Many devices');
    const group = await createGroup(server, player);
    const clients = Array.from({ length: MAX_CLIENTS_PER_USER }, () => randomUUID());
    for (const clientID of clients) {
      const response = await push(player, clientID, [mute(1, group.id)]);
      expect(response.body.results[0], response.text).toMatchObject({ ok: true });
    }

    const newcomer = randomUUID();
    const refused = await push(player, newcomer, [mute(1, group.id)]);
    expect(refused.status).toBe(200);
    expect(refused.body.lastMutationID).toBe(0);
    expect(refused.body.results[0]).toMatchObject({
      ok: false,
      retry: true,
      retryAfter: expect.any(Number),
      error: { code: 'too_many_sync_clients', status: 429 },
    });
    expect(refused.body.results[0]!.retryAfter).toBeLessThanOrEqual(CLIENT_EVICTION_IDLE_MS / 1000);
    expect(await clientsOf(player)).toHaveLength(MAX_CLIENTS_PER_USER);
    expect(await clientsOf(player)).not.toContain(newcomer);

    // The first client has been silent for a day: the newcomer takes its place.
    const [first, second] = clients;
    await server.database.db
      .update(clientMutations)
      .set({ updatedAt: sql`now() - interval '25 hours'` })
      .where(eq(clientMutations.clientId, first!));
    const admitted = await push(player, newcomer, [mute(1, group.id)]);
    expect(admitted.body.results[0], admitted.text).toMatchObject({ ok: true });
    const kept = await clientsOf(player);
    expect(kept).toHaveLength(MAX_CLIENTS_PER_USER);
    expect(kept).toContain(newcomer);
    expect(kept).not.toContain(first);
    // A client it already knows still writes; another new one waits again.
    expect((await push(player, second!, [mute(2, group.id)])).body.results[0]).toMatchObject({
      ok: true,
    });
    const next = await push(player, randomUUID(), [mute(1, group.id)]);
    expect(next.body.results[0]?.error?.code).toBe('too_many_sync_clients');
    const [{ total }] = (await server.database.db
      .select({ total: count() })
      .from(clientMutations)
      .where(eq(clientMutations.userId, player.user.id))) as [{ total: number }];
    expect(total).toBe(MAX_CLIENTS_PER_USER);
  });
});
