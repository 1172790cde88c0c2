import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import type { AuthResponse } from '../../../src/domain/auth';
import type { TestServer } from '../harness';

// Factories for the account export and deletion tests.

/** A browser's push subscription for the user, registered through the API (nothing is ever sent to it). */
export async function subscribeToPush(server: TestServer, user: AuthResponse) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const body = {
    appName: 'hunch',
    deviceId: `device-${randomUUID()}`,
    // A loopback push service the tests' PUSH_ENDPOINT_HOSTS allow; the path is the secret part.
    endpoint: `http://127.0.0.1:9/push/${randomUUID()}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
    userAgent: 'Mozilla/5.0 (test)',
    deviceName: 'Desktop Chrome',
  };
  const response = await server.request('POST', '/api/push-subscriptions', {
    token: user.accessToken,
    body,
  });
  if (response.status !== 201)
    throw new Error(`push subscription failed: ${response.status} ${response.text}`);
  return body;
}

export function deleteAccount(server: TestServer, user: AuthResponse, currentPassword?: string) {
  return server.request('DELETE', '/auth/users/me', {
    token: user.accessToken,
    body: currentPassword === undefined ? {} : { currentPassword },
  });
}
