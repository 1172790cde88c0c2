import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { CreatedApiToken } from '../../../src/domain/api-tokens';
import { bets } from '../../../src/server/db/schema';
import { createUser, useTestServer, type SignedInUser, type TestServer } from '../harness';
import { deleteAccount } from './account-data.factories';
import { makeToken, revokeToken } from './api-token.factories';

// A personal API token ends as a session does, on every instance at once (session-liveness.ts:
// each instance remembers the tokens it found live until the database's notification, or on a
// lone instance the bus, says one may have ended). Called by session-end.test.ts, which runs on
// PostgreSQL too, with two instances sharing Redis as several instances do in production.

interface TokenEnding {
  name: string;
  end(server: TestServer, user: SignedInUser, token: CreatedApiToken): Promise<void>;
}

const NEW_PASSWORD = 'Brand-new-pass-9';

const TOKEN_ENDINGS: TokenEnding[] = [
  {
    name: 'revoking it',
    async end(server, user, token) {
      const response = await revokeToken(server, user, token.id);
      expect(response.status, response.text).toBe(200);
    },
  },
  {
    name: 'changing the password',
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
    },
  },
  {
    name: 'deleting the account',
    async end(server, user) {
      const response = await deleteAccount(server, user, user.password);
      expect(response.status, response.text).toBe(200);
    },
  },
];

/** Resolves when `server` publishes `event` (after the commit that caused it). */
export function firstEvent(server: TestServer, event: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = server.app.events.subscribe((published) => {
      if (published.event !== event) return;
      stop();
      resolve();
    });
  });
}

async function betsIn(server: TestServer, groupId: number): Promise<number> {
  const rows = await server.database.db
    .select({ id: bets.id })
    .from(bets)
    .where(eq(bets.groupId, groupId));
  return rows.length;
}

export function describeApiTokenEndings(): void {
  describe.runIf(process.env.REDIS_URL)('an API token that ends, on two instances', () => {
    const env = { REDIS_URL: process.env.REDIS_URL! };
    const first = useTestServer({ env });
    const second = useTestServer(() => ({ env, database: first.database }));

    it.each(TOKEN_ENDINGS)('is refused by both after $name on the first', async (ending) => {
      const user = await createUser(first);
      const token = await makeToken(first, user);
      // Each instance lets it in once, so each remembers it live.
      for (const server of [first, second])
        expect((await server.request('GET', '/api/groups', { token: token.token })).status).toBe(
          200,
        );

      await ending.end(first, user, token);

      for (const server of [second, first]) {
        const refused = await server.request('GET', '/api/groups', { token: token.token });
        expect(refused.status, server.url).toBe(401);
        expect(refused.body.code).toBe('invalid_api_token');
      }
    });

    it('lets a push running on the second commit nothing after the revocation on the first answered', async () => {
      const user = await createUser(first);
      // createGroup is no token's write: the pushed bets need a group of their own.
      const group = await first.request('POST', '/api/groups', {
        token: user.accessToken,
        body: { name: `Tokens ${randomBytes(4).toString('hex')}`, privacy: 'private' },
      });
      expect(group.status, group.text).toBe(201);
      const token = await makeToken(first, user, ['play']);
      const mutations = Array.from({ length: 100 }, (_, index) => ({
        id: index + 1,
        name: 'createBet' as const,
        args: {
          body: {
            title: `Pushed ${index}`,
            betType: 'yes_no',
            betTypeConfig: {},
            baseWagerAmount: 1,
            expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
            groupId: group.body.id,
          },
        },
      }));
      const running = firstEvent(second, 'betCreated');
      const pushed = second.request('POST', '/api/sync/push', {
        token: token.token,
        body: { clientGroupID: randomUUID(), clientID: randomUUID(), mutations },
      });
      await running;

      await TOKEN_ENDINGS[0]!.end(first, user, token);
      const betsAtEnd = await betsIn(first, group.body.id);
      const answer = await pushed;

      expect(await betsIn(first, group.body.id)).toBe(betsAtEnd);
      if (betsAtEnd < 100) {
        expect(answer.status, answer.text).toBe(401);
        expect(answer.body.code).toBe('invalid_api_token');
      }
    });
  });
}
