import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, readCookie } from '../../../src/client/data/api-client';
import { createSessionStore } from '../../../src/client/data/session-store';
import { startStandIn, type StandIn } from '../stand-in-server';

// A real tiny HTTP server stands in for the accounts API: the client under test speaks real
// HTTP to it, so the interceptor is exercised exactly as in the browser.

const user = {
  id: 1,
  appName: 'hunch',
  email: 'a@example.com',
  username: 'a',
  firstName: 'A',
  lastName: 'B',
  displayName: 'A',
  isTemporary: false,
  roles: [],
  profilePictureUrl: null,
};

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  csrf: string | undefined;
}

let standIn: StandIn;
let baseUrl: string;
let seen: Seen[] = [];
/** While set, /auth/refresh-token answers only once it resolves (a refresh still in flight). */
let refreshHeld: Promise<unknown> | null = null;
let acceptedAccessToken = 'fresh-access';
/** While set, /api/held answers only once it resolves (a request still in flight). */
let holdAnswer: Promise<void> | null = null;

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

const readJson = (req: IncomingMessage) =>
  new Promise<Record<string, unknown>>((resolve) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString()));
    req.on('end', () => resolve(data ? (JSON.parse(data) as Record<string, unknown>) : {}));
  });

beforeAll(async () => {
  standIn = await startStandIn(async (req, res) => {
    seen.push({
      method: req.method!,
      url: req.url!,
      authorization: req.headers.authorization,
      csrf: req.headers['x-xsrf-token'] as string | undefined,
    });
    const body = await readJson(req);
    if (req.url === '/auth/refresh-token') {
      if (refreshHeld) await refreshHeld;
      if (body.refreshToken === 'good-refresh') {
        return json(res, 200, {
          accessToken: 'fresh-access',
          refreshToken: 'rotated-refresh',
          user,
        });
      }
      return json(res, 401, { message: 'Invalid refresh token', code: 'invalid_refresh_token' });
    }
    if (req.url === '/auth/logout')
      return json(res, 401, {
        message: 'Your session has expired. Please sign in again.',
        code: 'invalid_access_token',
      });
    if (req.url === '/auth/revoke-token') return json(res, 200, { message: 'ok' });
    if (req.url === '/api/held' && holdAnswer) await holdAnswer;
    if (req.url === '/api/proxy')
      return json(res, 502, { message: 'Bad gateway', code: 'upstream_down' });
    if (req.url === '/api/broken')
      return json(res, 422, {
        message: 'Not enough points',
        code: 'insufficient_points',
        fieldErrors: { points: 'Too many' },
      });
    if (req.headers.authorization === `Bearer ${acceptedAccessToken}`)
      return json(res, 200, { ok: true, url: req.url });
    return json(res, 401, {
      message: 'Your session has expired. Please sign in again.',
      code: 'invalid_access_token',
    });
  });
  baseUrl = standIn.baseUrl;
});

afterAll(() => standIn.close());

beforeEach(() => {
  seen = [];
  refreshHeld = null;
  acceptedAccessToken = 'fresh-access';
  holdAnswer = null;
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

function setup({
  refreshToken = 'good-refresh',
  refreshWaitMs = 30_000,
  origin = 'http://elsewhere.example',
} = {}) {
  const session = createSessionStore({
    storages: { persistent: localStorage, temporary: sessionStorage },
  });
  session.signIn({ accessToken: 'stale-access', refreshToken, user }, false);
  let logouts = 0;
  session.events.on('logout', () => logouts++);
  let refused = 0;
  const api = createApiClient({
    session,
    baseUrl,
    // Counts the 401s the client has received: each one's handling (joining the shared
    // refresh) runs in the same turn, before any later answer is read.
    fetch: async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (response.status === 401) refused += 1;
      return response;
    },
    refreshWaitMs,
    origin: () => origin,
    readCsrfToken: () => 'csrf-123',
  });
  /** Resolves once the client has received `count` 401s (vi.waitFor looks on a later turn). */
  const refusedTimes = (count: number) =>
    vi.waitFor(() => expect(refused).toBeGreaterThanOrEqual(count), { timeout: 10_000 });
  return { session, api, logouts: () => logouts, refusedTimes };
}

const count = (predicate: (s: Seen) => boolean) => seen.filter(predicate).length;

describe('api client: the shared token refresh (docs/accounts-and-shell.md §4)', () => {
  it('sends the Bearer access token on every request', async () => {
    const { api } = setup();
    acceptedAccessToken = 'stale-access';
    await expect(api.get('/api/me')).resolves.toEqual({ ok: true, url: '/api/me' });
    expect(seen[0]!.authorization).toBe('Bearer stale-access');
  });

  it('answers five concurrent 401s with one refresh and five retries', async () => {
    const { api, session, refusedTimes } = setup();
    // The refresh is answered once all five 401s are in: each of them found it in flight.
    refreshHeld = refusedTimes(5);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => api.get<{ ok: boolean }>(`/api/thing/${n}`)),
    );

    expect(results.every((r) => r.ok)).toBe(true);
    expect(count((s) => s.url === '/auth/refresh-token')).toBe(1);
    expect(
      count((s) => s.url.startsWith('/api/thing') && s.authorization === 'Bearer stale-access'),
    ).toBe(5);
    expect(
      count((s) => s.url.startsWith('/api/thing') && s.authorization === 'Bearer fresh-access'),
    ).toBe(5);
    // the refresh keeps the storage in use (no remember-me: sessionStorage)
    expect(sessionStorage.getItem('access_token')).toBe('fresh-access');
    expect(sessionStorage.getItem('refresh_token')).toBe('rotated-refresh');
    expect(session.getSnapshot().user).not.toBeNull();
  });

  it('logs out when the refresh fails', async () => {
    const { api, session, logouts, refusedTimes } = setup({ refreshToken: 'revoked-refresh' });
    // The refresh is refused once all three 401s are in: each of them found it in flight.
    refreshHeld = refusedTimes(3);
    const results = await Promise.allSettled([
      api.get('/api/a'),
      api.get('/api/b'),
      api.get('/api/c'),
    ]);

    expect(
      results.every(
        (r) => r.status === 'rejected' && r.reason instanceof ApiError && r.reason.status === 401,
      ),
    ).toBe(true);
    expect(count((s) => s.url === '/auth/refresh-token')).toBe(1);
    expect(logouts()).toBe(1);
    expect(session.getSnapshot()).toEqual({ user: null, signedOutBy: 'expired' });
    expect(sessionStorage.length).toBe(0);
  });

  it('logs out when the refresh outlasts the wait', async () => {
    // The refresh is answered only after the client has given up on it.
    let answerRefresh = () => undefined as void;
    refreshHeld = new Promise<void>((resolve) => (answerRefresh = resolve));
    const { api, session } = setup({ refreshWaitMs: 60 });
    await expect(api.get('/api/slow')).rejects.toBeInstanceOf(ApiError);
    expect(session.getSnapshot().user).toBeNull();
    // The stand-in may not have read the abandoned refresh yet (under load it came in after
    // the next test began, which then counted two): it is seen here before it is answered.
    await vi.waitFor(() => expect(count((s) => s.url === '/auth/refresh-token')).toBe(1), {
      timeout: 10_000,
    });
    answerRefresh();
  });

  it('never starts a refresh for a 401 from the refresh or logout call itself', async () => {
    const { api, session, logouts } = setup();
    await expect(api.post('/auth/logout')).rejects.toMatchObject({ status: 401 });
    await expect(api.post('/auth/refresh-token', { refreshToken: 'nope' })).rejects.toMatchObject({
      status: 401,
    });

    expect(count((s) => s.url === '/auth/refresh-token')).toBe(1); // only the explicit call
    expect(logouts()).toBe(0);
    expect(session.getSnapshot().user).not.toBeNull();
  });

  it('never hands over an answer to a request of a session that ended while it was in flight', async () => {
    const { api, session } = setup();
    acceptedAccessToken = 'stale-access';
    let answer = () => undefined as void;
    holdAnswer = new Promise<void>((resolve) => (answer = resolve));
    const inFlight = api.get('/api/held');
    await expect.poll(() => count((s) => s.url === '/api/held')).toBe(1);

    await session.logout();
    answer();

    // Whatever reads it (a stats screen, a group page) would otherwise keep it on the device.
    await expect(inFlight).rejects.toMatchObject({ status: 401 });
    // A sign-in afterwards is a session of its own: its requests are answered as ever.
    session.signIn({ accessToken: 'stale-access', refreshToken: 'good-refresh', user }, false);
    await expect(api.get('/api/held')).resolves.toEqual({ ok: true, url: '/api/held' });
  });

  it('renews a session kept by its refresh token alone before its first request', async () => {
    const { api, session, logouts } = setup();
    sessionStorage.removeItem('access_token');
    await expect(api.get('/api/inbox')).resolves.toEqual({ ok: true, url: '/api/inbox' });
    expect(seen.map((s) => [s.url, s.authorization])).toEqual([
      ['/auth/refresh-token', undefined],
      ['/api/inbox', 'Bearer fresh-access'],
    ]);
    expect(session.getRefreshToken()).toBe('rotated-refresh');
    expect(logouts()).toBe(0);
  });

  it('does not refresh for a 401 on a request sent without a token', async () => {
    const { api } = setup();
    await expect(api.get('/api/public', { auth: false })).rejects.toMatchObject({ status: 401 });
    expect(count((s) => s.url === '/auth/refresh-token')).toBe(0);
  });

  it('turns an error body into a typed ApiError', async () => {
    const { api } = setup();
    const error = await api.get('/api/broken').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'insufficient_points',
      message: 'Not enough points',
      fieldErrors: { points: 'Too many' },
    });
  });

  it('keeps only the codes our server sends: a code from a proxy reads as http_error', async () => {
    const { api } = setup();
    const error = await api.get('/api/proxy').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'http_error', message: 'Bad gateway' });
  });
});

describe('api client: CSRF header (docs/accounts-and-shell.md §4)', () => {
  it('sends X-XSRF-TOKEN on same-origin non-GET requests only', async () => {
    acceptedAccessToken = 'stale-access';
    const { api } = setup({ origin: baseUrl });
    await api.get('/api/x');
    await api.post('/api/y', { a: 1 });
    expect(seen.map((s) => [s.method, s.csrf])).toEqual([
      ['GET', undefined],
      ['POST', 'csrf-123'],
    ]);
  });

  it('does not send it to another origin', async () => {
    acceptedAccessToken = 'stale-access';
    const { api } = setup({ origin: 'http://app.example' });
    await api.post('/api/y', {});
    expect(seen[0]!.csrf).toBeUndefined();
  });

  it('reads the token from the cookie string', () => {
    expect(readCookie('XSRF-TOKEN', 'a=1; XSRF-TOKEN=abc%3D%3D; b=2')).toBe('abc==');
    expect(readCookie('XSRF-TOKEN', 'a=1')).toBeNull();
  });
});
