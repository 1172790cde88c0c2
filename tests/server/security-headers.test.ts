import { describe, expect, it } from 'vitest';
import { createGuest, createUser, login, newAccount, useTestServer } from './harness';
import { listRoutes, listSignedInRoutes } from './route-table';

// What the API answers is the caller's own (points, picks, tokens): no browser, proxy or
// service worker cache may keep it, so every answer of the JSON API says Cache-Control:
// no-store — signed-in answers and the ones that carry tokens above all.

const server = useTestServer();

const isApi = (url: string) => url.startsWith('/api/') || url.startsWith('/auth/');
/** The one API answer that is the same for everyone, and cacheable (tests/server/openapi.test.ts). */
const OPENAPI_DOCUMENT = '/api/openapi.json';

describe('Cache-Control: no-store', () => {
  it('is on the answer of every signed-in route, whatever it answers', async () => {
    const routes = await listSignedInRoutes(server);
    expect(routes.length).toBeGreaterThan(40);
    // Every signed-in route is under the API's prefixes, which the header covers as a whole.
    expect(routes.filter((route) => !isApi(route.url))).toEqual([]);

    const missing: string[] = [];
    for (const route of routes) {
      // A player of their own: some routes end the session or the account.
      const guest = await createGuest(server);
      const response = await server.request(route.method, route.url, {
        token: guest.accessToken,
        body: route.method === 'GET' ? undefined : {},
      });
      if (response.headers.get('cache-control') !== 'no-store')
        missing.push(
          `${route.method} ${route.pattern} → ${response.status}: ${response.headers.get('cache-control')}`,
        );
    }
    expect(missing).toEqual([]);
  });

  it('is on the answers that carry tokens: sign-up, guest sign-up, login, refresh', async () => {
    const account = newAccount();
    const registered = await server.request('POST', '/auth/register', { body: account });
    const guest = await server.request('POST', '/auth/register-guest', {
      body: { displayName: 'Guest', appName: 'hunch' },
    });
    const loggedIn = await login(server, account.email, account.password);
    const refreshed = await server.request('POST', '/auth/refresh-token', {
      body: { refreshToken: loggedIn.body.refreshToken },
    });
    for (const [status, response] of [
      [201, registered],
      [201, guest],
      [200, loggedIn],
      [200, refreshed],
    ] as const) {
      expect(response.status, response.text).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('is on every other API answer too (public routes, refusals, unknown paths)', async () => {
    const user = await createUser(server);
    const answers = [
      await server.request('GET', '/api/groups/public'),
      await login(server, user.email, 'Wrong-password-1'),
      await server.request('GET', '/api/no-such-route', { token: user.accessToken }),
      ...(await Promise.all(
        listRoutes(server.app)
          .filter(
            (route) => route.method === 'GET' && isApi(route.url) && route.url !== OPENAPI_DOCUMENT,
          )
          .map((route) => server.request('GET', route.url)),
      )),
    ];
    for (const response of answers) expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is not on the app’s own pages, which the browser revalidates', async () => {
    const page = await server.request('GET', '/dashboard', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).not.toBe('no-store');
  });
});
