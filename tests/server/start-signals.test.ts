import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/server-process';
import { hangGuard } from '../hang-guard';
import { hunchEnv, isPortOpen, spawnProcess, type SpawnedProcess } from './spawned-process';

// `npm start` under systemd or in a container gets SIGTERM itself: npm forwards it to its
// script's shell, and a shell that does not exec its command died and left the server serving,
// an orphan on the port. The script execs (package.json), so the signal reaches the server,
// which answers what is in flight and closes (src/server/main.ts).

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-signals-'));
let npm: SpawnedProcess | undefined;
afterAll(async () => {
  await npm?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Everything the server sends on `socket` until it closes the connection. */
function answerOf(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.once('error', reject);
    socket.once('close', () => resolve(text));
  });
}

describe('npm start', () => {
  it('stops on SIGTERM to the npm process: the request in flight is answered, then the port closes', async () => {
    const port = await freePort();
    npm = spawnProcess(
      'npm',
      ['start'],
      hunchEnv({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        // The server's "incoming request" line says the request below is in flight.
        LOG_LEVEL: 'debug',
      }),
    );
    // The first start of a checkout builds the client and the server (scripts/start.mjs).
    await npm.line(/Hunch is ready at /, 600_000);

    // A sign-in whose body has not all arrived yet: the server holds it in flight.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
    const socket = connect(port, '127.0.0.1');
    const answer = answerOf(socket);
    socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await npm.line(/incoming request.*\/auth\/login|\/auth\/login.*incoming request/);

    // The npm process itself, as systemd's stop or `docker stop` signals it.
    process.kill(npm.child.pid!, 'SIGTERM');
    await npm.line(/shutting down/);
    socket.write(body.slice(10));

    expect(await hangGuard(answer, 60_000, () => 'no answer')).toMatch(/^HTTP\/1\.1 401 /);
    expect(await npm.exited(30_000)).toEqual({ code: 0, signal: null });
    // Nothing of it serves on: the port is closed.
    expect(await isPortOpen(port)).toBe(false);
  }, 900_000);
});
