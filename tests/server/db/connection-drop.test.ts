import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import { createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { assertLedgerMatchesMemberships } from '../ledger-assertions';
import { createBet, NO_EXPIRY_TIMER } from '../bets/bet.factories';
import { listComments, postComment } from '../comments/comment.factories';

// A failover or a PgBouncer restart drops every connection of the pool, some of them in the
// middle of a transaction (audit item 2). The writes in flight fail with 503
// database_unavailable, nothing is half-applied, and the process keeps serving; a read runs
// once more on a fresh connection before any 503 (issue 41, finding 11).

const PLAYERS = 12;
const BETS = 6;

describe.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
  'PostgreSQL connections dropped under load',
  () => {
    const server = useTestServer(NO_EXPIRY_TIMER);
    let admin: pg.Client;

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
    });

    it('answers 503 for what was in flight, applies nothing by halves, and keeps serving', async () => {
      const owner = await createPlayer(server, 'Owner');
      const group = await createGroup(server, owner, { defaultPoints: 1000 });
      const players: AuthResponse[] = [];
      for (let index = 0; index < PLAYERS; index++) {
        const player = await createPlayer(server, 'Wagerer');
        await joinGroup(server, player, group);
        players.push(player);
      }
      const bets: Bet[] = [];
      for (let index = 0; index < BETS; index++) bets.push(await createBet(server, owner, group));

      const current = (await server.database.db.execute(
        sql`select current_database() as name`,
      )) as unknown as { rows: Array<{ name: string }> };
      const name = current.rows[0]!.name;
      const statuses: Array<{ status: number; code?: string }> = [];
      let running = true;
      const wagerLoop = async (player: AuthResponse, offset: number) => {
        let round = 0;
        while (running) {
          const bet = bets[(offset + round) % BETS]!;
          round += 1;
          const placed = await server.request('POST', '/api/bets/wagers', {
            token: player.accessToken,
            body: { betId: bet.id, prediction: round % 2 ? 'yes' : 'no', points: 1 },
          });
          statuses.push({ status: placed.status, code: placed.body?.code });
          if (placed.status === 201) {
            const changed = await server.request('PUT', `/api/bets/wagers/${placed.body.id}`, {
              token: player.accessToken,
              body: { prediction: 'no', points: 3 },
            });
            statuses.push({ status: changed.status, code: changed.body?.code });
          }
        }
      };
      const load = players.map((player, index) => wagerLoop(player, index));
      /** Resolves once `count` more answers other than 503 came back: the pool serves (again). */
      const served = (count: number) => {
        const from = statuses.length;
        return expect
          .poll(() => statuses.slice(from).filter((entry) => entry.status !== 503).length, {
            timeout: 30_000,
            interval: 5,
          })
          .toBeGreaterThanOrEqual(count);
      };
      // Drop every connection of the app's pool a few times while the wagers run: each time
      // once the pool has served again since the last drop.
      for (let drop = 0; drop < 4; drop++) {
        await served(PLAYERS);
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
      }
      await served(PLAYERS);
      running = false;
      await Promise.all(load);

      const unavailable = statuses.filter((entry) => entry.status === 503);
      expect(unavailable.length, 'requests caught by a drop').toBeGreaterThan(0);
      expect(new Set(unavailable.map((entry) => entry.code))).toEqual(
        new Set(['database_unavailable']),
      );
      // Everything else is an ordinary answer: a wager, or a rule's refusal (one wager per bet).
      expect(statuses.filter((entry) => entry.status >= 500 && entry.status !== 503)).toEqual([]);

      // The pool recovered: the process serves as before, and the ledger holds.
      const after = await server.request('GET', `/api/groups/${group.id}/leaderboard`, {
        token: owner.accessToken,
      });
      expect(after.status).toBe(200);
      expect((await server.request('GET', '/readyz')).status).toBe(200);
      await assertLedgerMatchesMemberships(server.database);
    });

    /**
     * Runs `request` while `table` is locked, kills the app's connection waiting on that lock,
     * then lets go of the lock: the request's statement lost its connection mid-flight.
     */
    async function killedWhileWaitingOn<T>(table: string, request: () => Promise<T>): Promise<T> {
      const current = (await server.database.db.execute(
        sql`select current_database() as name`,
      )) as unknown as { rows: Array<{ name: string }> };
      const database = current.rows[0]!.name;
      // The lock lives in the test's own database: the locker connects there.
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${database}`;
      const locker = new pg.Client({ connectionString: url.toString() });
      await locker.connect();
      try {
        await locker.query('begin');
        await locker.query(`lock table ${table} in access exclusive mode`);
        const answer = request();
        const waiting = async () =>
          (
            await admin.query<{ pid: number }>(
              `select pid from pg_stat_activity
                where datname = $1 and wait_event_type = 'Lock' and pid <> $2`,
              [database, (locker as unknown as { processID: number }).processID],
            )
          ).rows;
        await expect.poll(async () => (await waiting()).length, { interval: 5 }).toBe(1);
        for (const { pid } of await waiting())
          await admin.query('select pg_terminate_backend($1)', [pid]);
        await locker.query('rollback');
        return await answer;
      } finally {
        await locker.end();
      }
    }

    it('answers a read whose connection was killed from a fresh one, and a write 503 with nothing applied', async () => {
      const owner = await createPlayer(server, 'Reader');
      const group = await createGroup(server, owner, { defaultPoints: 100 });
      const bet = await createBet(server, owner, group);
      const period = `from=${encodeURIComponent('2026-01-08T00:00:00.000Z')}&previousFrom=${encodeURIComponent('2026-01-01T00:00:00.000Z')}`;

      // A statement outside a transaction: the access check reading the membership.
      const group200 = await killedWhileWaitingOn('memberships', () =>
        server.request('GET', `/api/groups/${group.id}`, { token: owner.accessToken }),
      );
      expect(group200.status, JSON.stringify(group200.body)).toBe(200);
      // A read-only transaction: the period leaderboard reads the ledger under one snapshot.
      const leaderboard = await killedWhileWaitingOn('ledger', () =>
        server.request('GET', `/api/groups/${group.id}/leaderboard/period?${period}`, {
          token: owner.accessToken,
        }),
      );
      expect(leaderboard.status, JSON.stringify(leaderboard.body)).toBe(200);
      // A write is never run again blindly: its COMMIT may have landed.
      const comment = await killedWhileWaitingOn('bet_comments', () =>
        postComment(server, owner, bet, 'lost with its connection'),
      );
      expect(comment.status).toBe(503);
      expect(comment.body).toMatchObject({ code: 'database_unavailable' });
      expect((await listComments(server, owner, bet)).body).toEqual([]);
    });
  },
);
