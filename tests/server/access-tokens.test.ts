import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokens } from '../../src/server/auth/tokens';

// The access token check every signed-in call goes through (docs/architecture.md §6): forged,
// tampered and expired tokens are refused, also once a token has been verified and is
// answered from the verified-token cache.

const secret = 'a-test-secret-of-enough-length-0123456789';
const user = { id: 42, appName: 'hunch', isTemporary: false };

afterEach(() => {
  vi.useRealTimers();
});

describe('access tokens', () => {
  it('verifies a token it signed, again and again', async () => {
    const tokens = new AccessTokens(secret);
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).toEqual(user);
    expect(await tokens.verify(token)).toEqual(user);
  });

  it('refuses a token signed with another secret, a tampered payload and garbage', async () => {
    const tokens = new AccessTokens(secret);
    const forged = await new AccessTokens('another-secret-of-enough-length-987654321').sign(user);
    expect(await tokens.verify(forged)).toBeUndefined();
    const [header, payload, signature] = (await tokens.sign(user)).split('.') as [
      string,
      string,
      string,
    ];
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '1' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${otherPayload}.${signature}`)).toBeUndefined();
    expect(await tokens.verify('not.a.token')).toBeUndefined();
    expect(await tokens.verify('')).toBeUndefined();
  });

  it('refuses a token once it has expired, also after it was verified while valid', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const tokens = new AccessTokens(secret);
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).toEqual(user);
    vi.setSystemTime(new Date('2030-01-01T00:14:59Z'));
    expect(await tokens.verify(token)).toEqual(user);
    vi.setSystemTime(new Date('2030-01-01T00:15:00Z'));
    expect(await tokens.verify(token)).toBeUndefined();
    // And a fresh instance (no cache) agrees.
    expect(await new AccessTokens(secret).verify(token)).toBeUndefined();
  });
});
