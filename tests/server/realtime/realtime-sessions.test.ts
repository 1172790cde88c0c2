import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME } from '../../../src/domain/constants';
import { generateOpaqueToken, hashOpaqueToken } from '../../../src/server/auth/tokens';
import { passwordResets } from '../../../src/server/db/schema';
import { createUser, login, useTestServer, type SignedInUser } from '../harness';
import { connectionError, connectSocket, type TestSocket } from './test-socket';

// Sockets were authenticated at connection only (audit item 8): one kept hearing its groups
// after its token expired and after a password change. A socket now closes when its token
// expires (the client reconnects with a refreshed one), and a user's sockets are dropped
// when their sessions end; only a token of a live session gets back in.

const server = useTestServer({ socketExpiryCheckMs: 50 });
const open: TestSocket[] = [];
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

function disconnection(client: TestSocket): Promise<string> {
  return new Promise((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)));
}

async function twoSessions(): Promise<{
  user: SignedInUser;
  other: { accessToken: string; refreshToken: string };
}> {
  const user = await createUser(server);
  const other = await login(server, user.email, user.password);
  expect(other.status).toBe(200);
  return { user, other: other.body };
}

describe('a socket whose session ends', () => {
  it('is dropped at sign-out everywhere, and its token no longer connects', async () => {
    const { user, other } = await twoSessions();
    const client = await connectSocket(server, other.accessToken);
    open.push(client);
    const dropped = disconnection(client);
    expect(
      (await server.request('DELETE', '/auth/users/me/sessions', { token: user.accessToken }))
        .status,
    ).toBe(200);
    // A lost connection (not "io server disconnect"): the client reconnects and must prove its session.
    expect(await dropped).toBe('transport close');
    expect(await connectionError(server, { auth: { token: other.accessToken } })).toContain(
      'Authentication',
    );
    expect(await connectionError(server, { auth: { token: user.accessToken } })).toContain(
      'Authentication',
    );
  });

  it('is dropped when the password changes; the device that changed it reconnects with its new token', async () => {
    const { user, other } = await twoSessions();
    const elsewhere = await connectSocket(server, other.accessToken);
    const here = await connectSocket(server, user.accessToken);
    open.push(elsewhere, here);
    const [droppedElsewhere, droppedHere] = [disconnection(elsewhere), disconnection(here)];
    const changed = await server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: {
        password: 'Brand-new-pass-7',
        passwordConfirm: 'Brand-new-pass-7',
        currentPassword: user.password,
      },
    });
    expect(changed.status).toBe(200);
    expect(await droppedElsewhere).toBe('transport close');
    expect(await droppedHere).toBe('transport close');
    expect(await connectionError(server, { auth: { token: other.accessToken } })).toContain(
      'Authentication',
    );
    const again = await connectSocket(server, changed.body.accessToken);
    open.push(again);
    expect(again.heard('connectionAuthenticated')).toHaveLength(1);
  });

  it('is dropped when the password is reset', async () => {
    const { user, other } = await twoSessions();
    const client = await connectSocket(server, other.accessToken);
    open.push(client);
    const dropped = disconnection(client);
    const token = generateOpaqueToken();
    await server.database.db.insert(passwordResets).values({
      userId: user.user.id,
      sentTo: user.email,
      tokenHash: hashOpaqueToken(token),
      expiresAt: new Date(Date.now() + TOKEN_LIFETIME.passwordResetSeconds * 1000),
    });
    const reset = await server.request('POST', '/auth/reset-password', {
      body: { token, password: 'New-password-42', passwordConfirm: 'New-password-42' },
    });
    expect(reset.status).toBe(200);
    expect(await dropped).toBe('transport close');
    expect(await connectionError(server, { auth: { token: other.accessToken } })).toContain(
      'Authentication',
    );
  });

  it('of one sign-out alone ends; the other session reconnects', async () => {
    const { user, other } = await twoSessions();
    expect(
      (
        await server.request('POST', '/auth/revoke-token', {
          body: { refreshToken: other.refreshToken },
        })
      ).status,
    ).toBe(200);
    expect(await connectionError(server, { auth: { token: other.accessToken } })).toContain(
      'Authentication',
    );
    const stillIn = await connectSocket(server, user.accessToken);
    open.push(stillIn);
    expect(stillIn.heard('connectionAuthenticated')).toHaveLength(1);
  });
});

describe('a socket whose access token expires', () => {
  it('is closed as a lost connection, so the client reconnects with a refreshed token', async () => {
    const user = await createUser(server);
    const client = await connectSocket(server, user.accessToken);
    open.push(client);
    const dropped = disconnection(client);
    server.clock.advance((TOKEN_LIFETIME.accessSeconds + 1) * 1000);
    try {
      expect(await dropped).toBe('transport close');
    } finally {
      server.clock.advance(-(TOKEN_LIFETIME.accessSeconds + 1) * 1000);
    }
  });
});
