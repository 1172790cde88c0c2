import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/server-process';
import { seedDataDir } from '../migrated-pglite';
import { hunchEnv, runServerUntilExit } from './spawned-process';

// A start that cannot work says why in one line naming the cause and the variable to change,
// never a stack trace or an errno (src/server/main.ts startFailure).

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-start-failures-'));
// A database made before: what fails here is the port, not the first start.
seedDataDir(dataDir);
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

const start = (env: Record<string, string>) =>
  runServerUntilExit(hunchEnv({ HOST: '127.0.0.1', DATA_DIR: dataDir, ...env }));

describe('a start that cannot work', () => {
  it('names the port in use and PORT', async () => {
    const port = await freePort();
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    const { exit, failure, output } = await start({ PORT: String(port) });
    expect(exit.code).toBe(1);
    expect(failure).toEqual([
      `Hunch could not start: port ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port.`,
    ]);
    expect(output).not.toMatch(/\n\s+at |errno/);
  }, 240_000);

  it('names the unreachable database and DATABASE_URL', async () => {
    const port = await freePort();
    const { exit, failure, output } = await start({
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://hunch@127.0.0.1:${port}/hunch`,
    });
    expect(exit.code).toBe(1);
    expect(failure).toEqual([
      `Hunch could not start: the database at 127.0.0.1:${port} cannot be reached (ECONNREFUSED): check DATABASE_URL and that PostgreSQL runs.`,
    ]);
    expect(output).not.toMatch(/\n\s+at |errno/);
  }, 240_000);
});
