import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestServer } from './harness';

describe('the app without a client build', () => {
  const server = useTestServer();

  it('answers /healthz while the process lives', async () => {
    const response = await server.request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz while the database answers', async () => {
    const response = await server.request('GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready' });
  });

  it('serves a placeholder page for client routes', async () => {
    const response = await server.request('GET', '/dashboard', {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.text).toContain('Hunch');
  });

  it('serves the page to callers that send no Accept header, and a JSON 404 to those asking for JSON only', async () => {
    const plain = await fetch(`${server.url}/group/3`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toContain('text/html');
    const json = await server.request('GET', '/group/3', {
      headers: { accept: 'application/json' },
    });
    expect(json.status).toBe(404);
    expect(json.body).toMatchObject({ code: 'not_found' });
  });

  it('answers unknown API and auth paths with a JSON 404', async () => {
    for (const url of ['/api/nothing', '/auth/nothing']) {
      const response = await server.request('GET', url, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found' });
    }
  });

  it('leaves /socket.io to socket.io, which refuses anything but a websocket handshake', async () => {
    const response = await server.request('GET', '/socket.io/x', {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('sends security headers with a content security policy that allows only the app itself', async () => {
    const response = await server.request('GET', '/healthz');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain('connect-src');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers the JSON API with the lean API set: a CSP that allows nothing, nosniff, no framing, no referrer', async () => {
    for (const path of ['/api/groups/public', '/auth/users/me']) {
      const response = await server.request('GET', path);
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      // Document-only headers stay on documents.
      expect(response.headers.get('x-dns-prefetch-control')).toBeNull();
      expect(response.headers.get('origin-agent-cluster')).toBeNull();
    }
  });
});

describe('the CSRF double-submit cookie', () => {
  const server = useTestServer();

  it('sets a readable XSRF-TOKEN cookie when the request has none', async () => {
    const response = await server.request('GET', '/healthz');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^XSRF-TOKEN=[\w-]+;/);
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('HttpOnly');
  });

  it('does not set a new cookie when the request already has one', async () => {
    const response = await server.request('GET', '/healthz', {
      headers: { cookie: 'XSRF-TOKEN=abc' },
    });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a write that carries the cookie without the matching header', async () => {
    const body = { displayName: 'Mallory', appName: 'hunch' };
    const missing = await server.request('POST', '/auth/register-guest', {
      body,
      headers: { cookie: 'XSRF-TOKEN=abc' },
    });
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ code: 'csrf_mismatch' });
    const wrong = await server.request('POST', '/auth/register-guest', {
      body,
      headers: { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abd' },
    });
    expect(wrong.status).toBe(403);
  });

  it('lets a write through when the header equals the cookie', async () => {
    const response = await server.request('POST', '/auth/register-guest', {
      body: { displayName: 'Alice', appName: 'hunch' },
      headers: { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' },
    });
    expect(response.status).toBe(201);
  });

  it('lets a write without the cookie through, as API clients send it', async () => {
    const response = await server.request('POST', '/auth/register-guest', {
      body: { displayName: 'Bob', appName: 'hunch' },
    });
    expect(response.status).toBe(201);
  });
});

describe('the app with a client build', () => {
  let clientDir: string;
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
  const server = useTestServer(() => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-client-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><title>Hunch app</title><div id="root"></div>',
    );
    writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log("plain")');
    writeFileSync(
      path.join(clientDir, 'assets', 'index-abc123.js.br'),
      brotliCompressSync('console.log("brotli")'),
    );
    writeFileSync(path.join(clientDir, 'manifest.webmanifest'), '{}');
    writeFileSync(
      path.join(clientDir, 'assets', 'index-abc123.js.map'),
      '{"sourcesContent":["the whole source"]}',
    );
    writeFileSync(path.join(clientDir, 'sw.js.map'), '{"sourcesContent":["the whole source"]}');
    return { clientDir };
  });

  it('serves index.html for client routes, never cached', async () => {
    for (const url of ['/', '/dashboard', '/group/3?inviteCode=x', '/reset-password/abc']) {
      const response = await server.request('GET', url, { headers: { accept: 'text/html' } });
      expect(response.status, url).toBe(200);
      expect(response.text).toContain('Hunch app');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and serves the precompressed copy', async () => {
    const response = await server.request('GET', '/assets/index-abc123.js', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.text).toBe('console.log("brotli")');
  });

  it('never serves a source map (audit item 18: they hold the whole source)', async () => {
    for (const url of ['/assets/index-abc123.js.map', '/sw.js.map']) {
      for (const encoding of ['br', 'identity']) {
        const response = await server.request('GET', url, {
          headers: { 'accept-encoding': encoding },
        });
        expect(response.status, url).toBe(404);
        expect(response.text).not.toContain('the whole source');
      }
    }
  });

  it('answers a missing file with 404 instead of the page', async () => {
    const response = await server.request('GET', '/assets/missing-123.js', {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(404);
  });

  it('serves other files without long caching', async () => {
    const response = await server.request('GET', '/manifest.webmanifest');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });
});
