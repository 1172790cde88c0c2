import {
  cannon,
  latencyProbe,
  mean,
  tokenFor,
  BENCH_JWT_SECRET,
  type CannonFigures,
  type CannonSettings,
  type LatencyFigures,
} from './lib/load';
import { startChild } from './lib/processes';
import { atLeast, atMost, log, reported, type Section } from './lib/report';

// Benchmark 1: an authenticated API call with no database work, through the whole plugin
// stack (the API's security headers, cookies and the CSRF cookie, rate-limit,
// app.authenticate's JWT check, the idempotency hook, the error handler, the pino logger at
// warn), against a bare Fastify route returning a small JSON object, with the same autocannon
// settings; latency is timed apart, to the microsecond (latencyProbe). The route
// GET /api/bench/authenticated is registered by the bench's server process only.

const SETTINGS: CannonSettings = { connections: 20, durationSeconds: 5, pipelining: 1 };
/** Latency is timed separately, to the microsecond, at the same concurrency (latencyProbe). */
const LATENCY_SETTINGS = { connections: SETTINGS.connections, durationSeconds: 3 };
const ROUNDS = 2;

export async function run(): Promise<Section> {
  const hunch = await startChild('server-process.ts', {
    BENCH_MODE: 'hunch',
    BENCH_DB: 'pglite-memory',
    JWT_SECRET: BENCH_JWT_SECRET,
    PUSH_ENABLED: 'false',
  });
  const bare = await startChild('server-process.ts', { BENCH_MODE: 'bare' });
  try {
    const token = await tokenFor(1);
    const hunchUrl = `http://127.0.0.1:${hunch.port}/api/bench/authenticated`;
    const bareUrl = `http://127.0.0.1:${bare.port}/bench/bare`;
    // As the PWA sends it: the bearer token, and the XSRF-TOKEN cookie it got on its first response.
    const auth = {
      authorization: `Bearer ${token}`,
      cookie: 'XSRF-TOKEN=bench-csrf-cookie-value-0123456789',
    };
    // Warm-up (JIT, connection setup), not measured.
    await cannon(bareUrl, { ...SETTINGS, durationSeconds: 2 });
    await cannon(hunchUrl, { ...SETTINGS, durationSeconds: 2 }, auth);
    const subject: CannonFigures[] = [];
    const reference: CannonFigures[] = [];
    const subjectLatency: LatencyFigures[] = [];
    const referenceLatency: LatencyFigures[] = [];
    // Alternated rounds, so a burst of outside load hits both sides alike.
    for (let round = 0; round < ROUNDS; round += 1) {
      reference.push(await cannon(bareUrl, SETTINGS));
      subject.push(await cannon(hunchUrl, SETTINGS, auth));
      referenceLatency.push(await latencyProbe(bareUrl, LATENCY_SETTINGS));
      subjectLatency.push(await latencyProbe(hunchUrl, LATENCY_SETTINGS, auth));
      log(
        `api-auth round ${round + 1}: hunch ${subject.at(-1)!.requestsPerSecond.toFixed(0)} req/s, p99 ${subjectLatency.at(-1)!.p99.toFixed(3)} ms; ` +
          `bare ${reference.at(-1)!.requestsPerSecond.toFixed(0)} req/s, p99 ${referenceLatency.at(-1)!.p99.toFixed(3)} ms`,
      );
    }
    const bad =
      subject.reduce((sum, figures) => sum + figures.non2xx + figures.errors, 0) +
      subjectLatency.reduce((sum, figures) => sum + figures.failures, 0);
    const name = '1 auth call, no DB';
    return {
      id: 'api-auth',
      title: 'Authenticated API call with no database work vs a bare Fastify route',
      settings: {
        autocannon: SETTINGS,
        latency: {
          ...LATENCY_SETTINGS,
          client: 'node:http keep-alive loops, timed with performance.now()',
        },
        request: 'GET with Authorization: Bearer and the XSRF-TOKEN cookie, as the PWA sends it',
        rounds: ROUNDS,
        warmUpSeconds: 2,
        note: 'alternated rounds, figures are their means',
      },
      rows: [
        atLeast(
          name,
          'throughput',
          'req/s',
          mean(subject.map((f) => f.requestsPerSecond)),
          mean(reference.map((f) => f.requestsPerSecond)),
          0.7,
        ),
        atMost(
          name,
          'p99 latency',
          'ms',
          mean(subjectLatency.map((f) => f.p99)),
          mean(referenceLatency.map((f) => f.p99)),
          2,
        ),
        reported(
          name,
          'p50 latency',
          'ms',
          mean(subjectLatency.map((f) => f.p50)),
          mean(referenceLatency.map((f) => f.p50)),
        ),
      ],
      notes: bad > 0 ? [`${bad} non-2xx responses or errors on the Hunch side`] : [],
    };
  } finally {
    await hunch.stop();
    await bare.stop();
  }
}
