import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { createGroup, createPlayer } from './groups/group.factories';
import { useTestServer, type TestServer } from './harness';
import { connectSocket } from './realtime/test-socket';

// Prometheus metrics (src/server/metrics.ts) on a real server: GET /metrics with METRICS_TOKEN,
// the loopback METRICS_PORT, and the counters moving after real requests, pulls, replays,
// sockets and job passes.

const TOKEN = 'metrics-token-of-the-test-0123456789';

/** The value of one sample: `name` with exactly these labels (none: the unlabelled sample). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (
      JSON.stringify(found, Object.keys(found).sort()) ===
      JSON.stringify(labels, Object.keys(labels).sort())
    )
      return Number(match[3]);
  }
  return 0;
}

async function scrape(server: TestServer): Promise<string> {
  const response = await server.request('GET', '/metrics', {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text;
}

describe('without METRICS_TOKEN or METRICS_PORT', () => {
  const server = useTestServer();

  it('answers 404 at /metrics, also to a scraper that asks for text', async () => {
    const response = await server.request('GET', '/metrics', {
      headers: { accept: 'text/plain;version=0.0.4;q=0.5,*/*;q=0.1' },
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'not_found' });
    expect(server.app.metrics.isEnabled).toBe(false);
  });
});

describe('with METRICS_TOKEN', () => {
  const server = useTestServer({ env: { METRICS_TOKEN: TOKEN, PICKS_REVEAL_INTERVAL_MS: '50' } });

  it('refuses a scrape without the token or with another one (401)', async () => {
    const none = await server.request('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'authentication_required' });
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await server.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
    const player = await createPlayer(server);
    const accessToken = await server.request('GET', '/metrics', { token: player.accessToken });
    expect(accessToken.status).toBe(401);
  });

  it('counts requests by route pattern, method and status class', async () => {
    const player = await createPlayer(server);
    const group = await createGroup(server, player);
    const labels = { route: '/api/groups/:id', method: 'GET', status_class: '2xx' };
    const before = sample(
      await scrape(server),
      'hunch_http_request_duration_seconds_count',
      labels,
    );
    for (let i = 0; i < 3; i++)
      expect(
        (await server.request('GET', `/api/groups/${group.id}`, { token: player.accessToken }))
          .status,
      ).toBe(200);
    const text = await scrape(server);
    expect(sample(text, 'hunch_http_request_duration_seconds_count', labels)).toBe(before + 3);
    // The pattern, never the URL: one series for every group id.
    expect(text).not.toContain(`route="/api/groups/${group.id}"`);
    const notFound = await server.request('GET', '/api/no-such-route');
    expect(notFound.status).toBe(404);
    expect(
      sample(await scrape(server), 'hunch_http_request_duration_seconds_count', {
        route: '(unmatched)',
        method: 'GET',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts writes refused with a 4xx, and Idempotency-Key replays', async () => {
    const player = await createPlayer(server);
    const before = await scrape(server);
    const refused = await server.request('POST', '/api/groups', {
      token: player.accessToken,
      body: {},
    });
    expect(refused.status).toBe(400);
    const body = { name: `Metrics ${Date.now()}`, privacy: 'public', defaultPoints: 100 };
    const headers = { 'idempotency-key': `metrics-${Date.now()}` };
    const first = await server.request('POST', '/api/groups', {
      token: player.accessToken,
      body,
      headers,
    });
    const again = await server.request('POST', '/api/groups', {
      token: player.accessToken,
      body,
      headers,
    });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const after = await scrape(server);
    const refusals = (text: string) =>
      sample(text, 'hunch_write_refusals_total', { status: '400' });
    expect(refusals(after)).toBe(refusals(before) + 1);
    const replays = (text: string) => sample(text, 'hunch_idempotent_replays_total');
    expect(replays(after)).toBe(replays(before) + 1);
  });

  it('counts mirror pulls with their rows and bytes', async () => {
    const player = await createPlayer(server);
    await createGroup(server, player);
    const before = await scrape(server);
    const first = await server.request('GET', '/api/member/state?cursor=0', {
      token: player.accessToken,
    });
    expect(first.status).toBe(200);
    const quiet = await server.request(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(first.body.cursor)}`,
      { token: player.accessToken },
    );
    expect(quiet.status).toBe(200);
    const after = await scrape(server);
    const pulls = (text: string, kind: string) =>
      sample(text, 'hunch_mirror_pulls_total', { kind });
    expect(pulls(after, 'reset')).toBe(pulls(before, 'reset') + 1);
    expect(pulls(after, 'quiet')).toBe(pulls(before, 'quiet') + 1);
    const bytes = (text: string) => sample(text, 'hunch_mirror_pull_bytes_sum');
    expect(bytes(after) - bytes(before)).toBe(first.text.length + quiet.text.length);
    // The group and its one member at least.
    const rows = (text: string) => sample(text, 'hunch_mirror_pull_rows_sum');
    expect(rows(after) - rows(before)).toBeGreaterThanOrEqual(2);
  });

  it('reports connected sockets, the database and job passes', async () => {
    const player = await createPlayer(server);
    const socket = await connectSocket(server, player.accessToken);
    try {
      const text = await scrape(server);
      expect(sample(text, 'hunch_realtime_sockets')).toBe(1);
      // PGlite: its one connection (a job pass may be using it now); PostgreSQL: the pool's.
      const connections =
        sample(text, 'hunch_db_connections', { state: 'in_use' }) +
        sample(text, 'hunch_db_connections', { state: 'idle' });
      if (server.database.driver === 'pglite') expect(connections).toBe(1);
      else expect(connections).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'hunch_db_waiting')).toBeGreaterThanOrEqual(0);
      expect(text).toContain('# TYPE hunch_db_waiting gauge');
    } finally {
      socket.close();
    }
    await vi.waitFor(
      async () => {
        const text = await scrape(server);
        expect(
          sample(text, 'hunch_job_pass_duration_seconds_count', {
            job: 'picks reveal',
            outcome: 'ok',
          }),
        ).toBeGreaterThanOrEqual(1);
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe('with METRICS_PORT', () => {
  const server = useTestServer({ env: { METRICS_PORT: '0' } });

  it('serves /metrics on 127.0.0.1 without a token, and nothing on the main port', async () => {
    const port = server.app.metrics.port();
    expect(port).toBeGreaterThan(0);
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('# TYPE hunch_http_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_seconds_total');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect((await server.request('GET', '/metrics')).status).toBe(404);
  });
});

describe('the settings', () => {
  it('refuses a short METRICS_TOKEN and a METRICS_PORT that is not a port, naming them', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: must be at least 16/,
    );
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT: must be a port/);
    expect(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' }).metrics).toEqual({
      token: TOKEN,
      port: 9464,
    });
    expect(loadConfig({}).metrics).toEqual({ token: undefined, port: undefined });
  });
});
