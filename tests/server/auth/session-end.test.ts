import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { io, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME } from '../../../src/domain/constants';
import {
  AccessTokens,
  generateOpaqueToken,
  hashOpaqueToken,
} from '../../../src/server/auth/tokens';
import { LISTENER_APPLICATION_NAME } from '../../../src/server/db/connect';
import { groups, memberships, passwordResets } from '../../../src/server/db/schema';
import { loadOrCreateSecrets } from '../../../src/server/secrets';
import { createUser, login, useTestServer, type SignedInUser, type TestServer } from '../harness';
import { connectionError, connectSocket, type TestSocket } from '../realtime/test-socket';
import { listSignedInRoutes, routesAccepting, type AppRoute } from '../route-table';
import { deleteAccount } from './account-data.factories';
import { describeApiTokenEndings, firstEvent } from './api-token-endings';
import { describeRefreshRaces } from './refresh-races';
import { describeSessionHistories } from './session-history';

// An access token lived its 15 minutes whatever happened to its session: a deleted account
// still read, wrote, commented and registered push for the rest of that time, and so did a
// session signed out everywhere or a password changed. A token now passes only while its
// session (its refresh token family) is live, on every signed-in route and every instance, from
// the moment the session ends; its sockets close and none opens again.

/** How a session ends; `user`'s access token belongs to the session that ends. */
interface Ending {
  name: string;
  end(server: TestServer, user: SignedInUser): Promise<void>;
}

const NEW_PASSWORD = 'Brand-new-pass-5';

const ENDINGS: Ending[] = [
  {
    name: 'deleting the account',
    async end(server, user) {
      const response = await deleteAccount(server, user, user.password);
      expect(response.status, response.text).toBe(200);
    },
  },
  {
    name: 'signing out everywhere',
    async end(server, user) {
      const response = await server.request('DELETE', '/auth/users/me/sessions', {
        token: user.accessToken,
      });
      expect(response.status, response.text).toBe(200);
    },
  },
  {
    name: 'changing the password (the token of the device that changed it, too)',
    async end(server, user) {
      const response = await server.request('PUT', '/auth/users/me', {
        token: user.accessToken,
        body: {
          password: NEW_PASSWORD,
          passwordConfirm: NEW_PASSWORD,
          currentPassword: user.password,
        },
      });
      expect(response.status, response.text).toBe(200);
      // The new session the answer carries is live.
      expect(
        (await server.request('GET', '/api/groups', { token: response.body.accessToken })).status,
      ).toBe(200);
    },
  },
  {
    name: 'resetting the password',
    async end(server, user) {
      const token = generateOpaqueToken();
      await server.database.db.insert(passwordResets).values({
        userId: user.user.id,
        sentTo: user.email,
        tokenHash: hashOpaqueToken(token),
        expiresAt: new Date(Date.now() + TOKEN_LIFETIME.passwordResetSeconds * 1000),
      });
      const response = await server.request('POST', '/auth/reset-password', {
        body: { token, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD },
      });
      expect(response.status, response.text).toBe(200);
    },
  },
  {
    name: 'signing this session out',
    async end(server, user) {
      const response = await server.request('POST', '/auth/revoke-token', {
        body: { refreshToken: user.refreshToken },
      });
      expect(response.status, response.text).toBe(200);
    },
  },
  {
    name: 'replaying a rotated refresh token (the family is revoked)',
    async end(server, user) {
      const rotated = await server.request('POST', '/auth/refresh-token', {
        body: { refreshToken: user.refreshToken },
      });
      expect(rotated.status, rotated.text).toBe(200);
      // Warm the rotated token too: it belongs to the same family and must die with it.
      expect(
        (await server.request('GET', '/api/groups', { token: rotated.body.accessToken })).status,
      ).toBe(200);
      const replay = await server.request('POST', '/auth/refresh-token', {
        body: { refreshToken: user.refreshToken },
      });
      expect(replay.status).toBe(401);
      expect(
        (await server.request('GET', '/api/groups', { token: rotated.body.accessToken })).status,
      ).toBe(401);
    },
  },
];

/** How many groups a pushed run creates: as many as a push may carry. */
const PUSHED_GROUPS = 100;

/** The groups `userId` created, and their memberships still current. */
async function groupsCreatedBy(server: TestServer, userId: number) {
  const [row] = await server.database.db
    .select({
      created: sql<number>`count(distinct ${groups.id})::int`,
      currentMemberships: sql<number>`count(${memberships.userId}) filter (where ${memberships.leftAt} is null)::int`,
    })
    .from(groups)
    .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, userId)))
    .where(eq(groups.createdByUserId, userId));
  return row!;
}

/** Sockets opened at once per instance by one user, under the per-user cap (20). */
const SOCKETS_PER_INSTANCE = 15;
const SOCKET_ROUNDS = 6;

/**
 * Opens a socket with `token`: resolves with it once connected, or undefined once refused or
 * closed before it connected.
 */
function admission(server: TestServer, token: string): Promise<ClientSocket | undefined> {
  const socket = io(server.url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', () => resolve(undefined));
    socket.io.once('close', () => {
      if (!socket.connected) resolve(undefined);
    });
  });
}

/** Resolves when `socket` is closed, at once if it is already. */
function closed(socket: ClientSocket): Promise<void> {
  return new Promise((resolve) => {
    if (!socket.connected) resolve();
    else socket.once('disconnect', () => resolve());
  });
}

function disconnection(client: TestSocket): Promise<string> {
  return new Promise((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)));
}

/** Uses the token on each server (so a server that remembers live sessions knows this one) and opens a socket on each. */
async function warmUp(servers: TestServer[], user: SignedInUser, open: TestSocket[]) {
  const sockets: TestSocket[] = [];
  for (const server of servers) {
    const me = await server.request('GET', '/auth/users/me', { token: user.accessToken });
    expect(me.status, me.text).toBe(200);
    expect((await server.request('GET', '/api/groups', { token: user.accessToken })).status).toBe(
      200,
    );
    const socket = await connectSocket(server, user.accessToken);
    open.push(socket);
    sockets.push(socket);
  }
  return sockets;
}

async function expectRefusedEverywhere(
  servers: TestServer[],
  routes: readonly AppRoute[],
  user: SignedInUser,
  sockets: TestSocket[],
  dropped: Array<Promise<string>>,
) {
  for (const server of servers) {
    expect(await routesAccepting(server, routes, user.accessToken), server.url).toEqual([]);
    expect(await connectionError(server, { auth: { token: user.accessToken } })).toContain(
      'Authentication',
    );
  }
  expect(await Promise.all(dropped)).toEqual(sockets.map(() => 'transport close'));
}

describe('a session that ends, on one instance', () => {
  const server = useTestServer();
  const open: TestSocket[] = [];
  let routes: AppRoute[];
  beforeAll(async () => {
    routes = await listSignedInRoutes(server);
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });

  it('finds the signed-in routes of every feature', () => {
    const prefixes = new Set(routes.map((route) => route.pattern.split('/').slice(0, 3).join('/')));
    for (const family of [
      '/auth/users',
      '/auth/device-transfers',
      '/api/groups',
      '/api/bets',
      '/api/member',
      '/api/notifications',
      '/api/push-subscriptions',
    ])
      expect([...prefixes]).toContain(family);
    expect(routes.length).toBeGreaterThan(40);
  });

  it.each(ENDINGS)('is refused by every signed-in route after $name', async (ending) => {
    const user = await createUser(server);
    const sockets = await warmUp([server], user, open);
    const dropped = sockets.map(disconnection);

    await ending.end(server, user);

    await expectRefusedEverywhere([server], routes, user, sockets, dropped);
  });

  it("leaves the user's other sessions alone when one is signed out", async () => {
    const user = await createUser(server);
    const other = await login(server, user.email, user.password);
    await warmUp([server], user, open);
    await server.request('POST', '/auth/revoke-token', {
      body: { refreshToken: user.refreshToken },
    });
    expect((await server.request('GET', '/api/groups', { token: user.accessToken })).status).toBe(
      401,
    );
    expect(
      (await server.request('GET', '/api/groups', { token: other.body.accessToken })).status,
    ).toBe(200);
  });

  it('refuses a validly signed token that names no session', async () => {
    const user = await createUser(server);
    const claims = JSON.parse(
      Buffer.from(user.accessToken.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    // Signed with the server's own secret (generated into its DATA_DIR).
    const tokens = new AccessTokens(loadOrCreateSecrets(server.dataDir).jwtSecret);
    const withoutSession = await tokens.sign({
      id: user.user.id,
      appName: String(claims.app),
      isTemporary: false,
    });
    const unknownSession = await tokens.sign({
      id: user.user.id,
      appName: String(claims.app),
      isTemporary: false,
      sessionFamily: randomBytes(16).toString('hex'),
    });
    for (const token of [withoutSession, unknownSession]) {
      expect(await routesAccepting(server, routes, token)).toEqual([]);
      expect(await connectionError(server, { auth: { token } })).toContain('Authentication');
    }
  });
});

describe.runIf(process.env.REDIS_URL)('a session that ends, on two instances sharing Redis', () => {
  // One JWT secret (a token from A works on B) and one adapter key for the pair.
  const env = { REDIS_URL: process.env.REDIS_URL!, JWT_SECRET: randomBytes(24).toString('hex') };
  const realtimeRedisKey = `hunch-test-sessions-${process.pid}-${randomBytes(4).toString('hex')}`;
  const first = useTestServer({ env, realtimeRedisKey });
  const second = useTestServer(() => ({ env, realtimeRedisKey, database: first.database }));
  const open: TestSocket[] = [];
  const opened: ClientSocket[] = [];
  let routes: AppRoute[];
  beforeAll(async () => {
    routes = await listSignedInRoutes(first);
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
    for (const socket of opened.splice(0)) socket.close();
  });

  it.each(ENDINGS)('is refused by both after $name on the first', async (ending) => {
    const user = await createUser(first);
    const sockets = await warmUp([first, second], user, open);
    const dropped = sockets.map(disconnection);

    await ending.end(first, user);

    await expectRefusedEverywhere([second, first], routes, user, sockets, dropped);
  });

  it.each(ENDINGS)(
    'lets a push running on the second commit nothing after $name on the first answered',
    async (ending) => {
      const user = await createUser(first);
      const mutations = Array.from({ length: PUSHED_GROUPS }, (_, index) => ({
        id: index + 1,
        name: 'createGroup' as const,
        args: { body: { name: `Pushed ${randomBytes(6).toString('hex')}`, privacy: 'private' } },
      }));
      const running = firstEvent(second, 'groupCreated');
      const pushed = second.request('POST', '/api/sync/push', {
        token: user.accessToken,
        body: { clientGroupID: randomUUID(), clientID: randomUUID(), mutations },
      });
      await running;

      await ending.end(first, user);
      const atEnd = await groupsCreatedBy(first, user.user.id);
      const answer = await pushed;

      // Each write checks its caller under the account's row lock, which every end takes too.
      expect(await groupsCreatedBy(first, user.user.id)).toEqual(atEnd);
      if (atEnd.created < PUSHED_GROUPS) expect(answer.status, answer.text).toBe(401);
      // A deleted account is a current member nowhere, a group it created meanwhile included.
      if (ending.name === 'deleting the account') expect(atEnd.currentMemberships).toBe(0);
    },
  );

  it('closes every socket still being admitted when its session ends', async () => {
    for (let round = 0; round < SOCKET_ROUNDS; round += 1) {
      const user = await createUser(first);
      const attempts = [first, second].flatMap((server) =>
        Array.from({ length: SOCKETS_PER_INSTANCE }, () => admission(server, user.accessToken)),
      );
      // Once one is in, the others are being admitted on both instances: the session ends now.
      await Promise.race(attempts);
      const ended = await first.request('POST', '/auth/revoke-token', {
        body: { refreshToken: user.refreshToken },
      });
      expect(ended.status, ended.text).toBe(200);
      const admitted = (await Promise.all(attempts)).filter((socket) => socket !== undefined);
      opened.push(...admitted);
      // Each socket that got in is closed: none outlives its session (one that stayed would
      // keep this waiting until the test's limit).
      await Promise.all(admitted.map(closed));
    }
  });

  // On PostgreSQL each instance remembers the sessions it found live while its change
  // notifications hear of none ending (session-liveness.ts); without them it asks the database.
  it.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
    'is refused by both when the session ends while their listening connections are cut',
    async () => {
      const user = await createUser(first);
      const sockets = await warmUp([first, second], user, open);
      const dropped = sockets.map(disconnection);
      const cut = (await first.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
      )) as unknown as { rows: unknown[] };
      expect(cut.rows.length).toBe(2);

      await ENDINGS[1]!.end(first, user);

      await expectRefusedEverywhere([second, first], routes, user, sockets, dropped);
    },
  );
});

describeRefreshRaces();

describeSessionHistories();

describeApiTokenEndings();
