import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from '../../../src/server/admin/admin-cli';
import { freePort, startServerProcess, type ServerProcess } from '../../e2e/server-process';
import { emptyPostgresDatabase } from '../harness';
import { ADMIN_SCRIPT, hunchEnv, spawnProcess } from '../spawned-process';

// The operator's commands (`npm run admin -- …`, src/server/admin/admin-cli.ts) beside a real
// server process: on PGlite they refuse while Hunch holds DATA_DIR and work once it is stopped;
// on PostgreSQL they work while it serves, and what they end ends on the live server. One run
// goes through a process of its own, as an operator's does (its exit code, no stack trace); the
// others call the same function in this process, with what it prints captured.

const isPostgres = process.env.HUNCH_TEST_DB === 'postgres';
const PASSWORD = 'Correct-horse-1';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-admin-'));
let databaseUrl: string | undefined;
let dropDatabase = async () => undefined as void;
let server: ServerProcess | undefined;
let port: number;

beforeAll(async () => {
  port = await freePort();
  if (isPostgres) {
    const database = await emptyPostgresDatabase('hunch_admin');
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  server = await startServerProcess({ port, dataDir, databaseUrl });
}, 240_000);
afterAll(async () => {
  await server?.stop();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const adminEnv = (overrides: Record<string, string | undefined> = {}) =>
  hunchEnv({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, PUBLIC_URL: server!.url, ...overrides });

/** `npm run admin -- …` as a process of its own. */
async function adminProcess(...args: string[]) {
  const child = spawnProcess(process.execPath, [ADMIN_SCRIPT, ...args], adminEnv());
  const { code } = await child.exited(180_000);
  return { code, output: child.output() };
}

/** The same command in this process: its exit code and every line it printed. */
async function admin(...args: string[]) {
  return adminWith(adminEnv(), ...args);
}

async function adminWith(env: NodeJS.ProcessEnv, ...args: string[]) {
  const lines: string[] = [];
  const code = await runAdminCli(args, env, {
    out: (line) => lines.push(line),
    error: (line) => lines.push(line),
  });
  return { code, output: lines.join('\n') };
}

async function call(method: string, route: string, body?: unknown, token?: string) {
  const response = await fetch(server!.url + route, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function register(name: string) {
  const email = `${name}.${port}@example.com`;
  const response = await call('POST', '/auth/register', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    displayName: name,
    username: `${name}_${port}`,
    email,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    appName: 'hunch',
  });
  expect(response.status).toBe(201);
  return { email, token: response.body.accessToken as string };
}

/** A personal API token of the account (POST /api/tokens). */
async function apiToken(accessToken: string) {
  const made = await call('POST', '/api/tokens', { name: 'bot', scopes: ['read'] }, accessToken);
  expect(made.status).toBe(201);
  return made.body.token as string;
}

const signIn = (email: string, password = PASSWORD) =>
  call('POST', '/auth/login', { email, password, appName: 'hunch' });

describe('npm run admin: mistakes in the command line', () => {
  it('prints the usage for a missing, unknown or malformed command, and 0 for --help', async () => {
    for (const args of [
      [],
      ['users'],
      ['users', 'frobnicate'],
      ['users', 'delete'],
      ['users', 'list', 'x'],
    ]) {
      const answer = await admin(...args);
      expect(answer.code, args.join(' ')).toBe(2);
      expect(answer.output).toMatch(/^Usage: npm run admin -- <command>/);
    }
    expect(await admin('--help')).toMatchObject({
      code: 0,
      output: expect.stringMatching(/^Usage:/),
    });
  });

  it('names a bad variable in one line, without a stack trace, before opening any database', async () => {
    const answer = await adminWith(adminEnv({ PORT: 'eighty' }), 'users', 'list');
    expect(answer.code).toBe(1);
    expect(answer.output).toMatch(/PORT/);
    expect(answer.output).toMatch(/^Invalid configuration: PORT: /);
    expect(answer.output.split('\n')).toHaveLength(1);
    expect(answer.output).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe.runIf(!isPostgres)('npm run admin on PGlite', () => {
  it('refuses while Hunch holds DATA_DIR, naming the running process, and works once it is stopped', async () => {
    const maya = await register('maya');
    const sam = await register('sam');
    const mayaBot = await apiToken(maya.token);
    expect((await call('GET', '/api/groups', undefined, mayaBot)).status).toBe(200);

    const locked = await adminProcess('users', 'list');
    expect(locked.code).toBe(1);
    expect(locked.output).toMatch(/Hunch is running on this data folder \(pid \d+\)/);
    expect(locked.output).toMatch(/DATA_DIR is locked\. Stop Hunch/);
    expect(locked.output).not.toMatch(/at .*\.ts:\d+/);

    await server!.stop();
    const list = await admin('users', 'list');
    expect(list.code).toBe(0);
    expect(list.output).toContain(maya.email);
    expect(list.output).toContain(sam.email);

    const reset = await admin('users', 'reset-password', maya.email.toUpperCase());
    expect(reset.code).toBe(0);
    const link = /\/reset-password\/(\S+)/.exec(reset.output)?.[1];
    expect(link).toBeDefined();

    const deleted = await admin('users', 'delete', sam.email);
    expect(deleted.code).toBe(0);
    const unknown = await admin('users', 'delete', sam.email);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain(`No account has the email ${sam.email}.`);
    const notEmail = await admin('users', 'sessions-revoke', 'maya');
    expect(notEmail).toEqual({ code: 1, output: '"maya" is not an email address.' });
    // A token is a session for another program: it ends with the others.
    expect(await admin('users', 'sessions-revoke', maya.email)).toEqual({
      code: 0,
      output: `Signed ${maya.email} out everywhere and revoked 1 API token.`,
    });

    await server!.start();
    expect((await call('GET', '/api/groups', undefined, mayaBot)).status).toBe(401);
    expect((await call('GET', '/auth/users/me', undefined, maya.token)).status).toBe(401);
    // The printed link works once, as a mailed one does.
    const newPassword = 'Another-horse-2';
    const used = await call('POST', '/auth/reset-password', {
      token: link,
      password: newPassword,
      passwordConfirm: newPassword,
    });
    expect(used.status).toBe(200);
    expect((await signIn(maya.email, newPassword)).status).toBe(200);
    expect((await signIn(sam.email)).status).toBe(401);
  }, 600_000);
});

describe.runIf(isPostgres)('npm run admin on PostgreSQL', () => {
  it('ends sessions and deletes accounts while Hunch serves: the live server refuses their tokens', async () => {
    const maya = await register('maya');
    const sam = await register('sam');
    expect((await call('GET', '/auth/users/me', undefined, maya.token)).status).toBe(200);
    const mayaBot = await apiToken(maya.token);
    expect((await call('GET', '/api/groups', undefined, mayaBot)).status).toBe(200);

    const revoked = await admin('users', 'sessions-revoke', maya.email);
    expect(revoked.code).toBe(0);
    expect((await call('GET', '/auth/users/me', undefined, maya.token)).status).toBe(401);
    expect((await call('GET', '/api/groups', undefined, mayaBot)).status).toBe(401);
    expect((await signIn(maya.email)).status).toBe(200);

    expect((await admin('users', 'delete', sam.email)).code).toBe(0);
    expect((await call('GET', '/auth/users/me', undefined, sam.token)).status).toBe(401);
    expect((await signIn(sam.email)).status).toBe(401);
  }, 600_000);
});
