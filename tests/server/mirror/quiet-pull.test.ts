import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import { mirrorPullResponseSchema } from '../../../src/server/mirror/synced-tables';
import { LISTENER_APPLICATION_NAME } from '../../../src/server/db/connect';
import { decodeCursor } from '../../../src/server/mirror/mirror-cursor';
import { createBet, NO_EXPIRY_TIMER, placeWager } from '../bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import { useTestServer, type TestServer } from '../harness';

// A pull with nothing new is answered from the instance's memory of the database's change
// notifications (src/server/mirror/change-watermarks.ts), and never wrongly: a change made
// through another instance is in the next pull, and so is one made while the instance's
// listening connection was down. A memory answer is told apart by its cursor: it keeps the
// snapshot the last database read took, where a database read takes a newer one.

// Two instances on one database, one signing key (a token from one works on the other).
const options = { env: { ...NO_EXPIRY_TIMER.env, JWT_SECRET: randomBytes(24).toString('hex') } };
const first = useTestServer(options);
const second = useTestServer(() => ({ ...options, database: first.database }));

const device = { clientGroupID: randomUUID(), clientID: randomUUID() };

async function pull(on: TestServer, user: AuthResponse, cursor = MIRROR_START_CURSOR) {
  const response = await on.request<MirrorPullResponse>(
    'GET',
    `/api/member/state?cursor=${encodeURIComponent(cursor)}&clientGroupID=${device.clientGroupID}`,
    { token: user.accessToken },
  );
  expect(response.status, response.text).toBe(200);
  return mirrorPullResponseSchema.parse(response.body);
}

const snapshotOf = (cursor: string) => decodeCursor(cursor)!.snapshot;

/** A write none of the players below can see: the database's snapshot moves on. */
async function unrelatedWrite() {
  await createGroup(second, await createPlayer(second, 'Stranger'));
}

async function setUp() {
  const owner = await createPlayer(first, 'Owner');
  const friend = await createPlayer(first, 'Friend');
  const group: Group = await createGroup(first, owner);
  await joinGroup(first, friend, group);
  const bet = await createBet(first, owner, group, { title: 'Quiet?' });
  const start = await pull(first, owner);
  expect(start.hasMore).toBe(false);
  return { owner, friend, group, bet, cursor: start.cursor };
}

/** Pulls until the answer comes from memory again (the instance listens again), with nothing new. */
async function untilFromMemory(on: TestServer, user: AuthResponse, cursor: string) {
  let latest = cursor;
  await vi.waitFor(
    async () => {
      await unrelatedWrite();
      const answer = await pull(on, user, latest);
      expect(answer.bets).toEqual([]);
      const isFromMemory = snapshotOf(answer.cursor) === snapshotOf(latest);
      latest = answer.cursor;
      expect(isFromMemory).toBe(true);
    },
    { timeout: 20_000, interval: 200 },
  );
  return latest;
}

describe('a pull with nothing new, answered from memory', () => {
  it('is answered from memory, and a change made through another instance is in the next pull', async () => {
    const { owner, friend, bet, cursor } = await setUp();
    // The first database answer gave this instance's position; from now on memory answers.
    const quiet = await untilFromMemory(first, owner, cursor);

    await placeWager(second, friend, bet, 'yes', 3);
    const changed = await pull(first, owner, quiet);
    expect(changed.bets.map((row) => [row.id, row.wagerCount])).toEqual([[bet.id, 1]]);
    expect(snapshotOf(changed.cursor)).not.toBe(snapshotOf(quiet));
  });

  it('reports a push made through another instance: its last mutation id and its refusal', async () => {
    const { owner, cursor } = await setUp();
    const quiet = await untilFromMemory(first, owner, cursor);
    const before = await pull(first, owner, quiet);
    expect(before.lastMutationIDChanges).toEqual({});

    const pushed = await second.request('POST', '/api/sync/push', {
      token: owner.accessToken,
      body: {
        ...device,
        mutations: [{ id: 1, name: 'createBet', args: { body: { title: '' } } }],
      },
    });
    expect(pushed.status, pushed.text).toBe(200);
    const after = await pull(first, owner, before.cursor);
    expect(after.lastMutationIDChanges).toEqual({ [device.clientID]: 1 });
    expect(after.mutationOutcomes).toEqual([
      expect.objectContaining({ clientID: device.clientID, id: 1, error: expect.anything() }),
    ]);
    // And again from memory, the same ids, no outcome twice.
    const again = await untilFromMemory(first, owner, after.cursor);
    const remembered = await pull(first, owner, again);
    expect(remembered.lastMutationIDChanges).toEqual({ [device.clientID]: 1 });
    expect(remembered.mutationOutcomes).toEqual([]);
  });

  it('sees a group the player joins through another instance', async () => {
    const { owner, cursor } = await setUp();
    const quiet = await untilFromMemory(first, owner, cursor);
    const other = await createGroup(second, await createPlayer(second, 'Host'));
    await joinGroup(second, owner, other);
    const changed = await pull(first, owner, quiet);
    expect(changed.groups.map((row) => row.id)).toEqual([other.id]);
  });
});

describe.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
  'when the listening connection is cut',
  () => {
    it('misses no change made while it was down, and answers from memory once it listens again', async () => {
      const { owner, friend, bet, cursor } = await setUp();
      const quiet = await untilFromMemory(first, owner, cursor);

      // Both instances' listening connections, as a failover or an idle timeout would.
      const cut = (await first.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
      )) as unknown as { rows: unknown[] };
      expect(cut.rows.length).toBe(2);
      await placeWager(second, friend, bet, 'yes', 2);
      const changed = await pull(first, owner, quiet);
      expect(changed.bets.map((row) => [row.id, row.wagerCount])).toEqual([[bet.id, 1]]);

      const again = await untilFromMemory(first, owner, changed.cursor);
      await placeWager(first, owner, bet, 'no', 1);
      const next = await pull(first, owner, again);
      expect(next.bets.map((row) => [row.id, row.wagerCount])).toEqual([[bet.id, 2]]);
    });
  },
);
