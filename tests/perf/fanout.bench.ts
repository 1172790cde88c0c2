import { execFileSync } from 'node:child_process';
import { BENCH_JWT_SECRET, tokenFor } from './lib/load';
import { startChild, type Child, type Collected, type MemoryUsage } from './lib/processes';
import { atLeast, atMost, log, reported, type Row, type Section } from './lib/report';

// Benchmark 5: fan-out of one wager event (app.events.publish('wagerPlaced', …, { groupId }))
// to 50, 500, 2,000 and 10,000 sockets in one group, against a raw `ws` server (perMessageDeflate
// off) writing the very same bytes to as many clients. Servers and clients run in separate
// processes (the clients all in one): on this 2-core machine the server gets about one core
// and the clients the other, so both sides are limited alike.
//   deliveries/s: a burst of events, deliveries counted until the last one arrives;
//   latency: events paced apart (no queueing: the pace is well above the time one event takes
//   to reach every socket), send → arrival per delivery;
//   memory per idle socket: the server's JS heap (after a GC) and RSS, grown per socket from
//   2,000 open to 10,000 (past start-up, seeding and first-connection costs, which made RSS
//   from none to N shrink now and then).
// The server and the client process each hold 10,000 sockets: `ulimit -n` must allow it (checked
// first; Node cannot raise its own limit).

const SIZES = [50, 500, 2000, 10_000];
const LARGEST = SIZES[SIZES.length - 1]!;
/** Memory per socket is what grows from this many open sockets to LARGEST. */
const MEMORY_FROM = 2000;
/** Deliveries per burst ≈ 40k–80k whatever the size. */
const BURST_EVENTS: Record<number, number> = { 50: 800, 500: 100, 2000: 40, 10_000: 8 };
const PACED_EVENTS: Record<number, number> = { 50: 40, 500: 40, 2000: 40, 10_000: 10 };
const PACE_MS: Record<number, number> = { 50: 50, 500: 50, 2000: 50, 10_000: 1000 };
const CONNECT_CONCURRENCY = 25;
/** Open files a process needs beyond its sockets (modules, PGlite, pipes). */
const SPARE_FILES = 500;

/** Fails at once, before seeding, when the children (which inherit this limit) could not open LARGEST sockets. */
function checkOpenFileLimit(): void {
  const soft = execFileSync('sh', ['-c', 'ulimit -Sn'], { encoding: 'utf8' }).trim();
  if (soft !== 'unlimited' && Number(soft) < LARGEST + SPARE_FILES)
    throw new Error(
      `fanout needs ulimit -n ≥ ${LARGEST + SPARE_FILES} (it is ${soft}): run \`ulimit -n ${LARGEST + SPARE_FILES}\` first`,
    );
}

interface Measured {
  deliveriesPerSecond: Record<number, number>;
  paced: Record<number, Collected['latencies']>;
  memoryPerSocket: { heapBytes: number; rssBytes: number };
  lost: number;
}

async function measure(
  server: Child,
  clients: Child,
  url: string,
  protocol: 'socket.io' | 'raw',
  tokens: string[],
): Promise<Measured> {
  const result: Measured = {
    deliveriesPerSecond: {},
    paced: {},
    memoryPerSocket: { heapBytes: 0, rssBytes: 0 },
    lost: 0,
  };
  let before: MemoryUsage | undefined;
  let connected = 0;
  let seq = 1;
  let after: MemoryUsage | undefined;
  for (const size of SIZES) {
    const connectStarted = performance.now();
    const more = await clients.request(
      {
        type: 'connect',
        url,
        protocol,
        tokens: tokens.slice(connected, size),
        concurrency: CONNECT_CONCURRENCY,
      },
      'connected',
    );
    if (more.failed > 0)
      throw new Error(`${protocol}: ${more.failed} sockets failed to connect (${more.firstError})`);
    log(
      `fanout ${protocol}: ${size - connected} more sockets connected in ${((performance.now() - connectStarted) / 1000).toFixed(1)} s`,
    );
    connected = size;
    if (size === MEMORY_FROM) before = (await server.request({ type: 'memory' }, 'memory')).memory;
    if (size === LARGEST) after = (await server.request({ type: 'memory' }, 'memory')).memory;

    // Burst.
    const events = BURST_EVENTS[size]!;
    await clients.request({ type: 'arm', expected: events * size }, 'armed');
    const published = await server.request(
      { type: 'publish', count: events, firstSeq: seq, batch: 10, paceMs: 0 },
      'published',
    );
    const burst = await clients.request({ type: 'wait', timeoutMs: 120_000 }, 'delivered');
    const sendTimes = Object.fromEntries(published.sendTimes.map((at, index) => [seq + index, at]));
    seq += events;
    const collected = (await clients.request({ type: 'collect', sendTimes }, 'collected')).result;
    result.lost += events * size - burst.received;
    result.deliveriesPerSecond[size] =
      collected.deliveries / ((collected.lastReceive - published.sendTimes[0]!) / 1000);

    // Paced.
    const pacedEvents = PACED_EVENTS[size]!;
    await clients.request({ type: 'arm', expected: pacedEvents * size }, 'armed');
    const paced = await server.request(
      { type: 'publish', count: pacedEvents, firstSeq: seq, batch: 1, paceMs: PACE_MS[size]! },
      'published',
    );
    const pacedDone = await clients.request({ type: 'wait', timeoutMs: 60_000 }, 'delivered');
    const pacedTimes = Object.fromEntries(paced.sendTimes.map((at, index) => [seq + index, at]));
    seq += pacedEvents;
    result.lost += pacedEvents * size - pacedDone.received;
    result.paced[size] = (
      await clients.request({ type: 'collect', sendTimes: pacedTimes }, 'collected')
    ).result.latencies;
    log(
      `fanout ${protocol} ${size} sockets: ${result.deliveriesPerSecond[size]!.toFixed(0)} deliveries/s, paced p99 ${result.paced[size]!.p99.toFixed(2)} ms`,
    );
  }
  result.memoryPerSocket = {
    heapBytes: (after!.heapUsed - before!.heapUsed) / (LARGEST - MEMORY_FROM),
    rssBytes: (after!.rss - before!.rss) / (LARGEST - MEMORY_FROM),
  };
  return result;
}

export async function run(): Promise<Section> {
  checkOpenFileLimit();
  const members = LARGEST;
  const spec = {
    groups: 1,
    membersPerGroup: members,
    betsPerGroup: 1,
    defaultPoints: 1000,
    baseWagerAmount: 10,
  };
  const tokens = await Promise.all(
    Array.from({ length: members }, (_, index) => tokenFor(index + 1)),
  );

  // socket.io: the real app (PGlite in memory, push off: only the realtime path listens).
  const hunch = await startChild('server-process.ts', {
    BENCH_MODE: 'hunch',
    BENCH_DB: 'pglite-memory',
    BENCH_SEED: JSON.stringify(spec),
    BENCH_GROUP_ID: '1',
    JWT_SECRET: BENCH_JWT_SECRET,
    PUSH_ENABLED: 'false',
  });
  let subject: Measured;
  try {
    const clients = await startChild('fanout-clients.ts', {});
    try {
      subject = await measure(
        hunch,
        clients,
        `ws://127.0.0.1:${hunch.port}/socket.io/?EIO=4&transport=websocket`,
        'socket.io',
        tokens,
      );
    } finally {
      await clients.stop();
    }
  } finally {
    await hunch.stop();
  }

  const raw = await startChild('server-process.ts', { BENCH_MODE: 'raw-ws', BENCH_GROUP_ID: '1' });
  let reference: Measured;
  try {
    const clients = await startChild('fanout-clients.ts', {});
    try {
      reference = await measure(raw, clients, `ws://127.0.0.1:${raw.port}/`, 'raw', tokens);
    } finally {
      await clients.stop();
    }
  } finally {
    await raw.stop();
  }

  const rows: Row[] = [];
  for (const size of SIZES)
    rows.push(
      atLeast(
        `5 fan-out ${size}`,
        'deliveries',
        '/s',
        subject.deliveriesPerSecond[size]!,
        reference.deliveriesPerSecond[size]!,
        0.7,
      ),
    );
  for (const size of SIZES) {
    const row =
      size === 500 || size === LARGEST
        ? atMost(
            `5 fan-out ${size}`,
            'p99 latency, paced',
            'ms',
            subject.paced[size]!.p99,
            reference.paced[size]!.p99,
            1.5,
          )
        : reported(
            `5 fan-out ${size}`,
            'p99 latency, paced',
            'ms',
            subject.paced[size]!.p99,
            reference.paced[size]!.p99,
          );
    rows.push(row);
  }
  rows.push(
    atMost(
      `5 fan-out idle ${LARGEST}`,
      'memory per idle socket, JS heap',
      'KiB',
      subject.memoryPerSocket.heapBytes / 1024,
      reference.memoryPerSocket.heapBytes / 1024,
      2,
    ),
  );
  rows.push(
    reported(
      `5 fan-out idle ${LARGEST}`,
      'memory per idle socket, RSS',
      'KiB',
      subject.memoryPerSocket.rssBytes / 1024,
      reference.memoryPerSocket.rssBytes / 1024,
    ),
  );
  return {
    id: 'fanout',
    title:
      'Fan-out of one wager event to N sockets in one group vs raw ws broadcasting the same bytes',
    settings: {
      sizes: SIZES,
      burstEvents: BURST_EVENTS,
      pacedEvents: PACED_EVENTS,
      paceMs: PACE_MS,
      clients:
        'one separate process of minimal ws clients for both servers (engine.io v4 protocol against socket.io)',
      server:
        'socket.io: buildApp on PGlite in memory, PUSH_ENABLED=false, websocket transport; raw: ws.WebSocketServer perMessageDeflate false',
    },
    rows,
    notes: [
      ...(subject.lost || reference.lost
        ? [`lost deliveries: Hunch ${subject.lost}, raw ${reference.lost}`]
        : []),
      '2 cores: the server process and the client process each get about one core, so the client side caps both figures alike.',
    ],
  };
}
