import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { handlingAdapterCommands } from '../../src/server/realtime/socket-server';
import { login, useTestServer } from './harness';

// An unreachable Redis stopped start-up (audit item 13). Now the app starts degraded: limits
// count in memory, live updates stay on the instance, /readyz says so, and Redis is picked up
// again when it returns.

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('Redis unreachable at start', () => {
  let port: number;
  let proxy: net.Server | undefined;
  const sockets = new Set<net.Socket>();

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  });
  const server = useTestServer(async () => {
    port = await freePort();
    return { env: { REDIS_URL: `redis://127.0.0.1:${port}` }, rateLimits: { loginPerEmail: 2 } };
  });

  it('starts, says it is degraded, and still enforces the limits in memory', async () => {
    const ready = await server.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', redis: 'unavailable' });
    const email = `outage-${Date.now()}@example.com`;
    expect((await login(server, email, 'Wrong-password-1')).status).toBe(401);
    expect((await login(server, email, 'Wrong-password-1')).status).toBe(401);
    expect((await login(server, email, 'Wrong-password-1')).status).toBe(429);
  });

  it.runIf(process.env.REDIS_URL)(
    'reconnects once Redis answers',
    async () => {
      const target = new URL(process.env.REDIS_URL!);
      proxy = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => proxy!.listen(port, '127.0.0.1', resolve));
      await expect
        .poll(async () => (await server.request('GET', '/readyz')).body.redis, {
          timeout: 15_000,
          interval: 200,
        })
        .toBe('ok');
    },
    20_000,
  );
});

describe('shutting down while Redis is unreachable', () => {
  it('handles the adapter commands that the shutdown rejects (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const client = new Redis(`redis://127.0.0.1:${await freePort()}`, { lazyConnect: true });
    client.on('error', () => {});
    const warnings: unknown[] = [];
    const adapterView = handlingAdapterCommands(client, {
      warn: (details: unknown) => warnings.push(details),
    });
    await client.connect().catch(() => {});
    // What the adapter does at start: subscribe without awaiting; the command waits offline.
    void adapterView.psubscribe('hunch#*');
    // A shutdown during a reconnect attempt rejects everything that waits.
    await new Promise((resolve) => client.once('connecting', resolve));
    client.disconnect();
    // The rejected command is handled once its warning is logged. vi.waitFor looks again on a
    // later turn of the event loop, and Node reports a rejection left unhandled at the end of
    // the turn it happened in: by the time the warning is seen, any such report has been made.
    await vi.waitFor(() =>
      expect(warnings).toEqual([expect.objectContaining({ command: 'psubscribe' })]),
    );
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
});
