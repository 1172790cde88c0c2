import { describe, expect, it } from 'vitest';
import { API_TOKEN_MESSAGES, type ApiToken } from '../../../src/domain/api-tokens';
import { createUser, useTestServer } from '../harness';
import { makeToken } from './api-token.factories';

// A personal API token may expire, as GitHub's do: `expiresAt` ahead, a year at most (omitted:
// never). It is listed with the token; from then on the token answers 401 invalid_api_token,
// as a revoked one does, while the account's other tokens go on working.

const server = useTestServer();
const DAY = 24 * 60 * 60 * 1000;
const ahead = (ms: number) => new Date(server.clock.now().getTime() + ms).toISOString();

describe('a token with an expiry', () => {
  it('is listed with its expiry and answers 401 from then on, as a revoked one', async () => {
    const user = await createUser(server);
    const expiresAt = ahead(30 * DAY);
    const expiring = await makeToken(server, user, ['read'], 'Month bot', expiresAt);
    const lasting = await makeToken(server, user, ['read'], 'Forever bot');
    expect(expiring.expiresAt).toBe(expiresAt);
    expect(lasting.expiresAt).toBeNull();
    const listed = await server.request<ApiToken[]>('GET', '/api/tokens', {
      token: user.accessToken,
    });
    expect(listed.body.map((token) => [token.name, token.expiresAt])).toEqual([
      ['Forever bot', null],
      ['Month bot', expiresAt],
    ]);

    const read = (token: string) => server.request('GET', '/api/groups', { token });
    expect((await read(expiring.token)).status).toBe(200);
    server.clock.advance(30 * DAY - 60_000);
    expect((await read(expiring.token)).status).toBe(200);
    server.clock.advance(60_000);
    const refused = await read(expiring.token);
    expect([refused.status, refused.body.code]).toEqual([401, 'invalid_api_token']);
    expect(refused.body.message).toBe(API_TOKEN_MESSAGES.invalid);
    // The others go on; the expired one stays listed (as expired) until revoked.
    expect((await read(lasting.token)).status).toBe(200);
    const signedIn = await server.request('POST', '/auth/login', {
      body: { email: user.email, password: user.password, appName: 'hunch' },
    });
    const after = await server.request<ApiToken[]>('GET', '/api/tokens', {
      token: signedIn.body.accessToken,
    });
    expect(after.body.map((token) => token.name)).toEqual(['Forever bot', 'Month bot']);
  });

  it('accepts null and an offset, stored as UTC', async () => {
    const user = await createUser(server);
    const never = await server.request('POST', '/api/tokens', {
      token: user.accessToken,
      body: { name: 'Null bot', scopes: ['read'], expiresAt: null },
    });
    expect([never.status, never.body.expiresAt]).toEqual([201, null]);
    const inAWeek = new Date(server.clock.now().getTime() + 7 * DAY);
    inAWeek.setUTCMilliseconds(0);
    const withOffset = inAWeek.toISOString().replace('Z', '+00:00');
    const offset = await makeToken(server, user, ['read'], 'Offset bot', withOffset);
    expect(offset.expiresAt).toBe(inAWeek.toISOString());
  });

  it.each([
    ['yesterday', () => ahead(-DAY), API_TOKEN_MESSAGES.expiryInPast],
    ['now', () => ahead(0), API_TOKEN_MESSAGES.expiryInPast],
    ['over a year ahead', () => ahead(367 * DAY), API_TOKEN_MESSAGES.expiryTooFar],
    ['not a date', () => 'next month', API_TOKEN_MESSAGES.expiryInvalid],
    ['a date without a time', () => '2030-01-01', API_TOKEN_MESSAGES.expiryInvalid],
  ])('refuses an expiry %s with 400, naming the field, and makes nothing', async (_, at, text) => {
    const user = await createUser(server);
    const response = await server.request('POST', '/api/tokens', {
      token: user.accessToken,
      body: { name: 'Bot', scopes: ['read'], expiresAt: at() },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.fieldErrors?.expiresAt).toBe(text);
    const listed = await server.request('GET', '/api/tokens', { token: user.accessToken });
    expect(listed.body).toEqual([]);
  });

  it('accepts a year ahead, the longest the profile offers', async () => {
    const user = await createUser(server);
    const yearAhead = ahead(365 * DAY);
    expect((await makeToken(server, user, ['read'], 'Year bot', yearAhead)).expiresAt).toBe(
      yearAhead,
    );
  });
});
