import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { hangGuard } from '../hang-guard';

// The operator's view of Hunch: a real process (`npm start`, the bundled server, an npm
// script), what it prints line by line, and how it ends. A test waits for a line or the exit,
// never a fixed time; each wait has a hang guard that fails with what was printed.

export const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * The server `npm start` runs: src/server/main.ts bundled (scripts/build-server.mjs), which the
 * run's global setup builds when stale, as tests/e2e/server-process.ts starts it.
 */
export const SERVER_BUNDLE = path.join(ROOT, 'dist/server/main.js');
/** `npm run admin`'s entry point (the operator's commands, from the same bundle). */
export const ADMIN_SCRIPT = path.join(ROOT, 'scripts/admin.mjs');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnedProcess {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved as they came. */
  output(): string;
  /** The first line printed (now or later) that matches; fails if the process ends first. */
  line(pattern: RegExp, limitMs?: number): Promise<string>;
  /** Resolves once the process has exited. */
  exited(limitMs?: number): Promise<Exit>;
  /** Cleanup: SIGKILL to its whole process group, if anything of it still runs. */
  kill(): Promise<void>;
}

/**
 * The environment of a Hunch process in a test: this process's, less anything that would point
 * it at another database, mail server or proxy, plus `overrides` (undefined removes a variable).
 */
export function hunchEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'PUBLIC_URL', 'TRUST_PROXY'])
    delete env[name];
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Starts `command` in a process group of its own (so cleanup reaches what it starts). */
export function spawnProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): SpawnedProcess {
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  let partial = '';
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    printed += text;
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const listener of listeners) listener(line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exit = new Promise<Exit>((resolve) =>
    child.once('close', (code, signal) => {
      if (partial) {
        lines.push(partial);
        for (const listener of listeners) listener(partial);
        partial = '';
      }
      resolve({ code, signal });
    }),
  );
  let hasExited = false;
  void exit.then(() => (hasExited = true));

  const describe = () => `${command} ${args.join(' ')} printed:\n${printed.slice(-8000)}`;
  return {
    child,
    output: () => printed,
    line(pattern, limitMs = 120_000) {
      const found = lines.find((line) => pattern.test(line));
      if (found !== undefined) return Promise.resolve(found);
      let listener = (_line: string) => undefined as void;
      const seen = new Promise<string>((resolve, reject) => {
        listener = (line) => {
          if (pattern.test(line)) resolve(line);
        };
        listeners.add(listener);
        void exit.then(({ code, signal }) =>
          reject(new Error(`exited (${code ?? signal}) before printing ${pattern}; ${describe()}`)),
        );
      });
      return hangGuard(
        seen,
        limitMs,
        () => `no line ${pattern} within ${limitMs} ms; ${describe()}`,
      ).finally(() => listeners.delete(listener));
    },
    exited: (limitMs = 120_000) =>
      hangGuard(exit, limitMs, () => `still running after ${limitMs} ms; ${describe()}`),
    async kill() {
      if (hasExited || !child.pid) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
      await exit;
    },
  };
}

/** Whether something accepts connections on 127.0.0.1:`port` now. */
export function isPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The bundled server (behind `wrapper`, a command that ends by running its arguments), run
 * until it exits: how it ended, its "Hunch could not start" lines, everything it printed.
 */
export async function runServerUntilExit(
  env: NodeJS.ProcessEnv,
  wrapper: string[] = [],
): Promise<{ exit: Exit; failure: string[]; output: string }> {
  const [command = '', ...args] = [...wrapper, process.execPath, SERVER_BUNDLE];
  const child = spawnProcess(command, args, env);
  try {
    const exit = await child.exited(180_000);
    const failure = child
      .output()
      .split('\n')
      .filter((line) => line.startsWith('Hunch could not start'));
    return { exit, failure, output: child.output() };
  } finally {
    await child.kill();
  }
}

/**
 * One JSON request to a server process at `url` (a token, a body, an Idempotency-Key if given);
 * `replayed` is its Idempotent-Replayed header.
 */
export async function callProcess<T>(
  url: string,
  method: string,
  route: string,
  token?: string,
  body?: unknown,
  key?: string,
): Promise<{ status: number; body: T; replayed: string | null }> {
  const response = await fetch(url + route, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as T,
    replayed: response.headers.get('idempotent-replayed'),
  };
}
