import { randomBytes } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { AuthResponse, RegisterRequest } from '../../src/domain/auth';
import { safeLogging } from '../../src/server/logging';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config, type RateLimits } from '../../src/server/config';
import {
  createPglite,
  fromPglite,
  fromPool,
  type DatabaseConnection,
} from '../../src/server/db/connect';
import { DEFAULT_PUSH_ENDPOINT_HOSTS } from '../../src/server/push-endpoints';
import { hangGuard } from '../hang-guard';
import { migratedSnapshot } from '../migrated-pglite';
import { assertLedgerMatchesMemberships } from './ledger-assertions';

// The server test harness: a real app listening on a random port, on a real database of
// its own (a copy of the migrated PGlite snapshot, or a PostgreSQL database created from the
// migrated template; see global-setup.ts), spoken to over real HTTP. A test file says
// `const server = useTestServer()`; startTestServer is for tests that start and stop servers
// themselves (restarts on the same data, a second server with other settings).

const GENEROUS = 10_000;

// Tests read response bodies freely and assert on them; `any` keeps the assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (with the content type in headers, default application/json). */
  rawBody?: string;
  /** A Bearer access token. */
  token?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  config: Config;
  database: DatabaseConnection;
  dataDir: string;
  /** The services' clock; advance it to expire tokens. */
  clock: { now(): Date; advance(ms: number): void };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<T = any>(
    method: string,
    path: string,
    options?: RequestOptions,
  ): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Extra environment, as loadConfig reads it (SMTP_URL, PUBLIC_URL, JWT_SECRET, …). */
  env?: Record<string, string>;
  /** Limits for this server; the rest stay high so ordinary tests never meet them. */
  rateLimits?: Partial<RateLimits>;
  /** Reuse a database (e.g. two app starts on the same data); it is then not closed. */
  database?: DatabaseConnection;
  /** Listen on this port (a restart where clients expect the server); default: any free port. */
  port?: number;
  /** Reuse a data directory; it is then not deleted. */
  dataDir?: string;
  clientDir?: string;
  /** How often the gateway closes sockets whose access token expired (default 15 s). */
  socketExpiryCheckMs?: number;
  /** The app's logger options (default: none); e.g. loggerOptions(config) with a `stream` to read what is logged. */
  logger?: FastifyServerOptions['logger'];
  /** The socket.io Redis adapter's key: give two servers the same one to make them one cluster. Default: unique to this server. */
  realtimeRedisKey?: string;
  /** Called right after each pushed write commits (AppDeps.afterPushCommit): throw to lose its answer. */
  afterPushCommit?: () => void;
}

/** A new, empty PostgreSQL database beside TEST_DATABASE_URL's (`prefix_…`), and how to drop it. */
export async function emptyPostgresDatabase(
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('emptyPostgresDatabase needs TEST_DATABASE_URL');
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** A fresh, migrated, isolated database for this test file. */
export async function openTestDatabase(): Promise<DatabaseConnection> {
  if (process.env.HUNCH_TEST_DB === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `hunch_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    } finally {
      await admin.end();
    }
    const url = new URL(base);
    url.pathname = `/${name}`;
    const connection = fromPool(new pg.Pool({ connectionString: url.toString(), max: 5 }));
    return {
      ...connection,
      async close() {
        await connection.close();
        const dropper = new pg.Client({ connectionString: base });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  return fromPglite(
    await createPglite({ loadDataDir: migratedSnapshot(inject('pgliteSnapshot')) }),
  );
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'hunch-test-'));
  const database = options.database ?? (await openTestDatabase());
  const base = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://hunch.test',
    // The browsers' push services and the tests' stand-in on loopback (push-service-stand-in.ts).
    PUSH_ENDPOINT_HOSTS: `${DEFAULT_PUSH_ENDPOINT_HOSTS},http://127.0.0.1`,
    // Top-ups change points by themselves: off unless a test turns them on (their own tests call
    // runFloorTopUp directly).
    FLOOR_TOP_UP_INTERVAL_MS: '0',
    // Webhooks: the tests' receivers listen on loopback over http (webhook-receiver.ts); the
    // job is off, its tests run a pass themselves (runWebhooks).
    WEBHOOK_HOSTS: 'http://127.0.0.1',
    WEBHOOK_INTERVAL_MS: '0',
    ...options.env,
  });
  const config: Config = {
    ...base,
    rateLimits: {
      loginPerIp: GENEROUS,
      loginPerEmail: GENEROUS,
      guestPerIp: GENEROUS,
      forgotPasswordPerIp: GENEROUS,
      registerPerIp: GENEROUS,
      refreshPerIp: GENEROUS,
      resetPasswordPerIp: GENEROUS,
      joinPrivatePerUser: GENEROUS,
      joinPrivatePerIp: GENEROUS,
      writesPerUser: GENEROUS,
      commentsPerUser: GENEROUS,
      transferCodesPerUser: GENEROUS,
      transferTriesPerIp: GENEROUS,
      tokenRequestsPerToken: GENEROUS,
      tokenRequestsPerUser: GENEROUS,
      windowMs: 60_000,
      ...options.rateLimits,
    },
  };
  let offsetMs = 0;
  const clock = {
    now: () => new Date(Date.now() + offsetMs),
    advance: (ms: number) => {
      offsetMs += ms;
    },
  };
  const app = await buildApp({
    config,
    database,
    clientDir: options.clientDir ?? path.join(dataDir, 'no-client-build'),
    logger: options.logger ?? false,
    socketExpiryCheckMs: options.socketExpiryCheckMs,
    afterPushCommit: options.afterPushCommit,
    now: clock.now,
    // Unique by default: the pglite and postgres projects run at once against one Redis.
    realtimeRedisKey:
      options.realtimeRedisKey ?? `hunch-test-${process.pid}-${randomBytes(4).toString('hex')}`,
  });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    app,
    config,
    database,
    dataDir,
    clock,
    async request(method, requestPath, { body, rawBody, token, headers = {} } = {}) {
      const hasBody = body !== undefined || rawBody !== undefined;
      const response = await fetch(url + requestPath, {
        method,
        headers: {
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: rawBody ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      const text = await response.text();
      let parsed: unknown = text;
      if ((response.headers.get('content-type') ?? '').includes('application/json') && text)
        parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed as never, text };
    },
    async close() {
      await app.close();
      if (!options.database) await database.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * fetch's open connections, as undici's diagnostics channel announces them: one subscription
 * per worker process, however many test files import this module.
 */
const fetchSockets: Set<Socket> = ((globalThis as { [key: symbol]: Set<Socket> })[
  Symbol.for('hunch.tests.fetchSockets')
] ??= (() => {
  const sockets = new Set<Socket>();
  diagnostics.subscribe('undici:client:connected', (message) => {
    const { socket } = message as { socket: Socket };
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
})());

/** Resolves once fetch holds no connection to `port` any more (its server closed them). */
function fetchLetGo(port: number): Promise<void> {
  const open = [...fetchSockets].filter((socket) => socket.remotePort === port);
  return hangGuard(
    Promise.all(open.map((socket) => new Promise((resolve) => socket.once('close', resolve)))).then(
      () => undefined,
    ),
    10_000,
    () => `fetch kept ${open.length} connection(s) to the closed server on port ${port}`,
  );
}

/** A server whose options are known only once an earlier hook ran (a sink's URL, a first server's database). */
type LazyOptions = TestServerOptions | (() => TestServerOptions | Promise<TestServerOptions>);

export interface SharedTestServer extends TestServer {
  /** Stops the app (its sockets drop) and starts a new one on the same database, data folder and port. */
  restart(): Promise<void>;
}

/**
 * The server of a test file (or of the describe block it is called in): started before the
 * first test, the ledger invariant (ledger-assertions.ts) checked after each test, closed
 * after the last. The server is returned at once and reads through to the started one, so
 * use it inside tests and hooks. Hooks registered before this call run before the server
 * starts and after it closes (a mail sink, a push stand-in).
 */
export function useTestServer(options: LazyOptions = {}): SharedTestServer {
  let started: TestServer | undefined;
  let restarted = false;
  const current = (): TestServer => {
    if (!started) throw new Error('useTestServer: the server starts in beforeAll; use it in tests');
    return started;
  };
  const resolveOptions = async () => (typeof options === 'function' ? options() : options);

  beforeAll(async () => {
    started = await startTestServer(await resolveOptions());
  });
  afterEach(async () => {
    if (started) await assertLedgerMatchesMemberships(started.database);
  });
  afterAll(async () => {
    if (!started) return;
    await started.close();
    // A restarted server was handed the first one's database and folder, which it leaves alone.
    if (restarted) {
      await started.database.close();
      rmSync(started.dataDir, { recursive: true, force: true });
    }
  });

  return {
    get url() {
      return current().url;
    },
    get app() {
      return current().app;
    },
    get config() {
      return current().config;
    },
    get database() {
      return current().database;
    },
    get dataDir() {
      return current().dataDir;
    },
    get clock() {
      return current().clock;
    },
    request: (method, requestPath, requestOptions) =>
      current().request(method, requestPath, requestOptions),
    close: () => current().close(),
    async restart() {
      const previous = current();
      const port = Number(new URL(previous.url).port);
      await previous.app.close();
      // fetch's pool still holds keep-alive connections to the closed server, which it drops
      // only once the event loop has polled their sockets; the restarted server takes the same
      // port, so until they are gone the next request may go down a dead connection ("other
      // side closed").
      await fetchLetGo(port);
      started = await startTestServer({
        ...(await resolveOptions()),
        database: previous.database,
        dataDir: previous.dataDir,
        port,
      });
      restarted = true;
    },
  };
}

/** useTestServer whose info-level log, as the production serializers write it, is kept for the test to read. */
export function useLoggingTestServer(): { server: TestServer; log: () => string } {
  let logged = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged += String(chunk);
      done();
    },
  });
  const server = useTestServer({ logger: { level: 'info', ...safeLogging, stream } });
  return { server, log: () => logged };
}

// ---- factories ----

let sequence = 0;

/** Register fields for a new, unique full account; override any of them. */
export function newAccount(overrides: Partial<RegisterRequest> = {}) {
  sequence += 1;
  const tag = `${process.pid}_${sequence}_${randomBytes(2).toString('hex')}`;
  const password = overrides.password ?? 'Correct-horse-1';
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    displayName: `Ada ${sequence}`,
    username: `ada_${tag}`,
    email: `ada.${tag}@example.com`,
    password,
    passwordConfirm: password,
    appName: 'hunch',
    isTemporary: false,
    ...overrides,
  };
}

export interface SignedInUser extends AuthResponse {
  email: string;
  password: string;
}

/** Registers a full account through the API. */
export async function createUser(
  server: TestServer,
  overrides: Partial<RegisterRequest> = {},
): Promise<SignedInUser> {
  const account = newAccount(overrides);
  const response = await server.request<AuthResponse>('POST', '/auth/register', { body: account });
  if (response.status !== 201)
    throw new Error(`createUser failed: ${response.status} ${response.text}`);
  return { ...response.body, email: account.email.toLowerCase(), password: account.password };
}

/** Registers a guest through the API. */
export async function createGuest(
  server: TestServer,
  displayName = 'Guest Player',
): Promise<AuthResponse> {
  const response = await server.request<AuthResponse>('POST', '/auth/register-guest', {
    body: { displayName, appName: 'hunch' },
  });
  if (response.status !== 201)
    throw new Error(`createGuest failed: ${response.status} ${response.text}`);
  return response.body;
}

export function login(server: TestServer, email: string, password: string) {
  return server.request<AuthResponse>('POST', '/auth/login', { body: { email, password } });
}
