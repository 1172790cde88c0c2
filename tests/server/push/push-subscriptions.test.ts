import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_MESSAGES } from '../../../src/domain/push';
import { createPlayer } from '../groups/group.factories';
import {
  DEFAULT_PUSH_ENDPOINT_HOSTS,
  isAllowedPushEndpoint,
  parsePushEndpointHosts,
} from '../../../src/server/push-endpoints';
import { createPushSender, resolveVapidIdentity } from '../../../src/server/push/push.sender';
import { startTestServer, useTestServer } from '../harness';
import {
  createBrowserDevice,
  registerDevice,
  startPushStandIn,
  type BrowserDevice,
  type PushStandIn,
} from './push-service-stand-in';

// The push calls of docs/groups-and-bets.md §7: the public key, a subscription per user, app and device,
// its status, delete and deactivate; and every refusal with its message.

let standIn: PushStandIn;

beforeAll(async () => {
  standIn = await startPushStandIn();
});
afterAll(() => standIn?.close());
const server = useTestServer();

const statusOf = (token: string, device: Pick<BrowserDevice, 'deviceId'>, appName = 'hunch') =>
  server.request(
    'GET',
    `/api/push-subscriptions/status?deviceId=${device.deviceId}&appName=${appName}`,
    { token },
  );

function registration(device: BrowserDevice, overrides: Record<string, unknown> = {}) {
  return {
    appName: 'hunch',
    deviceId: device.deviceId,
    endpoint: device.endpoint,
    keys: device.keys,
    userAgent: 'Mozilla/5.0',
    deviceName: 'Mobile Chrome',
    ...overrides,
  };
}

describe('GET /api/push-subscriptions/vapid-public-key', () => {
  it('gives anyone the P-256 public key a browser subscribes with', async () => {
    const response = await server.request('GET', '/api/push-subscriptions/vapid-public-key');
    expect(response.status).toBe(200);
    const key = Buffer.from(response.body.publicKey, 'base64url');
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(0x04);
  });
});

describe('POST /api/push-subscriptions', () => {
  it('registers the device, active, without echoing its keys', async () => {
    const user = await createPlayer(server);
    const device = createBrowserDevice(standIn);
    expect((await statusOf(user.accessToken, device)).body).toEqual({ active: false });

    const response = await server.request('POST', '/api/push-subscriptions', {
      token: user.accessToken,
      body: registration(device),
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      appName: 'hunch',
      deviceId: device.deviceId,
      deviceName: 'Mobile Chrome',
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await statusOf(user.accessToken, device)).body).toEqual({ active: true });
  });

  it('keeps one subscription per user, app and device', async () => {
    const user = await createPlayer(server);
    const device = createBrowserDevice(standIn);
    const first = await registerDevice(server, user, device);
    const again = await registerDevice(server, user, device);
    expect(again.createdAt).toBe(first.createdAt);
    // Another app on the same device is its own subscription.
    expect((await statusOf(user.accessToken, device, 'other-app')).body).toEqual({ active: false });
  });

  it('moves an endpoint to the account that registers it last', async () => {
    const [first, second] = [await createPlayer(server), await createPlayer(server)];
    const device = createBrowserDevice(standIn);
    await registerDevice(server, first, device);
    await registerDevice(server, second, { ...device, deviceId: `${device.deviceId}-2` });
    expect((await statusOf(first.accessToken, device)).body).toEqual({ active: false });
    expect((await statusOf(second.accessToken, { deviceId: `${device.deviceId}-2` })).body).toEqual(
      { active: true },
    );
  });

  it('is for signed-in users', async () => {
    const response = await server.request('POST', '/api/push-subscriptions', {
      body: registration(createBrowserDevice(standIn)),
    });
    expect(response.status).toBe(401);
  });

  it.each([
    ['keys', { keys: undefined }, 'keys'],
    [
      'a p256dh of the wrong length',
      {
        keys: {
          p256dh: Buffer.alloc(33, 2).toString('base64url'),
          auth: Buffer.alloc(16).toString('base64url'),
        },
      },
      'keys.p256dh',
    ],
    [
      'an auth that is not base64url',
      { keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: 'not base64!' } },
      'keys.auth',
    ],
    ['an endpoint that is not a web URL', { endpoint: 'ftp://push.example.com/x' }, 'endpoint'],
    ['a deviceId with a slash', { deviceId: 'a/b' }, 'deviceId'],
    ['no appName', { appName: '' }, 'appName'],
  ])('refuses a body with %s (400, naming the field)', async (_case, overrides, field) => {
    const user = await createPlayer(server);
    const response = await server.request('POST', '/api/push-subscriptions', {
      token: user.accessToken,
      body: registration(createBrowserDevice(standIn), overrides),
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.fieldErrors[field]).toEqual(expect.any(String));
  });

  it('explains what is wrong with the keys', async () => {
    const user = await createPlayer(server);
    const response = await server.request('POST', '/api/push-subscriptions', {
      token: user.accessToken,
      body: registration(createBrowserDevice(standIn), { keys: { p256dh: 'abc', auth: 'abc' } }),
    });
    expect(response.body.fieldErrors).toMatchObject({
      'keys.p256dh': PUSH_MESSAGES.p256dhKey,
      'keys.auth': PUSH_MESSAGES.authKey,
    });
  });

  it("refuses every endpoint that is not a browser's push service (no request forgery)", async () => {
    const user = await createPlayer(server);
    for (const endpoint of [
      'http://push.example.com/send/1',
      'https://evil.example.com/send/1',
      'https://169.254.169.254/latest/meta-data',
      'https://127.0.0.1:8443/push',
      'https://10.0.0.1/push',
      'https://fcm.googleapis.com.evil.example/fcm/send/1',
      'https://fcm.googleapis.com:22/fcm/send/1',
      'https://user:secret@fcm.googleapis.com/fcm/send/1',
      'http://fcm.googleapis.com/fcm/send/1',
    ]) {
      const response = await server.request('POST', '/api/push-subscriptions', {
        token: user.accessToken,
        body: registration(createBrowserDevice(standIn), { endpoint }),
      });
      expect(response.status, endpoint).toBe(400);
      expect(response.body).toMatchObject({
        code: 'unknown_push_service',
        fieldErrors: { endpoint: PUSH_MESSAGES.endpointService },
      });
    }
  });

  it('accepts the known push services by default, and a loopback stand-in only when PUSH_ENDPOINT_HOSTS lists it', async () => {
    const standard = await startTestServer({
      env: { PUSH_ENDPOINT_HOSTS: DEFAULT_PUSH_ENDPOINT_HOSTS },
    });
    try {
      const user = await createPlayer(standard);
      const device = createBrowserDevice(standIn);
      const refused = await standard.request('POST', '/api/push-subscriptions', {
        token: user.accessToken,
        body: registration(device),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('unknown_push_service');
      for (const endpoint of [
        'https://fcm.googleapis.com/fcm/send/abc',
        'https://updates.push.services.mozilla.com/wpush/v2/abc',
        'https://web.push.apple.com/abc',
        'https://wns2-par02p.notify.windows.com/w/?token=abc',
      ]) {
        const accepted = await standard.request('POST', '/api/push-subscriptions', {
          token: user.accessToken,
          body: registration(createBrowserDevice(standIn), { endpoint }),
        });
        expect(accepted.status, endpoint).toBe(201);
      }
    } finally {
      await standard.close();
    }
  });

  it('never requests a stored endpoint outside the list: the sender calls it gone', async () => {
    const sender = createPushSender({
      vapid: resolveVapidIdentity(server.config),
      timeoutMs: 1000,
      isAllowedEndpoint: (endpoint) =>
        isAllowedPushEndpoint(endpoint, parsePushEndpointHosts(DEFAULT_PUSH_ENDPOINT_HOSTS)),
    });
    const device = createBrowserDevice(standIn);
    const before = standIn.received.length;
    const outcome = await sender.send(
      { id: 1, userId: 1, endpoint: device.endpoint, ...device.keys },
      { title: 't', body: 'b', url: '/', tag: 't' },
      { ttlSeconds: 60 },
    );
    expect(outcome.outcome).toBe('gone');
    expect(standIn.received.length).toBe(before);
  });
});

describe("another account and someone else's endpoint (audit item 18)", () => {
  it("refuses to take over an endpoint without its subscription's keys, and the owner keeps getting notifications", async () => {
    const [owner, intruder] = [await createPlayer(server), await createPlayer(server)];
    const device = createBrowserDevice(standIn);
    expect(
      (
        await server.request('POST', '/api/push-subscriptions', {
          token: owner.accessToken,
          body: registration(device),
        })
      ).status,
    ).toBe(201);
    const other = createBrowserDevice(standIn);
    const taken = await server.request('POST', '/api/push-subscriptions', {
      token: intruder.accessToken,
      body: registration(other, { endpoint: device.endpoint }),
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('push_endpoint_taken');
    expect((await statusOf(owner.accessToken, device)).body).toEqual({ active: true });
  });

  it('lets another account on the same browser (same keys) take the endpoint over', async () => {
    const [first, second] = [await createPlayer(server), await createPlayer(server)];
    const device = createBrowserDevice(standIn);
    expect(
      (
        await server.request('POST', '/api/push-subscriptions', {
          token: first.accessToken,
          body: registration(device),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await server.request('POST', '/api/push-subscriptions', {
          token: second.accessToken,
          body: registration(device),
        })
      ).status,
    ).toBe(201);
    expect((await statusOf(first.accessToken, device)).body).toEqual({ active: false });
  });
});

describe('GET /api/push-subscriptions/status', () => {
  it('answers for the caller only', async () => {
    const [owner, other] = [await createPlayer(server), await createPlayer(server)];
    const device = createBrowserDevice(standIn);
    await registerDevice(server, owner, device);
    expect((await statusOf(other.accessToken, device)).body).toEqual({ active: false });
  });

  it('needs a token, a deviceId and an appName', async () => {
    const user = await createPlayer(server);
    expect(
      (await server.request('GET', '/api/push-subscriptions/status?deviceId=x&appName=hunch'))
        .status,
    ).toBe(401);
    const missing = await server.request('GET', '/api/push-subscriptions/status?appName=hunch', {
      token: user.accessToken,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors.deviceId).toBe(PUSH_MESSAGES.deviceIdRequired);
    const noApp = await server.request('GET', '/api/push-subscriptions/status?deviceId=x', {
      token: user.accessToken,
    });
    expect(noApp.status).toBe(400);
    expect(noApp.body.fieldErrors.appName).toBe(PUSH_MESSAGES.appNameRequired);
  });
});

describe('DELETE /api/push-subscriptions/user/{deviceId}', () => {
  it('removes the device subscription (204), and again is fine', async () => {
    const user = await createPlayer(server);
    const device = createBrowserDevice(standIn);
    await registerDevice(server, user, device);
    const path = `/api/push-subscriptions/user/${device.deviceId}?appName=hunch`;
    expect((await server.request('DELETE', path, { token: user.accessToken })).status).toBe(204);
    expect((await statusOf(user.accessToken, device)).body).toEqual({ active: false });
    expect((await server.request('DELETE', path, { token: user.accessToken })).status).toBe(204);
  });

  it("never touches another user's subscription", async () => {
    const [owner, other] = [await createPlayer(server), await createPlayer(server)];
    const device = createBrowserDevice(standIn);
    await registerDevice(server, owner, device);
    expect(
      (
        await server.request(
          'DELETE',
          `/api/push-subscriptions/user/${device.deviceId}?appName=hunch`,
          { token: other.accessToken },
        )
      ).status,
    ).toBe(204);
    expect((await statusOf(owner.accessToken, device)).body).toEqual({ active: true });
  });

  it('needs a token and an appName', async () => {
    const user = await createPlayer(server);
    expect(
      (await server.request('DELETE', '/api/push-subscriptions/user/x?appName=hunch')).status,
    ).toBe(401);
    const response = await server.request('DELETE', '/api/push-subscriptions/user/x', {
      token: user.accessToken,
    });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors.appName).toBe(PUSH_MESSAGES.appNameRequired);
  });
});

describe('PATCH /api/push-subscriptions/user/{deviceId}/deactivate', () => {
  it('silences the device until it registers again', async () => {
    const user = await createPlayer(server);
    const device = createBrowserDevice(standIn);
    await registerDevice(server, user, device);
    const response = await server.request(
      'PATCH',
      `/api/push-subscriptions/user/${device.deviceId}/deactivate?appName=hunch`,
      { token: user.accessToken },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ deviceId: device.deviceId, active: false });
    expect((await statusOf(user.accessToken, device)).body).toEqual({ active: false });

    await registerDevice(server, user, device);
    expect((await statusOf(user.accessToken, device)).body).toEqual({ active: true });
  });

  it('answers 404 for a device with no subscription, and 401 without a token', async () => {
    const user = await createPlayer(server);
    const unknown = await server.request(
      'PATCH',
      '/api/push-subscriptions/user/nobody/deactivate?appName=hunch',
      { token: user.accessToken },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('push_subscription_not_found');
    expect(
      (
        await server.request(
          'PATCH',
          '/api/push-subscriptions/user/nobody/deactivate?appName=hunch',
        )
      ).status,
    ).toBe(401);
  });
});
