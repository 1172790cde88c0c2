import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { serializeError } from '../../src/server/logging';
import { createBet } from './bets/bet.factories';
import { createGroup, createPlayer } from './groups/group.factories';
import { createUser, newAccount, useLoggingTestServer } from './harness';

// A NUL byte in any text field was a 500 whose log printed the statement's parameters, the
// argon2 hash and the email among them (audit item 6). Control characters are refused with
// 400 wherever text comes in, and no log line ever holds a query's values.

const { server, log } = useLoggingTestServer();

const NUL = 'a\u0000b';

describe('control characters in text', () => {
  it('are refused with 400 validation_failed on every kind of input, naming the field', async () => {
    const user = await createUser(server);
    const player = await createPlayer(server);
    const group = await createGroup(server, player);
    const bet = await createBet(server, player, group);
    const cases: Array<{
      method: string;
      path: string;
      body?: unknown;
      token?: string;
      field: string;
    }> = [
      {
        method: 'POST',
        path: '/auth/register',
        body: newAccount({ displayName: `Ada${NUL}` }),
        field: 'displayName',
      },
      {
        method: 'POST',
        path: '/auth/register',
        body: newAccount({ email: `ada${NUL}@example.com` }),
        field: 'email',
      },
      {
        method: 'POST',
        path: '/auth/login',
        body: { email: user.email, password: `x${NUL}` },
        field: 'password',
      },
      {
        method: 'POST',
        path: '/auth/register-guest',
        body: { displayName: `Guest\u0007`, appName: 'hunch' },
        field: 'displayName',
      },
      {
        method: 'POST',
        path: '/auth/forgot-password',
        body: { email: `a${NUL}@b.co` },
        field: 'email',
      },
      {
        method: 'POST',
        path: '/auth/reset-password',
        body: { token: NUL, password: 'Correct-horse-2', passwordConfirm: 'Correct-horse-2' },
        field: 'token',
      },
      {
        method: 'PUT',
        path: '/auth/users/me',
        body: { firstName: NUL },
        token: user.accessToken,
        field: 'firstName',
      },
      {
        method: 'POST',
        path: '/api/groups',
        body: { name: `Group ${NUL}` },
        token: player.accessToken,
        field: 'name',
      },
      {
        method: 'POST',
        path: '/api/groups/join-public',
        body: { groupName: NUL },
        token: player.accessToken,
        field: 'groupName',
      },
      {
        method: 'GET',
        path: '/api/groups/public?search=%00',
        token: player.accessToken,
        field: 'search',
      },
      {
        method: 'POST',
        path: '/api/bets',
        body: {
          title: `Rain${NUL}`,
          betType: 'yes_no',
          betTypeConfig: { yesLabel: NUL },
          baseWagerAmount: 1,
          expiresAt: bet.expiresAt,
          groupId: group.id,
        },
        token: player.accessToken,
        field: 'title',
      },
      {
        method: 'POST',
        path: '/api/bets/wagers',
        body: { betId: bet.id, prediction: `yes${NUL}`, points: 1 },
        token: player.accessToken,
        field: 'prediction',
      },
    ];
    for (const { method, path, body, token, field } of cases) {
      const response = await server.request(method, path, { body, token });
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(Object.keys(response.body.fieldErrors ?? {}), path).toEqual([field]);
    }
  });

  it('refuses C1 control characters (U+0080 to U+009F) as C0 ones', async () => {
    const user = await createUser(server);
    const player = await createPlayer(server);
    const group = await createGroup(server, player);
    const bet = await createBet(server, player, group);
    const cases = [
      { method: 'POST', path: `/api/bets/${bet.id}/comments`, body: { text: 'Hi\u0085there' } },
      { method: 'POST', path: '/api/groups', body: { name: 'Crew \u009B1m' } },
      { method: 'PUT', path: '/auth/users/me', body: { displayName: 'Ada\u0080' }, user },
    ];
    for (const { method, path, body, user: who = player } of cases) {
      const response = await server.request(method, path, { body, token: who.accessToken });
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(400);
      expect(response.body.fieldErrors).toEqual({
        [Object.keys(body)[0]!]: 'Must not contain control characters',
      });
    }
  });

  it('keeps tabs and line breaks where text has lines', async () => {
    const player = await createPlayer(server);
    const group = await createGroup(server, player, {
      description: 'Line one\nLine two\twith a tab\r\n',
    });
    expect(group.description).toContain('\n');
  });
});

describe('logs', () => {
  it("never hold a failed statement's parameters", async () => {
    const secret = '$argon2id$v=19$m=19456,t=2,p=1$secret-salt$secret-hash';
    let failure: unknown;
    try {
      await server.database.db.execute(
        sql`select ${secret}::text, ${'ada@example.com'}::text, ${NUL}::text`,
      );
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeDefined();
    const line = JSON.stringify(serializeError(failure));
    expect(line).toContain('select');
    expect(line).not.toContain('secret-hash');
    expect(line).not.toContain('ada@example.com');

    // And through the app's own logger: a request that fails after the database was asked.
    server.app.log.error({ err: failure }, 'unhandled error');
    expect(log()).toContain('unhandled error');
    expect(log()).not.toContain('secret-hash');
    expect(log()).not.toContain('ada@example.com');
  });
});
