import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Builds the client when its build is missing or older than its sources, then starts the
// real server (src/server/main.ts through tsx, or the bundled dist/server/main.js) on the
// port chosen by playwright.config.ts with a fresh DATA_DIR, and stops it afterwards.

const root = path.resolve(import.meta.dirname, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function buildClientIfNeeded() {
  const index = path.join(root, 'dist/client/index.html');
  const sources = Math.max(newestMtime(path.join(root, 'src/client')), newestMtime(path.join(root, 'src/domain')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

function assertPortFree(port: number) {
  return new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`Port ${port} is busy; set HUNCH_E2E_PORT to a free port`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

async function waitForServer(url: string, server: ChildProcess, log: () => string) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited (${server.exitCode}):\n${log()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer within 180 s:\n${log()}`);
}

export default async function globalSetup() {
  const port = Number(process.env.HUNCH_E2E_PORT);
  const url = `http://127.0.0.1:${port}`;
  buildClientIfNeeded();
  await assertPortFree(port);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-'));
  process.env.HUNCH_E2E_DATA_DIR = dataDir;
  const source = path.join(root, 'src/server/main.ts');
  const command = existsSync(source)
    ? [path.join(root, 'node_modules/tsx/dist/cli.mjs'), source]
    : [path.join(root, 'dist/server/main.js')];

  let output = '';
  const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      // Many sign-ins from one address in a minute is what a test run is.
      RATE_LIMIT_LOGIN_PER_IP: '10000',
      RATE_LIMIT_LOGIN_PER_EMAIL: '10000',
      RATE_LIMIT_GUEST_PER_IP: '10000',
      RATE_LIMIT_FORGOT_PER_IP: '10000',
  };
  // Mail goes to DATA_DIR/outbox, where the reset-password spec reads the link.
  delete env.SMTP_URL;
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const server = spawn(process.execPath, command, {
    cwd: root,
    detached: true,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  server.stdout?.on('data', collect);
  server.stderr?.on('data', collect);
  await waitForServer(url, server, () => output);

  return async () => {
    if (server.exitCode === null && server.pid) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      process.kill(-server.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
