import { randomBytes } from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { AccessTokens } from '../../../src/server/auth/tokens';
import { benchSessionFamily } from './data';
import { percentile, sortNumbers } from './report';

// Load helpers shared by the HTTP benchmarks.

/** The JWT secret of every bench server; the parent signs its members' access tokens with it. */
export const BENCH_JWT_SECRET = `bench-${randomBytes(24).toString('hex')}`;
const tokens = new AccessTokens(BENCH_JWT_SECRET);

/**
 * An access token of the member's bench session: a token passes only while its session lives,
 * and every bench server gives each user that session (`seedBenchSessions`, lib/data.ts).
 */
export function tokenFor(userId: number): Promise<string> {
  return tokens.sign({
    id: userId,
    appName: 'hunch',
    isTemporary: true,
    sessionFamily: benchSessionFamily(userId),
  });
}

export interface CannonSettings {
  connections: number;
  durationSeconds: number;
  pipelining: number;
}

export interface CannonFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

export async function cannon(
  url: string,
  settings: CannonSettings,
  headers: Record<string, string> = {},
): Promise<CannonFigures> {
  const result = await autocannon({
    url,
    connections: settings.connections,
    duration: settings.durationSeconds,
    pipelining: settings.pipelining,
    headers,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

export function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface LatencyFigures {
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

/**
 * Latency in ms with microsecond resolution: autocannon's histogram keeps whole milliseconds,
 * which reads 0 and 1 for a sub-millisecond route. `connections` keep-alive loops, each
 * sending the next request when the last answered, for `durationSeconds`.
 */
export async function latencyProbe(
  url: string,
  settings: Pick<CannonSettings, 'connections' | 'durationSeconds'>,
  headers: Record<string, string> = {},
): Promise<LatencyFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: settings.connections });
  const samples: number[] = [];
  let failures = 0;
  const end = performance.now() + settings.durationSeconds * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const start = performance.now();
      const request = http.get(url, { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 200) samples.push(performance.now() - start);
          else failures += 1;
          resolve();
        });
      });
      request.on('error', () => {
        failures += 1;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: settings.connections }, async () => {
      while (performance.now() < end) await once();
    }),
  );
  agent.destroy();
  const sorted = sortNumbers(samples);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    requests: samples.length,
    failures,
  };
}
