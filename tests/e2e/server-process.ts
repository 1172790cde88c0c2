import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { hangGuard } from '../hang-guard';
import { seedDataDir } from '../migrated-pglite';

// Starting and stopping the real Hunch server for end-to-end tests: the global setup runs one
// for the whole run, and a spec that needs to restart a server (the realtime reconnection)
// runs its own through the same function, on its own port and DATA_DIR.

const checkout = path.resolve(import.meta.dirname, '../..');

/** The e2e server's metrics token: a spec waits on a job's passes (`jobPasses`, below). */
export const E2E_METRICS_TOKEN = 'e2e-metrics-token-not-a-secret';

export function assertPortFree(port: number) {
  return new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () =>
      reject(new Error(`Port ${port} is busy; set HUNCH_E2E_PORT to a free port`)),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** A free port on the loopback, chosen by the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** What the server logs once it listens (src/server/main.ts). */
const READY = 'Hunch is ready at ';

/**
 * Resolves once `server` says it is ready (its log line, printed once it listens); fails at
 * once if it exits first, and after 180 s if it never says so (a hang guard).
 */
function serverReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  let heard = '';
  let onData = (_chunk: Buffer) => undefined as void;
  let onExit = () => undefined as void;
  const ready = new Promise<void>((resolve, reject) => {
    onData = (chunk) => {
      heard += chunk.toString();
      if (heard.includes(`${READY}${url}`)) resolve();
    };
    onExit = () =>
      reject(new Error(`The server exited (${server.exitCode ?? server.signalCode}):\n${log()}`));
    server.stdout?.on('data', onData);
    server.once('exit', onExit);
  });
  return hangGuard(
    ready,
    180_000,
    () => `The server was not ready within 180 s:\n${log()}`,
  ).finally(() => {
    server.stdout?.off('data', onData);
    server.off('exit', onExit);
  });
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export interface ServerProcess {
  url: string;
  /** Stops the server (SIGTERM to its process group, SIGKILL if it is still there after 15 s); the DATA_DIR stays. */
  stop(): Promise<void>;
  /** Resolves once the running server's process has exited (it is gone, and so is its port), whatever ended it. */
  exited(): Promise<void>;
  /** Starts it again on the same port and DATA_DIR, so it comes back with its data. */
  start(): Promise<void>;
}

/**
 * Starts the bundled server (dist/server/main.js, what `npm start` runs; the run's global setup
 * builds it when stale) and waits until it says it is ready. An empty DATA_DIR gets the run's
 * migrated database first (tests/migrated-pglite.ts), as a server that ran before has it.
 */
export async function startServerProcess({
  port,
  dataDir,
  databaseUrl,
  env: extraEnv = {},
  root = checkout,
}: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** Another release's checkout to run (./newer-release.ts); default this one. */
  root?: string;
  /** More environment for this server (a test hook such as HUNCH_TEST_CRASH_AFTER_PUSH_COMMIT). */
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${port}`;
  const command = [path.join(root, 'dist/server/main.js')];
  if (!existsSync(command[0]!)) throw new Error(`${command[0]} is not built`);
  if (!databaseUrl) seedDataDir(dataDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // The ready line (`serverReady`, above) is an info line.
    LOG_LEVEL: 'info',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    // Many sign-ins from one address in a minute is what a test run is.
    RATE_LIMIT_LOGIN_PER_IP: '10000',
    RATE_LIMIT_LOGIN_PER_EMAIL: '10000',
    RATE_LIMIT_GUEST_PER_IP: '10000',
    RATE_LIMIT_FORGOT_PER_IP: '10000',
    RATE_LIMIT_REGISTER_PER_IP: '10000',
    RATE_LIMIT_REFRESH_PER_IP: '10000',
    RATE_LIMIT_RESET_PER_IP: '10000',
    RATE_LIMIT_JOIN_PRIVATE_PER_USER: '10000',
    RATE_LIMIT_JOIN_PRIVATE_PER_IP: '10000',
    RATE_LIMIT_WRITES_PER_USER: '10000',
    // Moving to another device: each spec looks up and redeems several codes (tests/server covers the limit).
    RATE_LIMIT_TRANSFER_PER_USER: '10000',
    RATE_LIMIT_TRANSFER_PER_IP: '10000',
    // Picks show within seconds of a bet's close (the fair-resolution spec waits for them).
    PICKS_REVEAL_INTERVAL_MS: '2000',
    // The inbox spec waits for a "closes soon" reminder: the job looks every second.
    REMINDER_INTERVAL_MS: '1000',
    // The inbox-fair spec waits for a weekly top-up: the job looks every 2 seconds (no other
    // spec leaves a member below the base wager, so none of their points change).
    FLOOR_TOP_UP_INTERVAL_MS: '2000',
    // Metrics on: a spec that checks a job does nothing more waits for its next passes.
    METRICS_TOKEN: E2E_METRICS_TOKEN,
    // The push spec's stand-in push service listens on loopback over http.
    PUSH_ENDPOINT_HOSTS:
      'fcm.googleapis.com,*.push.services.mozilla.com,*.push.apple.com,*.notify.windows.com,http://127.0.0.1',
    // The webhooks spec's receiver listens on loopback over http; deliveries go out within a second.
    WEBHOOK_HOSTS: 'http://127.0.0.1',
    WEBHOOK_INTERVAL_MS: '1000',
    ...extraEnv,
  };
  // Mail goes to DATA_DIR/outbox, where the reset-password spec reads the link.
  delete env.SMTP_URL;
  // PGlite in DATA_DIR, unless this server is the PostgreSQL one (global-setup.ts).
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  delete env.REDIS_URL;

  let server: ChildProcess | null = null;
  let exit: Promise<void> = Promise.resolve();
  let output = '';
  const start = async () => {
    await assertPortFree(port);
    const child = spawn(process.execPath, command, {
      cwd: root,
      detached: true,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exit = new Promise((resolve) => child.once('exit', () => resolve()));
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    server = child;
    await serverReady(url, child, () => output).catch((error: unknown) => {
      if (!hasExited(child) && child.pid) process.kill(-child.pid, 'SIGKILL');
      throw error;
    });
  };
  const stop = async () => {
    const child = server;
    server = null;
    if (!child || hasExited(child) || !child.pid) return;
    const pid = child.pid;
    process.kill(-pid, 'SIGTERM');
    // The server ends itself within 10 s of SIGTERM (src/server/main.ts); one still there is stuck.
    await hangGuard(exit, 15_000, () => 'the server ignored SIGTERM').catch(() => {
      process.kill(-pid, 'SIGKILL');
      return exit;
    });
  };

  await start();
  return { url, stop, start, exited: () => exit };
}

/**
 * How many passes the server's `job` has finished (its Prometheus metrics): a spec that checks
 * that a job does nothing more waits for its next passes instead of a fixed time.
 */
export async function jobPasses(request: APIRequestContext, job: string): Promise<number> {
  const response = await request.get('/metrics', {
    headers: { Authorization: `Bearer ${E2E_METRICS_TOKEN}` },
  });
  if (!response.ok()) throw new Error(`GET /metrics answered ${response.status()}`);
  const pattern = new RegExp(
    `^hunch_job_pass_duration_seconds_count\\{[^}]*job="${job}"[^}]*\\} (\\d+)`,
    'gm',
  );
  let passes = 0;
  for (const match of (await response.text()).matchAll(pattern)) passes += Number(match[1]);
  return passes;
}
