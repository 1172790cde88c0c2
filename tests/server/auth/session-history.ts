import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUser, login, useTestServer, type TestServer } from '../harness';

// The invariant of auth/session-end.test.ts (which runs these, on PGlite and on PostgreSQL),
// over random histories: a token passes exactly while its session lives.

type Step =
  | { kind: 'call' }
  | { kind: 'login'; on: number }
  | { kind: 'refresh'; pick: number; on: number }
  | { kind: 'signOut'; pick: number; on: number }
  | { kind: 'signOutEverywhere'; pick: number; on: number }
  | { kind: 'changePassword'; pick: number; on: number }
  | { kind: 'delete'; pick: number; on: number };

function stepArb(instances: number): fc.Arbitrary<Step> {
  const pick = fc.nat({ max: 7 });
  const on = fc.nat({ max: instances - 1 });
  const kind = <K extends Step['kind']>(name: K) => fc.constant(name);
  return fc.oneof(
    { weight: 2, arbitrary: fc.record({ kind: kind('call') }) },
    { weight: 2, arbitrary: fc.record({ kind: kind('login'), on }) },
    { weight: 3, arbitrary: fc.record({ kind: kind('refresh'), pick, on }) },
    { weight: 2, arbitrary: fc.record({ kind: kind('signOut'), pick, on }) },
    { weight: 1, arbitrary: fc.record({ kind: kind('signOutEverywhere'), pick, on }) },
    { weight: 1, arbitrary: fc.record({ kind: kind('changePassword'), pick, on }) },
    { weight: 1, arbitrary: fc.record({ kind: kind('delete'), pick, on }) },
  ) as fc.Arbitrary<Step>;
}

/**
 * Runs `steps` against `servers`, checking after each that every access token passes exactly while
 * its session is live, on every server.
 */
async function runHistory(servers: TestServer[], steps: Step[]) {
  const user = await createUser(servers[0]!);
  let password = user.password;
  // The model: sessions (refresh token families) and the access tokens issued in each.
  const sessions = [{ refreshToken: user.refreshToken, isLive: true }];
  const tokens = [{ accessToken: user.accessToken, session: 0 }];
  let isDeleted = false;
  const startSession = (body: { accessToken: string; refreshToken: string }) => {
    sessions.push({ refreshToken: body.refreshToken, isLive: true });
    tokens.push({ accessToken: body.accessToken, session: sessions.length - 1 });
  };
  const endAll = () => {
    for (const session of sessions) session.isLive = false;
  };
  const tokenAt = (pick: number) => {
    const token = tokens[pick % tokens.length]!;
    return { accessToken: token.accessToken, isLive: sessions[token.session]!.isLive };
  };

  for (const step of steps) {
    if (step.kind !== 'call') {
      const server = servers[step.on]!;
      switch (step.kind) {
        case 'login': {
          const response = await login(server, user.email, password);
          expect(response.status).toBe(isDeleted ? 401 : 200);
          if (!isDeleted) startSession(response.body);
          break;
        }
        case 'refresh': {
          const index = step.pick % sessions.length;
          const session = sessions[index]!;
          const response = await server.request('POST', '/auth/refresh-token', {
            body: { refreshToken: session.refreshToken },
          });
          expect(response.status).toBe(session.isLive ? 200 : 401);
          if (session.isLive) {
            session.refreshToken = response.body.refreshToken;
            tokens.push({ accessToken: response.body.accessToken, session: index });
          }
          break;
        }
        case 'signOut': {
          const session = sessions[step.pick % sessions.length]!;
          const response = await server.request('POST', '/auth/revoke-token', {
            body: { refreshToken: session.refreshToken },
          });
          expect(response.status).toBe(200);
          session.isLive = false;
          break;
        }
        case 'signOutEverywhere': {
          const token = tokenAt(step.pick);
          const response = await server.request('DELETE', '/auth/users/me/sessions', {
            token: token.accessToken,
          });
          expect(response.status).toBe(token.isLive ? 200 : 401);
          if (token.isLive) endAll();
          break;
        }
        case 'changePassword': {
          const token = tokenAt(step.pick);
          const next = `Changed-pass-${randomBytes(3).toString('hex')}`;
          const response = await server.request('PUT', '/auth/users/me', {
            token: token.accessToken,
            body: { password: next, passwordConfirm: next, currentPassword: password },
          });
          expect(response.status).toBe(token.isLive ? 200 : 401);
          if (token.isLive) {
            endAll();
            password = next;
            startSession(response.body);
          }
          break;
        }
        case 'delete': {
          const token = tokenAt(step.pick);
          const response = await server.request('DELETE', '/auth/users/me', {
            token: token.accessToken,
            body: { currentPassword: password },
          });
          expect(response.status).toBe(token.isLive ? 200 : 401);
          if (token.isLive) {
            endAll();
            isDeleted = true;
          }
          break;
        }
      }
    }
    for (const probe of servers)
      for (const [index, token] of tokens.entries())
        for (const path of ['/auth/users/me', '/api/groups']) {
          const response = await probe.request('GET', path, { token: token.accessToken });
          expect(response.status, `token ${index}, ${path} after ${JSON.stringify(step)}`).toBe(
            sessions[token.session]!.isLive ? 200 : 401,
          );
        }
  }
}

/** The property tests, on one instance and (with Redis) on two. */
export function describeSessionHistories(): void {
  describe('a token passes exactly while its session lives (property test)', () => {
    const server = useTestServer();

    it('holds over random histories of sign-ins, refreshes and endings', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb(1), { minLength: 1, maxLength: 8 }), (steps) =>
          runHistory([server], steps),
        ),
        { numRuns: 15 },
      );
    }, 180_000);
  });

  describe.runIf(process.env.REDIS_URL)(
    'a token passes exactly while its session lives, on two instances (property test)',
    () => {
      const env = {
        REDIS_URL: process.env.REDIS_URL!,
        JWT_SECRET: randomBytes(24).toString('hex'),
      };
      const realtimeRedisKey = `hunch-test-history-${process.pid}-${randomBytes(4).toString('hex')}`;
      const first = useTestServer({ env, realtimeRedisKey });
      const second = useTestServer(() => ({ env, realtimeRedisKey, database: first.database }));

      it('holds whichever instance ends the session and whichever is asked next', async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(stepArb(2), { minLength: 1, maxLength: 8 }), (steps) =>
            runHistory([first, second], steps),
          ),
          { numRuns: 10 },
        );
      }, 180_000);
    },
  );
}
