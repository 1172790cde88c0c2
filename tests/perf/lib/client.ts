import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Plugin } from 'vite';
import { BENCH_JWT_SECRET } from './load';
import { REPO_ROOT, startChild, type Child } from './processes';
import { log } from './report';

// The built client for benchmarks 6 and 7: `vite build` with the project's own config into a
// directory of the bench (dist/ is left alone), with the manifest and, per chunk, the modules
// it contains; and the real app serving that build, with a signed-in guest who has a group and
// a few open bets, for the dashboard.

export interface ClientBuild {
  outDir: string;
  /** Chunk file (assets/…) → the source modules bundled into it. */
  modulesByFile: Map<string, string[]>;
  seconds: number;
}

let building: Promise<ClientBuild> | undefined;
const cleanups: (() => void)[] = [];

export function buildClient(): Promise<ClientBuild> {
  building ??= (async () => {
    const { build } = await import('vite');
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-bench-client-'));
    cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
    const modulesByFile = new Map<string, string[]>();
    const recorder: Plugin = {
      name: 'hunch-bench-chunk-modules',
      generateBundle(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type === 'chunk') modulesByFile.set(output.fileName, [...output.moduleIds]);
        }
      },
    };
    const t0 = performance.now();
    await build({
      configFile: path.join(REPO_ROOT, 'vite.config.ts'),
      root: path.join(REPO_ROOT, 'src/client'),
      logLevel: 'warn',
      plugins: [recorder],
      build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false },
    });
    const seconds = (performance.now() - t0) / 1000;
    log(`client built in ${seconds.toFixed(1)} s into ${outDir}`);
    return { outDir, modulesByFile, seconds };
  })();
  return building;
}

export function cleanupClientBuild(): void {
  for (const cleanup of cleanups.splice(0)) cleanup();
  building = undefined;
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: unknown;
}

export interface ClientServer {
  origin: string;
  server: Child;
  /** A new signed-in guest, member of a group with open bets. */
  newSession(): Promise<Session>;
  stop(): Promise<void>;
}

export async function startClientServer(outDir: string): Promise<ClientServer> {
  const server = await startChild('server-process.ts', {
    BENCH_MODE: 'hunch',
    BENCH_DB: 'pglite-memory',
    BENCH_CLIENT_DIR: outDir,
    JWT_SECRET: BENCH_JWT_SECRET,
    PUSH_ENABLED: 'false',
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const call = async (method: string, url: string, body: unknown, token?: string) => {
    const response = await fetch(origin + url, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  return {
    origin,
    server,
    async newSession() {
      const session = (await call('POST', '/auth/register-guest', {
        displayName: 'Bench Guest',
        appName: 'hunch',
      })) as unknown as Session;
      const group = await call(
        'POST',
        '/api/groups',
        { name: `Bench friends ${Date.now()}`, privacy: 'public' },
        session.accessToken,
      );
      for (let index = 0; index < 5; index += 1) {
        await call(
          'POST',
          '/api/bets',
          {
            groupId: group.id,
            title: `Will it rain on day ${index + 1}?`,
            betType: 'yes_no',
            baseWagerAmount: 1,
            expiresAt: new Date(Date.now() + (index + 2) * 86_400_000).toISOString(),
          },
          session.accessToken,
        );
      }
      return session;
    },
    stop: () => server.stop(),
  };
}

/** Puts a session where the client's session store looks for it (localStorage: remembered). */
export function sessionScript(session: Session): string {
  return `(() => {
    if (localStorage.getItem('access_token')) return;
    localStorage.setItem('access_token', ${JSON.stringify(session.accessToken)});
    localStorage.setItem('refresh_token', ${JSON.stringify(session.refreshToken)});
    localStorage.setItem('user_data', ${JSON.stringify(JSON.stringify(session.user))});
  })()`;
}

export const CHROMIUM_PATH = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
