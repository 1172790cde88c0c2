import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { refreshTokens } from '../../../src/server/db/schema';
import { connectAside, waitForLockWaiters } from '../db/aside-connection';
import { createUser, useTestServer, type TestResponse } from '../harness';

// A refresh racing a sign-out of the same session, for auth/session-end.test.ts (which runs it).
// Both lock the account's row before the session's tokens (src/server/db/README.md, "Lock
// order"): run in the other order, a rotation holding its token and waiting for the account
// row (its new token's key) met a sign-out holding the row and waiting for that token, and
// PostgreSQL ended one of them as a deadlock victim.

/** Whether two of the connections waiting for a lock wait for each other (a deadlock, before PostgreSQL breaks it). */
async function isDeadlocked(aside: pg.Client): Promise<boolean> {
  await aside.query('select pg_stat_clear_snapshot()');
  const result = await aside.query<{ cycles: number }>(
    `select count(*)::int as cycles from pg_stat_activity a, pg_stat_activity b
     where a.datname = current_database() and b.datname = current_database() and a.pid < b.pid
       and b.pid = any(pg_blocking_pids(a.pid)) and a.pid = any(pg_blocking_pids(b.pid))`,
  );
  return result.rows[0]!.cycles > 0;
}

export function describeRefreshRaces(): void {
  describe.runIf(process.env.HUNCH_TEST_DB === 'postgres')('a refresh racing a sign-out', () => {
    const server = useTestServer();

    it('takes the account row first, so the two never deadlock, and the sign-out ends the rotated token too', async () => {
      for (let trial = 0; trial < 5; trial += 1) {
        const user = await createUser(server);
        const aside = await connectAside(server);
        try {
          // Hold the account row, so the sign-out waits for it first and the refresh after.
          await aside.query('begin');
          await aside.query('select id from users where id = $1 for update', [user.user.id]);
          const signOut = server.request('POST', '/auth/revoke-token', {
            body: { refreshToken: user.refreshToken },
          });
          await waitForLockWaiters(aside, 1);
          const refresh = server.request('POST', '/auth/refresh-token', {
            body: { refreshToken: user.refreshToken },
          });
          await waitForLockWaiters(aside, 2);
          await aside.query('commit');
          let answered: TestResponse[] | undefined;
          void Promise.all([signOut, refresh]).then((answers) => (answered = answers));
          // Either both answer, or the two wait for each other until PostgreSQL breaks it.
          await expect
            .poll(async () => answered !== undefined || (await isDeadlocked(aside)), {
              timeout: 10_000,
              interval: 10,
            })
            .toBe(true);
          expect(await isDeadlocked(aside)).toBe(false);
          const [ended, refreshed] = await Promise.all([signOut, refresh]);
          expect(ended.status, ended.text).toBe(200);
          expect([200, 401]).toContain(refreshed.status);
          // Whichever ran first, no token of the session outlives the sign-out.
          const live = await server.database.db
            .select({ n: sql<number>`count(*)::int` })
            .from(refreshTokens)
            .where(
              sql`${eq(refreshTokens.userId, user.user.id)} and ${refreshTokens.revokedAt} is null`,
            );
          expect(live[0]!.n).toBe(0);
        } finally {
          await aside.end();
        }
      }
    });
  });
}
