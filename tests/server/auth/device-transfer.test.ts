import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AuthResponse } from '../../../src/domain/auth';
import type { DeviceTransfer } from '../../../src/domain/device-transfer';
import { deviceTransfers } from '../../../src/server/db/schema';
import { createBet, placeWager, pointsOf } from '../bets/bet.factories';
import { createGroup } from '../groups/group.factories';
import { connectSocket, syncSockets } from '../realtime/test-socket';
import { createGuest, useLoggingTestServer, useTestServer, type TestServer } from '../harness';

// Move to another device: a one-time code, 10 minutes, single use, revocable,
// rate limited, that signs the same account in elsewhere with a session of its own. Single
// use under two devices at once is in db/concurrency.test.ts.

const server = useTestServer();
const TEN_MINUTES = 10 * 60 * 1000;

async function makeCode(user: AuthResponse): Promise<DeviceTransfer> {
  const response = await server.request<DeviceTransfer>('POST', '/auth/device-transfers', {
    token: user.accessToken,
  });
  expect(response.status).toBe(201);
  return response.body;
}
// An AuthResponse, or an error body: the harness's answers are untyped unless told.
const redeem = (transferCode: string, target: TestServer = server) =>
  target.request('POST', '/auth/device-transfers/redeem', {
    body: { transferCode, appName: 'hunch' },
  });
const preview = (transferCode: string) =>
  server.request('POST', '/auth/device-transfers/preview', {
    body: { transferCode },
  });

describe('moving an account to another device', () => {
  it('signs the same guest in elsewhere, with its points and a session of its own', async () => {
    const guest = await createGuest(server, 'Maya');
    const group = await createGroup(server, guest, { defaultPoints: 100 });
    const bet = await createBet(server, guest, group);
    await placeWager(server, guest, bet, 'yes', bet.baseWagerAmount * 2);
    const before = await pointsOf(server, guest, group);
    const madeAt = server.clock.now().getTime();
    const { transferCode, expiresAt } = await makeCode(guest);
    const lifetime = Date.parse(expiresAt) - madeAt;
    expect(lifetime).toBeGreaterThanOrEqual(TEN_MINUTES);
    expect(lifetime).toBeLessThan(TEN_MINUTES + 5000);

    const seen = await preview(transferCode);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ displayName: 'Maya', isTemporary: true });

    const elsewhere = await redeem(transferCode);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.user.id).toBe(guest.user.id);
    expect(elsewhere.body.user.isTemporary).toBe(true);
    expect(await pointsOf(server, elsewhere.body, group)).toEqual(before);
    // Both devices stay signed in, each with its own refresh token.
    expect(elsewhere.body.refreshToken).not.toBe(guest.refreshToken);
    for (const refreshToken of [guest.refreshToken, elsewhere.body.refreshToken]) {
      const refreshed = await server.request('POST', '/auth/refresh-token', {
        body: { refreshToken },
      });
      expect(refreshed.status).toBe(200);
    }
  });

  it('expires after 10 minutes', async () => {
    const guest = await createGuest(server);
    const { transferCode } = await makeCode(guest);
    server.clock.advance(TEN_MINUTES);
    try {
      const late = await redeem(transferCode);
      expect(late.status).toBe(400);
      expect(late.body.code).toBe('invalid_transfer_code');
    } finally {
      server.clock.advance(-TEN_MINUTES);
    }
    // Back inside its 10 minutes it would work: only time refused it.
    expect((await redeem(transferCode)).status).toBe(200);
  });

  it('is revoked by Cancel, by a newer code, and by signing out everywhere', async () => {
    const guest = await createGuest(server);
    const cancelled = await makeCode(guest);
    const revoke = await server.request('DELETE', '/auth/device-transfers', {
      token: guest.accessToken,
    });
    expect(revoke.status).toBe(200);
    expect((await redeem(cancelled.transferCode)).status).toBe(400);

    const older = await makeCode(guest);
    const newer = await makeCode(guest);
    expect((await redeem(older.transferCode)).status).toBe(400);

    await server.request('DELETE', '/auth/users/me/sessions', { token: guest.accessToken });
    expect((await redeem(newer.transferCode)).status).toBe(400);
  });

  it('refuses a wrong secret for a real code, and a deleted account’s code', async () => {
    const guest = await createGuest(server);
    const { transferCode } = await makeCode(guest);
    const [id] = transferCode.split('.');
    const forged = await redeem(`${id}.${'A'.repeat(43)}`);
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('invalid_transfer_code');
    // The forged try did not use it up.
    const { transferCode: second } = await makeCode(guest);
    await server.request('DELETE', '/auth/users/me', { token: guest.accessToken, body: {} });
    expect((await redeem(second)).status).toBe(400);
    expect((await preview(second)).status).toBe(400);
  });

  it('answers 400 for a malformed code, and 401 to make one without a session', async () => {
    const malformed = await redeem('12.short');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_failed');
    expect(malformed.body.fieldErrors.transferCode).toBe(
      'This sign-in link is not complete. Scan or copy it again.',
    );
    expect((await server.request('POST', '/auth/device-transfers')).status).toBe(401);
  });

  it("tells the first device's sockets when its code is used, and nobody else's", async () => {
    const maya = await createGuest(server, 'Maya');
    const sam = await createGuest(server, 'Sam');
    const mayaSocket = await connectSocket(server, maya.accessToken);
    const samSocket = await connectSocket(server, sam.accessToken);
    try {
      const { transferCode } = await makeCode(maya);
      await syncSockets(
        server,
        { client: mayaSocket, userId: maya.user.id },
        { client: samSocket, userId: sam.user.id },
      );
      expect(mayaSocket.heard('deviceTransferRedeemed')).toEqual([]);

      const before = server.clock.now().getTime();
      expect((await redeem(transferCode)).status).toBe(200);
      const after = server.clock.now().getTime();
      const { redeemedAt } = await mayaSocket.waitFor('deviceTransferRedeemed');
      expect(Date.parse(redeemedAt)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(redeemedAt)).toBeLessThanOrEqual(after);
      // A refused second try says nothing more.
      expect((await redeem(transferCode)).status).toBe(400);
      await syncSockets(
        server,
        { client: mayaSocket, userId: maya.user.id },
        { client: samSocket, userId: sam.user.id },
      );
      expect(mayaSocket.heard('deviceTransferRedeemed')).toHaveLength(1);
      expect(samSocket.heard('deviceTransferRedeemed')).toEqual([]);
    } finally {
      mayaSocket.close();
      samSocket.close();
    }
  });

  it('stores only a hash of the code', async () => {
    const guest = await createGuest(server);
    const { transferCode } = await makeCode(guest);
    const secret = transferCode.split('.')[1]!;
    const rows = await server.database.db
      .select({ secretHash: deviceTransfers.secretHash })
      .from(deviceTransfers)
      .where(eq(deviceTransfers.userId, guest.user.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => !row.secretHash.includes(secret))).toBe(true);
  });
});

describe('rate limits', () => {
  const limited = useTestServer({ rateLimits: { transferCodesPerUser: 2, transferTriesPerIp: 3 } });

  it('limits how many codes a person makes in a minute', async () => {
    const guest = await createGuest(limited);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await limited.request('POST', '/auth/device-transfers', {
        token: guest.accessToken,
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([201, 201, 429]);
  });

  it('limits how many codes a device tries in a minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await redeem(`${i + 1}.${'B'.repeat(43)}`, limited)).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});

describe('the code in the logs', () => {
  const logged = useLoggingTestServer();

  it('is never logged', async () => {
    const guest = await createGuest(logged.server);
    const made = await logged.server.request<DeviceTransfer>('POST', '/auth/device-transfers', {
      token: guest.accessToken,
    });
    await redeem(made.body.transferCode, logged.server);
    const secret = made.body.transferCode.split('.')[1]!;
    expect(logged.log()).not.toContain(secret);
  });
});
