import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MirrorPullResponse } from './mirror/synced-tables';
import { z } from '../domain/schemas/zod';
import type { MetricsSettings } from './config';
import type { PoolStats } from './db/connect';
import { authenticationRequired, notFound } from './errors';

// Prometheus metrics (text exposition format), one registry per app and the only place that
// makes prom-client objects: features report through the few functions of `Metrics` (pulls,
// Idempotency-Key replays, job passes) or are read when scraped (sockets, the database pool),
// so a request costs one histogram observation and nothing more. Read at GET /metrics on the
// main port with METRICS_TOKEN as a Bearer token, or on METRICS_PORT bound to 127.0.0.1
// (config.ts); with neither, nothing is recorded and /metrics answers 404.

export const METRICS_PATH = '/metrics';

export interface Metrics {
  /** Whether anyone can read them: otherwise nothing is recorded. */
  readonly isEnabled: boolean;
  /** A mirror pull answered (GET /api/member/state?cursor=…), with its serialized answer. */
  pullServed(answer: MirrorPullResponse, text: string): void;
  /** A signed-in write answered again from its Idempotency-Key (nothing applied twice). */
  idempotentReplay(): void;
  /** One pass of a timed job (src/server/jobs), and how long it took. */
  jobPass(job: string, seconds: number, outcome: 'ok' | 'failed'): void;
  /** Read when scraped: the live-update sockets connected to this instance. */
  watchSockets(count: () => number): void;
  /** Read when scraped: the database's connections. */
  watchDatabase(stats: () => PoolStats): void;
  /** The text Prometheus reads, and its content type. */
  exposition(): Promise<{ contentType: string; text: string }>;
  /** The port METRICS_PORT listens on once the app is ready (0 picks one), else undefined. */
  port(): number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

interface MetricsParts {
  metrics: Metrics;
  /** The onResponse hook's work: one observation, and a refusal counted for a 4xx write. */
  observeRequest(request: FastifyRequest, reply: FastifyReply): void;
  setPort(port: number): void;
}

function createMetrics(isEnabled: boolean): MetricsParts {
  const registry = new Registry();
  if (isEnabled) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requestSeconds = new Histogram({
    name: 'hunch_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route pattern, method and status class.',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const writeRefusals = new Counter({
    name: 'hunch_write_refusals_total',
    help: 'Writes (POST, PUT, PATCH, DELETE) answered 4xx: an outbox drops these unless 408, 425 or 429.',
    labelNames: ['status'] as const,
    registers,
  });
  const replays = new Counter({
    name: 'hunch_idempotent_replays_total',
    help: 'REST writes answered again from their Idempotency-Key (a retry, nothing applied twice).',
    registers,
  });
  const pulls = new Counter({
    name: 'hunch_mirror_pulls_total',
    help: 'Mirror pulls: quiet (nothing changed), changes, or reset (a sync from nothing).',
    labelNames: ['kind'] as const,
    registers,
  });
  const pullRows = new Histogram({
    name: 'hunch_mirror_pull_rows',
    help: 'Rows in a mirror pull answer.',
    buckets: [0, 1, 10, 100, 1000, 10000],
    registers,
  });
  const pullBytes = new Histogram({
    name: 'hunch_mirror_pull_bytes',
    help: 'Bytes of a mirror pull answer (JSON, before compression).',
    buckets: [256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304],
    registers,
  });
  const jobSeconds = new Histogram({
    name: 'hunch_job_pass_duration_seconds',
    help: 'Passes of the timed jobs and how long each took, by job and outcome.',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
    registers,
  });
  let sockets: (() => number) | undefined;
  new Gauge({
    name: 'hunch_realtime_sockets',
    help: 'Live-update sockets (socket.io) connected to this instance.',
    registers,
    collect() {
      this.set(sockets?.() ?? 0);
    },
  });
  let database: (() => PoolStats) | undefined;
  const readDatabase = () => database?.() ?? { inUse: 0, idle: 0, waiting: 0 };
  new Gauge({
    name: 'hunch_db_connections',
    help: 'Database connections in use and idle (PGlite: its one connection).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = readDatabase();
      this.set({ state: 'in_use' }, stats.inUse);
      this.set({ state: 'idle' }, stats.idle);
    },
  });
  new Gauge({
    name: 'hunch_db_waiting',
    help: 'Requests waiting for a database connection (PGlite: statements queued).',
    registers,
    collect() {
      this.set(readDatabase().waiting);
    },
  });

  // Per route, method and status class, the histogram's child, so an answer costs no label hashing.
  const children = new Map<string, ReturnType<typeof requestSeconds.labels>>();
  const observeRequest = (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? '(unmatched)';
    const statusClass = STATUS_CLASSES[Math.floor(reply.statusCode / 100) - 1] ?? 'other';
    const key = `${request.method} ${statusClass} ${route}`;
    let child = children.get(key);
    if (!child)
      children.set(key, (child = requestSeconds.labels(route, request.method, statusClass)));
    child.observe(reply.elapsedTime / 1000);
    if (statusClass === '4xx' && WRITE_METHODS.has(request.method))
      writeRefusals.inc({ status: String(reply.statusCode) });
  };

  let boundPort: number | undefined;
  const metrics: Metrics = {
    isEnabled,
    pullServed(answer, text) {
      if (!isEnabled) return;
      // Every list of the answer (rows changed, rows gone), whatever lists it grows.
      let rows = 0;
      for (const value of Object.values(answer)) if (Array.isArray(value)) rows += value.length;
      pulls.inc({ kind: answer.reset ? 'reset' : rows === 0 ? 'quiet' : 'changes' });
      pullRows.observe(rows);
      pullBytes.observe(Buffer.byteLength(text));
    },
    idempotentReplay() {
      if (isEnabled) replays.inc();
    },
    jobPass(job, seconds, outcome) {
      if (isEnabled) jobSeconds.observe({ job, outcome }, seconds);
    },
    watchSockets(count) {
      sockets = count;
    },
    watchDatabase(stats) {
      database = stats;
    },
    async exposition() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
    port: () => boundPort,
  };
  return {
    metrics,
    observeRequest,
    setPort: (port) => {
      boundPort = port;
    },
  };
}

function sameSecret(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Creates the app's metrics (`app.metrics`), the per-request hook, GET /metrics and METRICS_PORT. */
export function registerMetrics(app: FastifyInstance, settings: MetricsSettings): Metrics {
  const isEnabled = settings.token !== undefined || settings.port !== undefined;
  const { metrics, observeRequest, setPort } = createMetrics(isEnabled);
  app.decorate('metrics', metrics);
  if (isEnabled)
    app.addHook('onResponse', (request, reply, done) => {
      observeRequest(request, reply);
      done();
    });

  // Always a route, so an unconfigured /metrics is a plain 404 rather than the PWA's page.
  app.get(
    METRICS_PATH,
    {
      schema: {
        description: 'Prometheus metrics; 404 unless METRICS_TOKEN is set.',
        security: [{ metricsToken: [] }],
        response: {
          200: {
            description: 'The metrics, in the Prometheus text exposition format.',
            content: { 'text/plain': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      if (settings.token === undefined) throw notFound('Route');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      if (!match || !sameSecret(match[1]!, settings.token)) {
        reply.header('www-authenticate', 'Bearer');
        throw authenticationRequired();
      }
      const { contentType, text } = await metrics.exposition();
      return reply.header('cache-control', 'no-store').type(contentType).send(text);
    },
  );

  if (settings.port !== undefined) {
    const port = settings.port;
    let server: Server | undefined;
    app.addHook('onReady', async () => {
      const listener = createServer((request, response) => {
        if (request.method !== 'GET' || request.url?.split('?')[0] !== METRICS_PATH) {
          response.writeHead(404).end();
          return;
        }
        metrics.exposition().then(
          ({ contentType, text }) =>
            response.writeHead(200, { 'content-type': contentType }).end(text),
          (error: unknown) => {
            app.log.error({ err: error }, 'metrics exposition failed');
            response.writeHead(500).end();
          },
        );
      });
      server = listener;
      // Loopback only: whoever reaches it is on this machine (a sidecar, node_exporter's host).
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(port, '127.0.0.1', () => resolve());
      });
      setPort((listener.address() as AddressInfo).port);
    });
    app.addHook('onClose', async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    });
  }
  return metrics;
}
