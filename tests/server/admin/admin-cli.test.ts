import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../../e2e/server-process';
import { emptyPostgresDatabase } from '../harness';
import { hunchEnv, spawnProcess, TSX } from '../spawned-process';

// The operator's commands (`npm run admin -- …`, src/server/admin/admin-cli.ts) as processes
// beside a real server: on PGlite they refuse while Hunch holds DATA_DIR and work once it is
// stopped; on PostgreSQL they work while it serves, and what they end ends on the live server.

const isPostgres = process.env.HUNCH_TEST_DB === 'postgres';
const RUNNER = path.join(import.meta.dirname, 'admin-runner.ts');
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

async function admin(...args: string[]) {
  const child = spawnProcess(
    process.execPath,
    [TSX, RUNNER, ...args],
    hunchEnv({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, PUBLIC_URL: server!.url }),
  );
  const { code } = await child.exited(180_000);
  return { code, output: child.output() };
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

const signIn = (email: string, password = PASSWORD) =>
  call('POST', '/auth/login', { email, password, appName: 'hunch' });

describe.runIf(!isPostgres)('npm run admin on PGlite', () => {
  it('refuses while Hunch holds DATA_DIR, naming the running process, and works once it is stopped', async () => {
    const maya = await register('maya');
    const sam = await register('sam');

    const locked = await admin('users', 'list');
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

    await server!.start();
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

    const revoked = await admin('users', 'sessions-revoke', maya.email);
    expect(revoked.code).toBe(0);
    expect((await call('GET', '/auth/users/me', undefined, maya.token)).status).toBe(401);
    expect((await signIn(maya.email)).status).toBe(200);

    expect((await admin('users', 'delete', sam.email)).code).toBe(0);
    expect((await call('GET', '/auth/users/me', undefined, sam.token)).status).toBe(401);
    expect((await signIn(sam.email)).status).toBe(401);
  }, 600_000);
});
