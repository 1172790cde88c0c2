import http from 'node:http';
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionOptions, followAnswers } from '../../src/server/connection-limits';
import { createGuest, useTestServer, type TestServer } from './harness';
import { connectSocket, syncSockets, type TestSocket } from './realtime/test-socket';

// Slow clients and connection floods (src/server/connection-limits.ts): a request must arrive
// whole in time, a silent connection closes, and one address holds only so many connections,
// while everyone else is served. Each test waits for what the server does (an answer, a
// close), never for a length of time.

/** A raw TCP connection to the server, recording what it hears and when it closes. */
interface RawConnection {
  socket: net.Socket;
  received(): string;
  /** Resolves once the server (or the test) closed the connection. */
  closed: Promise<void>;
}

const raws: RawConnection[] = [];
const sockets: TestSocket[] = [];
afterEach(() => {
  for (const raw of raws.splice(0)) raw.socket.destroy();
  for (const client of sockets.splice(0)) client.close();
});

function connectRaw(
  server: Pick<TestServer, 'url'>,
  localAddress = '127.0.0.1',
): Promise<RawConnection> {
  const socket = net.connect({
    port: Number(new URL(server.url).port),
    host: '127.0.0.1',
    localAddress,
  });
  let text = '';
  socket.on('data', (chunk) => (text += String(chunk)));
  // A refused connection may be reset while the test writes to it.
  socket.on('error', () => {});
  const raw: RawConnection = {
    socket,
    received: () => text,
    closed: new Promise((resolve) => socket.once('close', () => resolve())),
  };
  raws.push(raw);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(raw));
    socket.once('error', reject);
  });
}

/** The next thing the server says on `raw`. */
function nextData(raw: RawConnection): Promise<string> {
  return new Promise((resolve) => raw.socket.once('data', (chunk) => resolve(String(chunk))));
}

/** Writes one byte every few milliseconds until the connection closes. */
function trickle(raw: RawConnection, byte = ' '): void {
  const timer = setInterval(() => {
    if (raw.socket.writable) raw.socket.write(byte);
  }, 20);
  void raw.closed.then(() => clearInterval(timer));
}

function expectTimedOut(raw: RawConnection) {
  const text = raw.received();
  expect(text).toMatch(/^HTTP\/1\.1 408 /);
  expect(text).toMatch(/cache-control: no-store/i);
  expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
    message: 'The request took too long to arrive.',
    code: 'request_timeout',
  });
}

const healthRequest = 'GET /healthz HTTP/1.1\r\nHost: hunch.test\r\n\r\n';

/** GET /healthz from `localAddress` through Node's http client: the status, or the error. */
function healthFrom(server: TestServer, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get(
      `${server.url}/healthz`,
      { localAddress, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', (error) => resolve(error.message));
  });
}

describe('a slow client', () => {
  // Short, so each test is quick, yet well above what a request of the harness takes on a
  // busy machine: the app shares its thread with PGlite here, and a silence counts from the
  // last byte even while a handler is running.
  const server = useTestServer({
    env: { REQUEST_TIMEOUT_MS: '2000', HEADERS_TIMEOUT_MS: '1000', IDLE_TIMEOUT_MS: '3000' },
  });

  it('is cut off with a 408 (the API’s error body) when its body trickles in a byte at a time', async () => {
    const raw = await connectRaw(server);
    raw.socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: hunch.test\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100000\r\n\r\n{',
    );
    // Never silent for long: only the whole request's time limit can stop it.
    trickle(raw);
    await raw.closed;
    expectTimedOut(raw);
  });

  it('is cut off when its headers never end, or when it connects and says nothing', async () => {
    const [headers, silent] = [await connectRaw(server), await connectRaw(server)];
    headers.socket.write('GET /healthz HTTP/1.1\r\nHost: hunch.test\r\nX-Slow: ');
    trickle(headers, 'a');
    await Promise.all([headers.closed, silent.closed]);
    expectTimedOut(headers);
    expectTimedOut(silent);
  });

  it('is closed once silent between requests, while a quiet websocket stays open', async () => {
    const guest = await createGuest(server);
    const client = await connectSocket(server, guest.accessToken);
    sockets.push(client);
    const raw = await connectRaw(server);
    raw.socket.write(healthRequest);
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 200 /);
    // The websocket was as quiet as that connection, for as long: it still hears its user.
    expect(client.socket.connected).toBe(true);
    await syncSockets(server, { client, userId: guest.user.id });
  });

  it('does not hold up anyone else while it is being cut off', async () => {
    const slow = await Promise.all(Array.from({ length: 20 }, () => connectRaw(server)));
    for (const raw of slow) {
      raw.socket.write(
        'POST /auth/login HTTP/1.1\r\nHost: hunch.test\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100000\r\n\r\n{',
      );
      trickle(raw);
    }
    const meanwhile = await server.request('GET', '/healthz');
    expect(meanwhile.status).toBe(200);
    await Promise.all(slow.map((raw) => raw.closed));
    for (const raw of slow) expectTimedOut(raw);
  });
});

describe('a request Node cannot read', () => {
  const server = useTestServer();

  it('is answered in the API’s error body too: 431 for headers too large, 400 for garbage', async () => {
    const [large, garbage] = [await connectRaw(server), await connectRaw(server)];
    large.socket.write(
      `GET /healthz HTTP/1.1\r\nHost: hunch.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    garbage.socket.write('NOT HTTP AT ALL\r\n\r\n');
    await Promise.all([large.closed, garbage.closed]);
    const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(large.received()).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(large.received())).toMatchObject({ code: 'headers_too_large' });
    expect(garbage.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(garbage.received())).toMatchObject({ code: 'bad_request' });
  });
});

describe('a request Node cannot read, behind an answer still on its way', () => {
  /** A bare Fastify with the app's connection options and `route`, listening on a free port. */
  async function bareServer(route: (app: FastifyInstance) => void) {
    const app = Fastify(
      connectionOptions({
        requestTimeoutMs: 10_000,
        headersTimeoutMs: 5_000,
        idleTimeoutMs: 10_000,
        maxPerIp: 0,
        maxSocketsPerUser: 20,
      }),
    );
    followAnswers(app.server);
    route(app);
    return { url: await app.listen({ port: 0, host: '127.0.0.1' }), close: () => app.close() };
  }

  it('closes the connection without writing into that answer', async () => {
    let started!: () => void;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const server = await bareServer((app) =>
      // An answer whose headers and first bytes are out, the rest still to come.
      app.get('/stream', (_request, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'text/plain' });
        reply.raw.write('first part;');
        started();
      }),
    );
    try {
      const raw = await connectRaw(server);
      raw.socket.write('GET /stream HTTP/1.1\r\nHost: hunch.test\r\n\r\n');
      await isStarted;
      raw.socket.write('NOT HTTP\r\n\r\n');
      await raw.closed;
      expect(raw.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(raw.received()).not.toMatch(/400 Bad Request/);
    } finally {
      await server.close();
    }
  });

  it('is answered once the answer before it was written out', async () => {
    const server = await bareServer((app) => app.get('/done', () => ({ ok: true })));
    try {
      const raw = await connectRaw(server);
      raw.socket.write('GET /done HTTP/1.1\r\nHost: hunch.test\r\n\r\n');
      await nextData(raw);
      raw.socket.write('NOT HTTP\r\n\r\n');
      await raw.closed;
      expect(raw.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(raw.received()).toMatch(/HTTP\/1\.1 400 Bad Request/);
    } finally {
      await server.close();
    }
  });
});

describe('connections from one address', () => {
  // Long request timeouts: the connections held open below must outlive the test.
  const server = useTestServer({
    env: {
      MAX_CONNECTIONS_PER_IP: '5',
      REQUEST_TIMEOUT_MS: '120000',
      HEADERS_TIMEOUT_MS: '120000',
      IDLE_TIMEOUT_MS: '120000',
    },
  });

  it('are refused past the cap, while the address’s open ones and other clients are served', async () => {
    const held: RawConnection[] = [];
    for (let index = 0; index < 5; index++) held.push(await connectRaw(server, '127.0.0.3'));

    const flood = await Promise.all(
      Array.from({ length: 40 }, () => connectRaw(server, '127.0.0.3')),
    );
    for (const raw of flood) raw.socket.write(healthRequest);
    await Promise.all(flood.map((raw) => raw.closed));
    expect(flood.map((raw) => raw.received())).toEqual(flood.map(() => ''));

    // The address's own connections work on, and so does everyone else.
    const answer = nextData(held[0]!);
    held[0]!.socket.write(healthRequest);
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(await healthFrom(server, '127.0.0.2')).toBe(200);
    expect((await server.request('GET', '/healthz')).status).toBe(200);

    // Once one closes, the address may open another (as soon as the server has seen it go).
    held[4]!.socket.destroy();
    let status: number | string;
    do status = await healthFrom(server, '127.0.0.3');
    while (status !== 200);
  });
});

describe('connections from a trusted proxy', () => {
  const server = useTestServer({
    env: { MAX_CONNECTIONS_PER_IP: '2', TRUST_PROXY: '127.0.0.4' },
  });

  it('are not capped: the proxy carries many clients, while another address still is', async () => {
    const fromProxy = await Promise.all(
      Array.from({ length: 6 }, () => connectRaw(server, '127.0.0.4')),
    );
    const answers = fromProxy.map((raw) => nextData(raw));
    for (const raw of fromProxy) raw.socket.write(healthRequest);
    for (const answer of await Promise.all(answers)) expect(answer).toMatch(/^HTTP\/1\.1 200 /);

    const direct = [];
    for (let index = 0; index < 3; index++) direct.push(await connectRaw(server, '127.0.0.3'));
    direct[2]!.socket.write(healthRequest);
    await direct[2]!.closed;
    expect(direct[2]!.received()).toBe('');
  });
});
