import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { AccessTokens } from '../../../src/server/auth/tokens';

// Load helpers shared by the HTTP benchmarks.

/** The JWT secret of every bench server; the parent signs its members' access tokens with it. */
export const BENCH_JWT_SECRET = `bench-${randomBytes(24).toString('hex')}`;
const tokens = new AccessTokens(BENCH_JWT_SECRET);

export function tokenFor(userId: number): Promise<string> {
  return tokens.sign({ id: userId, appName: 'hunch', isTemporary: true });
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

export async function cannon(url: string, settings: CannonSettings, headers: Record<string, string> = {}): Promise<CannonFigures> {
  const result = await autocannon({ url, connections: settings.connections, duration: settings.durationSeconds, pipelining: settings.pipelining, headers });
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
