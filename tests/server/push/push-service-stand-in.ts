import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthResponse } from '../../../src/domain/auth';
import type { PushNotification } from '../../../src/domain/push';
import type { TestServer } from '../harness';

// A local stand-in for a browser's push service (RFC 8030) on loopback, and subscriptions
// made as a browser makes them: a P-256 key pair and a 16-byte auth secret. Each received
// message is decrypted with the subscription's private key (RFC 8291, aes128gcm), so a test
// checks exactly what the service worker would show.

export interface ReceivedPush {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface PushStandIn {
  origin: string;
  received: ReceivedPush[];
  /** Answer requests to this endpoint with `status` from now on (404/410: the browser dropped it). */
  answerWith(endpoint: string, status: number): void;
  /** Hold every answer until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startPushStandIn(): Promise<PushStandIn> {
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, number>();
  let held: Promise<void> | undefined;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({
        path,
        method: request.method ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      // The answer waits while the test holds answers; `held` only ever resolves (hold()).
      void Promise.resolve(held).then(() => {
        response.statusCode = statuses.get(path) ?? 201;
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    answerWith(endpoint, status) {
      statuses.set(new URL(endpoint).pathname, status);
    },
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RFC 8291 §3.4 and RFC 8188: the header, then one record sealed with AES-128-GCM. */
export function decryptAes128gcm(
  body: Buffer,
  uaPrivate: ReturnType<typeof createECDH>,
  authSecret: Buffer,
): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  if (record.length > recordSize) throw new Error('expected a single record');

  const uaPublic = uaPrivate.getPublicKey();
  const sharedSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  );
  const nonce = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
  );

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('missing the last-record delimiter 0x02');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks the VAPID Authorization header (RFC 8292): `vapid t=<JWT>, k=<public key>`, the JWT
 * signed with ES256 by that key, for this push service's origin. Returns the public key.
 */
export function verifyVapidAuthorization(header: string | undefined, origin: string): string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${header}`);
  const [, token, publicKey] = match as unknown as [string, string, string];
  const [encodedHeader, encodedClaims, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const isSigned = verify(
    'sha256',
    Buffer.from(`${encodedHeader}.${encodedClaims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!isSigned) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(encodedClaims, 'base64url').toString('utf8')) as {
    aud: string;
    exp: number;
    sub: string;
  };
  if (claims.aud !== origin) throw new Error(`VAPID audience ${claims.aud} is not ${origin}`);
  if (!(claims.exp * 1000 > Date.now())) throw new Error('VAPID token expired');
  return publicKey;
}

export interface BrowserDevice {
  deviceId: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The decrypted notifications this device received, in order. */
  notifications(): PushNotification[];
  /** The raw requests that reached this device's endpoint. */
  requests(): ReceivedPush[];
}

/** A PushSubscription as a browser creates it, with its endpoint on the stand-in. */
export function createBrowserDevice(standIn: PushStandIn): BrowserDevice {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  const path = `/push/${randomUUID()}`;
  const requests = () => standIn.received.filter((entry) => entry.path === path);
  return {
    deviceId: `device-${randomUUID()}`,
    endpoint: `${standIn.origin}${path}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: authSecret.toString('base64url'),
    },
    requests,
    notifications: () =>
      requests().map(
        (entry) => JSON.parse(decryptAes128gcm(entry.body, ecdh, authSecret)) as PushNotification,
      ),
  };
}

/** Registers the device for `user` the way the client does after sign-in (docs/groups-and-bets.md §3, §7). */
export async function registerDevice(
  server: TestServer,
  user: AuthResponse,
  device: BrowserDevice,
  appName = 'hunch',
) {
  const response = await server.request('POST', '/api/push-subscriptions', {
    token: user.accessToken,
    body: {
      appName,
      deviceId: device.deviceId,
      endpoint: device.endpoint,
      keys: device.keys,
      userAgent: 'Mozilla/5.0 (test)',
      deviceName: 'Desktop Chrome',
    },
  });
  if (response.status !== 201)
    throw new Error(`register push failed: ${response.status} ${response.text}`);
  return response.body;
}

/** A new device on the stand-in, registered for `user`. */
export async function subscribedDevice(
  server: TestServer,
  standIn: PushStandIn,
  user: AuthResponse,
): Promise<BrowserDevice> {
  const device = createBrowserDevice(standIn);
  await registerDevice(server, user, device);
  return device;
}
