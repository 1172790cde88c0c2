import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { WebSocketServer } from 'ws';
import { buildApp } from '../../../src/server/app';
import { currentUser } from '../../../src/server/auth/authenticate';
import { loadConfig } from '../../../src/server/config';
import {
  createPglite,
  fromPglite,
  fromPool,
  type DatabaseConnection,
} from '../../../src/server/db/connect';
import { seedBenchSessions, seedWorld, type WorldSpec } from './data';
import { captureStatements } from './sql-capture';
import type { ChildCommand, ChildReply } from './processes';

// The server side of a benchmark, in a process of its own so the load generator (the parent)
// and the measured event loop never share a thread. BENCH_MODE picks what runs:
//   hunch   the real app (buildApp), on BENCH_DB=postgres|pglite|pglite-memory at BENCH_DB_LOCATION
//   bare    a bare Fastify route returning a small JSON object (benchmark 1's reference)
//   raw-ws  a `ws` server, perMessageDeflate off (benchmark 5's reference)
// It answers the parent's commands over IPC: publish a wager event, report its memory.

const mode = process.env.BENCH_MODE ?? 'hunch';
const now = () => performance.timeOrigin + performance.now();

/** The wager event of benchmark 5; betId carries the sequence number so receivers can time it. */
export function wagerEvent(groupId: number, seq: number) {
  return {
    groupId,
    userId: 1,
    betId: seq,
    points: 20,
    previousPoints: 0,
    answerTotals: { yes: 120, no: 80 },
    pool: 200,
    wagerCount: 9,
    version: seq,
  };
}

/** Exactly the bytes socket.io writes for an emit of that event (a socket.io EVENT packet in an engine.io MESSAGE). */
export function wagerFrame(groupId: number, seq: number): string {
  return `42${JSON.stringify(['wagerPlaced', wagerEvent(groupId, seq)])}`;
}

function send(reply: ChildReply) {
  process.send!(reply);
}

async function openDatabase(): Promise<{ connection: DatabaseConnection; cleanup: () => void }> {
  const kind = process.env.BENCH_DB ?? 'pglite-memory';
  const location = process.env.BENCH_DB_LOCATION ?? '';
  if (kind === 'postgres') {
    return {
      connection: fromPool(new pg.Pool({ connectionString: location, max: 10 })),
      cleanup: () => {},
    };
  }
  if (kind === 'pglite')
    return { connection: fromPglite(await createPglite(location)), cleanup: () => {} };
  const connection = fromPglite(await createPglite());
  await connection.migrate();
  return { connection, cleanup: () => {} };
}

if (process.env.BENCH_SQL_LOG) captureStatements(process.env.BENCH_SQL_LOG);

async function startHunch(): Promise<{
  port: number;
  publish: (seq: number) => void;
  close: () => Promise<void>;
  info: Record<string, unknown>;
}> {
  const { connection } = await openDatabase();
  let info: Record<string, unknown> = {};
  if (process.env.BENCH_SEED)
    info = {
      world: await seedWorld(connection.db, JSON.parse(process.env.BENCH_SEED) as WorldSpec),
    };
  await seedBenchSessions(connection.db);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-bench-data-'));
  // The app's configuration is these values only, not the shell's: a benchmark runs one
  // instance, and REDIS_URL (exported for `npm test`'s multi-instance suites) would tell it that
  // other instances share its data (PGlite's sessions then asked of the database on every
  // request: benchmark 1 at a tenth of its rate).
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    PUBLIC_URL: 'http://127.0.0.1',
    JWT_SECRET: process.env.JWT_SECRET ?? '',
    PUSH_ENABLED: process.env.PUSH_ENABLED ?? 'true',
    // A benchmark is one user writing far faster than any player: the per-user write limit stays out of its way.
    RATE_LIMIT_WRITES_PER_USER: '100000000',
    RATE_LIMIT_REGISTER_PER_IP: '100000000',
    RATE_LIMIT_REFRESH_PER_IP: '100000000',
    // The scale benchmark signs many players in from one address.
    RATE_LIMIT_LOGIN_PER_IP: '100000000',
    RATE_LIMIT_LOGIN_PER_EMAIL: '100000000',
    // Thousands of sockets (benchmark 5) come from one address, the load generator's.
    MAX_CONNECTIONS_PER_IP: '0',
    // The scale benchmark times each job's pass on its own, so the timers stay off.
    ...(process.env.BENCH_JOBS === 'off'
      ? {
          BET_EXPIRY_INTERVAL_MS: '0',
          FLOOR_TOP_UP_INTERVAL_MS: '0',
          PICKS_REVEAL_INTERVAL_MS: '0',
          SEASONS_INTERVAL_MS: '0',
          REMINDER_INTERVAL_MS: '0',
        }
      : {}),
  });
  const app: FastifyInstance = await buildApp({
    config,
    database: connection,
    clientDir: process.env.BENCH_CLIENT_DIR ?? path.join(dataDir, 'no-client'),
  });
  // Benchmark 1's route, registered by the bench only: the whole plugin stack and
  // app.authenticate, then nothing else (no database work).
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', app.authenticate);
      scope.get('/bench/authenticated', async (request) => ({
        ok: true,
        userId: currentUser(request).id,
      }));
    },
    { prefix: '/api' },
  );
  // The browser benchmarks' bare reference page (bare-reference.ts), under /api so the
  // service worker leaves it to the network; same origin as the app, so same IndexedDB.
  const bareDir = process.env.BENCH_BARE_DIR;
  if (bareDir) {
    const script = readFileSync(path.join(bareDir, 'bare.js'), 'utf8');
    app.get('/api/bench/bare', async (_request, reply) =>
      reply
        // The JSON API's policy (default-src 'none') would block its script.
        .header('content-security-policy', "default-src 'self'")
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><meta charset="utf-8"><title>bare</title><ul id="rows"></ul>' +
            '<script type="module" src="/api/bench/bare.js"></script>',
        ),
    );
    app.get('/api/bench/bare.js', async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').send(script),
    );
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const groupId = Number(process.env.BENCH_GROUP_ID ?? 1);
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    publish: (seq) => app.events.publish('wagerPlaced', wagerEvent(groupId, seq), { groupId }),
    info,
    close: async () => {
      await app.close();
      await connection.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startBare() {
  const app = Fastify();
  app.get('/bench/bare', async () => ({ ok: true, userId: 1 }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    publish: () => {},
    info: {},
    close: () => app.close(),
  };
}

async function startRawWs() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const groupId = Number(process.env.BENCH_GROUP_ID ?? 1);
  const address = wss.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    publish: (seq: number) => {
      const frame = wagerFrame(groupId, seq);
      for (const client of wss.clients) client.send(frame);
    },
    info: {},
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

function memory() {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return {
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
  };
}

async function main() {
  const server =
    mode === 'bare'
      ? await startBare()
      : mode === 'raw-ws'
        ? await startRawWs()
        : await startHunch();
  const run = async (command: ChildCommand): Promise<void> => {
    if (command.type === 'publish') {
      // A burst in slices of `batch` per macrotask (so sockets get written between slices),
      // or one event every paceMs.
      const sendTimes: number[] = [];
      for (let index = 0; index < command.count; index += 1) {
        if (command.paceMs > 0 && index > 0)
          await new Promise((resolve) => setTimeout(resolve, command.paceMs));
        else if (index > 0 && index % command.batch === 0)
          await new Promise((resolve) => setImmediate(resolve));
        const seq = command.firstSeq + index;
        sendTimes.push(now());
        server.publish(seq);
      }
      send({ type: 'published', id: command.id, sendTimes });
    } else if (command.type === 'memory') {
      send({ type: 'memory', id: command.id, memory: memory() });
    } else if (command.type === 'close') {
      await server.close();
      send({ type: 'closed', id: command.id });
      process.exit(0);
    }
  };
  // A command that fails ends this process, which the parent reports (processes.ts).
  process.on('message', (command: ChildCommand) => {
    run(command).catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  });
  send({ type: 'ready', port: server.port, info: server.info });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
