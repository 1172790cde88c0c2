import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/domain/constants';
import { createGuest, createUser, newAccount, useTestServer } from '../harness';

// appName travels in every access token (audit item 16): a 90 KB one made a 120 KB JWT, and
// every later request a 431. It is bounded wherever it comes in.

const server = useTestServer();

const LONG = 'x'.repeat(LIMITS.appNameMax + 1);

describe('appName', () => {
  it('is refused with 400 beyond its maximum, on every call that takes it', async () => {
    const user = await createUser(server);
    const guest = await createGuest(server);
    const calls: Array<[string, string, unknown, string?]> = [
      ['POST', '/auth/register', newAccount({ appName: LONG })],
      ['POST', '/auth/register-guest', { displayName: 'Guest', appName: LONG }],
      ['POST', '/auth/login', { email: user.email, password: user.password, appName: LONG }],
      ['POST', '/auth/forgot-password', { email: user.email, appName: LONG }],
      ['PUT', '/auth/users/me', { appName: LONG }, guest.accessToken],
    ];
    for (const [method, path, body, token] of calls) {
      const response = await server.request(method, path, { body, token });
      expect(response.status, `${path}: ${response.text}`).toBe(400);
      expect(response.body.fieldErrors).toEqual({
        appName: `App name must be at most ${LIMITS.appNameMax} characters`,
      });
    }
  });

  it('of the maximum length still signs in', async () => {
    const response = await server.request('POST', '/auth/register-guest', {
      body: { displayName: 'Guest', appName: 'y'.repeat(LIMITS.appNameMax) },
    });
    expect(response.status).toBe(201);
  });
});
