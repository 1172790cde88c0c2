import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/server-process';
import {
  hunchEnv,
  runServerUntilExit,
  SERVER_BUNDLE,
  spawnProcess,
  type SpawnedProcess,
} from './spawned-process';
import { seedDataDir } from '../migrated-pglite';

// Misconfigurations a start finds (issue 42, point 13): refused in one line naming the
// variables when they cannot work, warned about once in the log when they may.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-start-checks-'));
// A database made before: these checks are of the settings, not of a first start.
seedDataDir(dataDir);
const running: SpawnedProcess[] = [];
afterAll(async () => {
  for (const child of running) await child.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

function startServer(env: Record<string, string | undefined>) {
  const child = spawnProcess(
    process.execPath,
    [SERVER_BUNDLE],
    hunchEnv({ HOST: '127.0.0.1', DATA_DIR: dataDir, ...env }),
  );
  running.push(child);
  return child;
}

async function refusal(env: Record<string, string | undefined>, wrapper?: string[]) {
  const { exit, failure, output } = await runServerUntilExit(
    hunchEnv({ HOST: '127.0.0.1', DATA_DIR: dataDir, PORT: String(await freePort()), ...env }),
    wrapper,
  );
  return { exit, lines: failure, output };
}

/** Whether this machine lets an unprivileged user mount a small tmpfs (a user namespace). */
const canMountTmpfs =
  spawnSync('unshare', [
    '--user',
    '--map-root-user',
    '--mount',
    'sh',
    '-c',
    'mount -t tmpfs tmpfs /mnt',
  ]).status === 0;

describe('a start behind a proxy', () => {
  it('is refused in production when TRUST_PROXY is set without PUBLIC_URL, in one line', async () => {
    const { exit, lines, output } = await refusal({
      NODE_ENV: 'production',
      TRUST_PROXY: 'loopback',
    });
    expect(exit.code).toBe(1);
    expect(lines).toEqual([
      'Hunch could not start: Invalid configuration: PUBLIC_URL: must be set when TRUST_PROXY is, with NODE_ENV=production: the address players open, e.g. https://hunch.example.com',
    ]);
    expect(output).not.toMatch(/\n\s+at /);
  }, 240_000);

  it('outside production, serves and warns once, naming PUBLIC_URL, when proxied requests come; an unreachable SMTP_URL is a warning', async () => {
    const port = await freePort();
    const smtpPort = await freePort();
    const child = startServer({
      NODE_ENV: undefined,
      PORT: String(port),
      TRUST_PROXY: 'loopback',
      SMTP_URL: `smtp://hunch:s3cret-pass@127.0.0.1:${smtpPort}`,
    });
    await child.line(/Hunch is ready/, 180_000);
    const smtpWarning = await child.line(/SMTP_URL/);
    expect(smtpWarning).toContain(
      `the mail server at 127.0.0.1:${smtpPort} cannot be reached (ECONNREFUSED)`,
    );
    expect(smtpWarning).toContain('"level":40');
    expect(child.output()).not.toContain('s3cret-pass');

    const get = (where: string, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${port}${where}`, { headers });
    const proxied = { 'x-forwarded-for': '203.0.113.9' };
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz', proxied)).status).toBe(200);
    expect((await get('/auth/registration', proxied)).status).toBe(200);
    // Each request's one log line comes after any warning it caused, in order.
    await child.line(/"msg":"GET \/auth\/registration 200 /);
    const warnings = child
      .output()
      .split('\n')
      .filter((line) => line.includes('PUBLIC_URL is not set'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('requests arrive through a proxy (x-forwarded-for)');
    expect(warnings[0]).toContain(`links point at http://localhost:${port}`);
  }, 240_000);
});

describe('a start with mail or disk that cannot work', () => {
  it('names a malformed SMTP_URL in one line', async () => {
    const { exit, lines } = await refusal({ SMTP_URL: 'smtp://' });
    expect(exit.code).toBe(1);
    expect(lines).toEqual([
      'Hunch could not start: Invalid configuration: SMTP_URL: must name the mail server: smtp://user:password@host:587',
    ]);
  }, 240_000);

  it.skipIf(!canMountTmpfs)(
    'names a full DATA_DIR in one line (PGlite on a 2 MB tmpfs)',
    async () => {
      const full = mkdtempSync(path.join(os.tmpdir(), 'hunch-full-'));
      try {
        const mountThenRun = [
          'unshare',
          '--user',
          '--map-root-user',
          '--mount',
          'sh',
          '-c',
          'mount -t tmpfs -o size=2m tmpfs "$0" && exec "$@"',
          full,
        ];
        const { exit, lines, output } = await refusal({ DATA_DIR: full }, mountThenRun);
        expect(exit.code).toBe(1);
        expect(lines).toEqual([
          `Hunch could not start: DATA_DIR ${full} is full (ENOSPC): free some space, or set DATA_DIR on a larger disk.`,
        ]);
        expect(output).not.toMatch(/errno|\n\s+at /);
      } finally {
        rmSync(full, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
