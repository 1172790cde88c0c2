import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Starting the benchmark's child processes (servers, fan-out clients) and talking to them
// over IPC with request ids. BENCH_CPU_PROF=1 writes a V8 CPU profile of every child into
// .tmp/perf-profiles (open it in Chrome DevTools), which is how a missed goal is explained.

export type ChildCommand =
  | { type: 'publish'; id: number; count: number; firstSeq: number; batch: number; paceMs: number }
  | { type: 'memory'; id: number }
  | { type: 'close'; id: number }
  | {
      type: 'connect';
      id: number;
      url: string;
      protocol: 'socket.io' | 'raw';
      tokens: string[];
      concurrency: number;
    }
  | { type: 'arm'; id: number; expected: number }
  | { type: 'wait'; id: number; timeoutMs: number }
  | { type: 'collect'; id: number; sendTimes: Record<number, number> };

export interface MemoryUsage {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface Collected {
  deliveries: number;
  firstReceive: number;
  lastReceive: number;
  latencies: { p50: number; p90: number; p99: number; max: number };
}

export type ChildReply =
  | { type: 'ready'; port: number; info: Record<string, unknown> }
  | { type: 'published'; id: number; sendTimes: number[] }
  | { type: 'memory'; id: number; memory: MemoryUsage }
  | { type: 'closed'; id: number }
  | { type: 'connected'; id: number; open: number; failed: number; firstError?: string }
  | { type: 'armed'; id: number }
  | { type: 'delivered'; id: number; received: number; timedOut: boolean }
  | { type: 'collected'; id: number; result: Collected };

type Pending = (reply: ChildReply) => void;
/** A command without its id (Omit distributed over the union). */
export type CommandBody = ChildCommand extends infer C
  ? C extends { id: number }
    ? Omit<C, 'id'>
    : never
  : never;

export interface Child {
  process: ChildProcess;
  port: number;
  info: Record<string, unknown>;
  request<T extends ChildReply['type']>(
    command: CommandBody,
    expect: T,
  ): Promise<Extract<ChildReply, { type: T }>>;
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '../../..');

export async function startChild(
  script: 'server-process.ts' | 'fanout-clients.ts',
  env: Record<string, string>,
): Promise<Child> {
  const execArgv = ['--import', 'tsx', '--expose-gc'];
  if (process.env.BENCH_CPU_PROF === '1') {
    const dir = path.join(REPO_ROOT, '.tmp/perf-profiles');
    mkdirSync(dir, { recursive: true });
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  const child = fork(path.join(here, script), [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // The app's warn-level logs and any crash go to our stderr, never to the table on stdout.
  child.stdout?.pipe(process.stderr);
  child.stderr?.pipe(process.stderr);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let exited = false;
  const ready = new Promise<Extract<ChildReply, { type: 'ready' }>>((resolve, reject) => {
    child.on('message', (reply: ChildReply) => {
      if (reply.type === 'ready') resolve(reply);
      else pending.get(reply.id)?.(reply);
    });
    child.once('exit', (code) => {
      exited = true;
      reject(
        new Error(`${script} (${env.BENCH_MODE ?? ''}) exited with ${code} before it was ready`),
      );
      for (const settle of pending.values()) settle({ type: 'closed', id: -1 });
    });
  });
  const { port, info } = await ready;
  return {
    process: child,
    port,
    info,
    request(command, expect) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, (reply) => {
          pending.delete(id);
          if (reply.type === expect) resolve(reply as never);
          else
            reject(new Error(`${script}: expected ${expect}, got ${reply.type} (child exited?)`));
        });
        child.send({ ...command, id });
      });
    },
    async stop() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const id = nextId++;
      child.send({ type: 'close', id });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
