import WebSocket from 'ws';
import type { ChildCommand, ChildReply, Collected } from './processes';
import { percentile, sortNumbers } from './report';

// The fan-out receivers of benchmark 5, in a process of their own. Both servers are read by
// the same minimal `ws` client, so the client's cost is identical on both sides and the ratio
// measures the servers: against socket.io it speaks the engine.io v4 / socket.io v5 text
// protocol (open → `40{token}` → `40{sid}`, ping `2` → pong `3`, events `42[...]`), against
// the raw server it only reads. Every delivery's arrival time is kept by sequence number
// (the event's betId) and compared with the server's send times afterwards.

const now = () => performance.timeOrigin + performance.now();
const sockets: WebSocket[] = [];
let received = 0;
let expected = Number.POSITIVE_INFINITY;
let onExpected: (() => void) | undefined;
const arrivals = new Map<number, number[]>();

function send(reply: ChildReply) {
  process.send!(reply);
}

function onEvent(text: string) {
  const at = now();
  const marker = text.indexOf('"betId":');
  if (marker < 0) return;
  const seq = Number.parseInt(text.slice(marker + 8, marker + 20), 10);
  let list = arrivals.get(seq);
  if (!list) arrivals.set(seq, (list = []));
  list.push(at);
  received += 1;
  if (received >= expected) onExpected?.();
}

function connectOne(
  url: string,
  protocol: 'socket.io' | 'raw',
  token: string | undefined,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    let settled = false;
    const done = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) {
        socket.terminate();
        reject(error);
      } else resolve(socket);
    };
    socket.on('error', (error) => done(error));
    socket.on('open', () => {
      if (protocol === 'raw') done();
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      const text = data.toString();
      if (protocol === 'raw') return onEvent(text);
      if (text === '2') return socket.send('3');
      if (text.startsWith('0{')) return socket.send(`40${JSON.stringify({ token })}`);
      if (text.startsWith('44')) return done(new Error(`connect_error ${text.slice(2)}`));
      if (text.startsWith('42["connectionAuthenticated"')) return done();
      if (text.startsWith('42')) return onEvent(text);
    });
  });
}

async function run(command: ChildCommand): Promise<void> {
  if (command.type === 'connect') {
    let open = 0;
    let failed = 0;
    let firstError: string | undefined;
    let next = 0;
    const worker = async () => {
      while (next < command.tokens.length) {
        const token = command.tokens[next++];
        try {
          sockets.push(await connectOne(command.url, command.protocol, token));
          open += 1;
        } catch (error) {
          failed += 1;
          firstError ??= String(error);
        }
      }
    };
    await Promise.all(Array.from({ length: command.concurrency }, worker));
    send({
      type: 'connected',
      id: command.id,
      open,
      failed,
      ...(firstError ? { firstError } : {}),
    });
  } else if (command.type === 'arm') {
    received = 0;
    arrivals.clear();
    expected = command.expected;
    send({ type: 'armed', id: command.id });
  } else if (command.type === 'wait') {
    const finish = (timedOut: boolean) => {
      clearTimeout(timer);
      onExpected = undefined;
      expected = Number.POSITIVE_INFINITY;
      send({ type: 'delivered', id: command.id, received, timedOut });
    };
    const timer = setTimeout(() => finish(true), command.timeoutMs);
    if (received >= expected) finish(false);
    else onExpected = () => finish(false);
  } else if (command.type === 'collect') {
    const latencies: number[] = [];
    let firstReceive = Number.POSITIVE_INFINITY;
    let lastReceive = 0;
    for (const [seq, times] of arrivals) {
      const sent = command.sendTimes[seq];
      for (const at of times) {
        if (sent !== undefined) latencies.push(at - sent);
        if (at < firstReceive) firstReceive = at;
        if (at > lastReceive) lastReceive = at;
      }
    }
    const sorted = sortNumbers(latencies);
    const result: Collected = {
      deliveries: latencies.length,
      firstReceive,
      lastReceive,
      latencies: {
        p50: percentile(sorted, 50),
        p90: percentile(sorted, 90),
        p99: percentile(sorted, 99),
        max: sorted[sorted.length - 1] ?? Number.NaN,
      },
    };
    send({ type: 'collected', id: command.id, result });
  } else if (command.type === 'close') {
    for (const socket of sockets) socket.terminate();
    send({ type: 'closed', id: command.id });
    process.exit(0);
  }
}

// A command that fails ends this process, which the parent reports (processes.ts).
process.on('message', (command: ChildCommand) => {
  run(command).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});

send({ type: 'ready', port: 0, info: {} });
