import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The tests' stand-in for whatever a group's webhook points at, on loopback: a generic
// receiver, Discord (a path /api/webhooks/<id>/<token>) and Slack (/services/T…/B…/…) alike.
// Every arrival is recorded with its path, headers and body, and its signature checked by the
// Standard Webhooks algorithm, written here from the specification (not from the server's
// code): the key is the base64-decoded part of `whsec_…`, the signed content
// `${webhook-id}.${webhook-timestamp}.${body}`, each `v1,<base64>` of the header compared in
// constant time, the timestamp within 5 minutes.

export interface Arrival {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body as JSON. */
  json: Record<string, unknown>;
}

export interface WebhookReceiver {
  origin: string;
  arrivals: Arrival[];
  /** Answer every request with `status` from now on (500: a receiver that is down). */
  answerWith(status: number): void;
  /** Hold every answer until the returned function is called (a slow receiver). */
  hold(): () => void;
  close(): Promise<void>;
}

/** Whether `arrival` is signed by `secret`: the Standard Webhooks verification. */
export function isSignedBy(arrival: Arrival, secret: string, nowMs = Date.now()): boolean {
  const id = arrival.headers['webhook-id'];
  const timestamp = arrival.headers['webhook-timestamp'];
  const signatures = arrival.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string')
    return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > 5 * 60) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${arrival.body}`).digest();
  return signatures.split(' ').some((versioned) => {
    const [version, signature] = versioned.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const arrivals: Arrival[] = [];
  let status = 200;
  let held: Promise<void> | undefined;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // Recorded as it came: a test reads `body`.
      }
      arrivals.push({ path: request.url ?? '', headers: request.headers, body, json });
      // `held` only ever resolves (hold()).
      void Promise.resolve(held).then(() => {
        response.statusCode = status;
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    arrivals,
    answerWith(next) {
      status = next;
    },
    hold() {
      let release!: () => void;
      held = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        held = undefined;
        release();
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
