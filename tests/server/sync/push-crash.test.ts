import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import { freePort, startServerProcess, type ServerProcess } from '../../e2e/server-process';
import { emptyPostgresDatabase } from '../harness';
import { callProcess } from '../spawned-process';

// The crash window of a write (docs/architecture.md §4, §8): the real server, as a child
// process, is killed with SIGKILL right after a write commits and before it answers.
// - A pushed write (HUNCH_TEST_CRASH_AFTER_PUSH_COMMIT): started again on the same data, the
//   same push is skipped as applied, the write exists exactly once, and the pull reports its id.
// - A REST write sent with an Idempotency-Key (HUNCH_TEST_CRASH_AFTER_KEYED_WRITE_COMMIT;
//   writes sent without a key are left alone): started again, the client's retry with the same
//   key gets the first answer, at once, and nothing is created twice — a comment, a bet and a
//   wager alike.

const isPostgres = process.env.HUNCH_TEST_DB === 'postgres';
const CRASH_TIMEOUT_MS = 300_000;
const KEYED_CRASH_ENV = { HUNCH_TEST_CRASH_AFTER_KEYED_WRITE_COMMIT: 'true' };

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase = async () => undefined as void;
let server: ServerProcess | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-crash-'));
  if (!isPostgres) return;
  const database = await emptyPostgresDatabase('hunch_crash');
  databaseUrl = database.url;
  dropDatabase = database.drop;
});

afterAll(async () => {
  await server?.stop();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = callProcess;

describe('a crash between a pushed write’s commit and its answer', () => {
  it(
    'leaves the write applied once: the replay is skipped and the pull reports it',
    async () => {
      const port = await freePort();
      server = await startServerProcess({
        port,
        dataDir,
        databaseUrl,
        env: { HUNCH_TEST_CRASH_AFTER_PUSH_COMMIT: 'true' },
      });
      const url = server.url;
      const guest = await call<{ accessToken: string }>(url, 'POST', '/auth/register-guest', '', {
        displayName: 'Crash Tester',
        appName: 'hunch',
      });
      expect(guest.status).toBe(201);
      const token = guest.body.accessToken;
      const group = await call<{ id: number }>(url, 'POST', '/api/groups', token, {
        name: `Crash ${randomUUID()}`,
        privacy: 'public',
        defaultPoints: 100,
      });
      expect(group.status).toBe(201);

      const device = { clientGroupID: randomUUID(), clientID: randomUUID() };
      const push = {
        ...device,
        mutations: [
          {
            id: 1,
            name: 'createBet',
            args: {
              body: {
                title: 'Survives the crash?',
                betType: 'yes_no',
                betTypeConfig: {},
                baseWagerAmount: 1,
                expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
                groupId: group.body.id,
              },
            },
          },
        ],
      };
      // The process dies after the commit: no answer comes.
      await expect(call(url, 'POST', '/api/sync/push', token, push)).rejects.toThrow();
      // Its process is gone, and its port with it.
      await server.exited();

      // The same data, without the hook; the device sends its write again.
      server = await startServerProcess({ port, dataDir, databaseUrl });
      const again = await call<{
        lastMutationID: number;
        results: Array<{ id: number; ok: boolean; skipped?: boolean; createdId?: number }>;
      }>(url, 'POST', '/api/sync/push', token, push);
      expect(again.status).toBe(200);
      expect(again.body.lastMutationID).toBe(1);
      expect(again.body.results).toEqual([
        { id: 1, ok: true, skipped: true, createdId: expect.any(Number) },
      ]);

      const bets = await call<Array<{ id: number; title: string }>>(
        url,
        'GET',
        `/api/bets/group/${group.body.id}`,
        token,
      );
      expect(bets.body.map((bet) => [bet.id, bet.title])).toEqual([
        [again.body.results[0]!.createdId, 'Survives the crash?'],
      ]);

      const pulled = await call<{
        lastMutationIDChanges: Record<string, number>;
        mutationOutcomes: Array<{ id: number; createdId: number }>;
        bets: Array<{ title: string }>;
      }>(
        url,
        'GET',
        `/api/member/state?cursor=${MIRROR_START_CURSOR}&clientGroupID=${device.clientGroupID}`,
        token,
      );
      expect(pulled.status).toBe(200);
      expect(pulled.body.lastMutationIDChanges).toEqual({ [device.clientID]: 1 });
      expect(pulled.body.mutationOutcomes).toMatchObject([
        { id: 1, createdId: again.body.results[0]!.createdId },
      ]);
      expect(pulled.body.bets.map((bet) => bet.title)).toEqual(['Survives the crash?']);
    },
    CRASH_TIMEOUT_MS,
  );
});

interface Answer<T> {
  status: number;
  body: T;
  replayed: string | null;
}

function keyedCall<T>(
  method: string,
  route: string,
  token: string,
  body?: unknown,
  key?: string,
): Promise<Answer<T>> {
  return callProcess<T>(server!.url, method, route, token, body, key);
}

/**
 * Sends a keyed write to a server that dies after its commit, starts the server again on the
 * same data, and sends the write again with the same key: answers the retry.
 */
async function crashThenRetry<T>(
  port: number,
  method: string,
  route: string,
  token: string,
  body: unknown,
): Promise<Answer<T>> {
  const key = randomUUID();
  // The process dies after the commit: no answer comes.
  await expect(keyedCall(method, route, token, body, key)).rejects.toThrow();
  await server!.exited();
  server = await startServerProcess({ port, dataDir, databaseUrl, env: KEYED_CRASH_ENV });
  return keyedCall<T>(method, route, token, body, key);
}

describe('a crash between a keyed REST write’s commit and its answer', () => {
  it(
    'answers the retry with the first answer and creates nothing twice',
    async () => {
      // After the push's case: the same data, a server that crashes after keyed REST writes.
      await server?.stop();
      const port = await freePort();
      server = await startServerProcess({ port, dataDir, databaseUrl, env: KEYED_CRASH_ENV });
      const guest = await keyedCall<{ accessToken: string; user: { id: number } }>(
        'POST',
        '/auth/register-guest',
        '',
        { displayName: 'Crash Tester', appName: 'hunch' },
      );
      expect(guest.status).toBe(201);
      const token = guest.body.accessToken;
      // Sent without a key: these commit and answer.
      const group = await keyedCall<{ id: number }>('POST', '/api/groups', token, {
        name: `REST crash ${randomUUID()}`,
        privacy: 'public',
        defaultPoints: 100,
      });
      expect(group.status).toBe(201);
      const betBody = (title: string) => ({
        title,
        betType: 'yes_no',
        betTypeConfig: {},
        baseWagerAmount: 1,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        groupId: group.body.id,
      });
      const target = await keyedCall<{ id: number }>(
        'POST',
        '/api/bets',
        token,
        betBody('Commented on'),
      );
      expect(target.status).toBe(201);

      // A bet.
      const bet = await crashThenRetry<{ id: number; title: string }>(
        port,
        'POST',
        '/api/bets',
        token,
        betBody('Survives the crash?'),
      );
      expect(bet).toMatchObject({ status: 201, replayed: 'true' });
      expect(bet.body.title).toBe('Survives the crash?');
      const bets = await keyedCall<Array<{ id: number; title: string }>>(
        'GET',
        `/api/bets/group/${group.body.id}`,
        token,
      );
      expect(
        bets.body.filter((row) => row.title === 'Survives the crash?').map((row) => row.id),
      ).toEqual([bet.body.id]);

      // A comment.
      const comment = await crashThenRetry<{ id: number; text: string }>(
        port,
        'POST',
        `/api/bets/${target.body.id}/comments`,
        token,
        { text: 'Said once' },
      );
      expect(comment).toMatchObject({ status: 201, replayed: 'true' });
      const comments = await keyedCall<Array<{ id: number }>>(
        'GET',
        `/api/bets/${target.body.id}/comments`,
        token,
      );
      expect(comments.body.map((row) => row.id)).toEqual([comment.body.id]);

      // A wager: the retry is the player's own first answer, not "already placed".
      const wager = await crashThenRetry<{ id: number; points: number }>(
        port,
        'POST',
        '/api/bets/wagers',
        token,
        { betId: target.body.id, prediction: 'yes', points: 2 },
      );
      expect(wager).toMatchObject({ status: 201, replayed: 'true' });
      expect(wager.body.points).toBe(2);
      const membership = await keyedCall<{ availablePoints: number; totalPoints: number }>(
        'GET',
        `/api/groups/${group.body.id}/membership`,
        token,
      );
      // Debited once.
      expect(membership.body).toMatchObject({ totalPoints: 100, availablePoints: 98 });
    },
    CRASH_TIMEOUT_MS,
  );
});
