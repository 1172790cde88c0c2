import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { publicPageFile } from '../../src/domain/public-pages';
import { useTestServer } from './harness';

// The public pages the build drew to HTML (src/domain/public-pages.ts) answer a full load of
// their paths, and of "/", in place of the SPA's index.html; every other client route still
// gets index.html.

describe('publicPageFile', () => {
  it('names the built page of a public path, "/" being the landing page', () => {
    expect(publicPageFile('/landing')).toBe('pages/landing.html');
    expect(publicPageFile('/')).toBe('pages/landing.html');
    expect(publicPageFile('/terms-conditions/')).toBe('pages/terms-conditions.html');
    expect(publicPageFile('/group/3')).toBeNull();
    expect(publicPageFile('/..%2Fsecrets')).toBeNull();
    expect(publicPageFile('/Landing')).toBeNull();
  });
});

describe('the app with pre-rendered public pages', () => {
  let clientDir: string;
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
  const server = useTestServer(() => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-client-'));
    mkdirSync(path.join(clientDir, 'pages'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Hunch app</title>');
    writeFileSync(
      path.join(clientDir, 'pages', 'landing.html'),
      '<!doctype html><title>Hunch landing</title>',
    );
    writeFileSync(
      path.join(clientDir, 'pages', 'about.html'),
      '<!doctype html><title>About · Hunch</title>',
    );
    // A real build also ships each page pre-compressed, which the static files' plugin prefers.
    for (const file of ['index.html', 'pages/landing.html']) {
      const html = `<!doctype html><title>${file === 'index.html' ? 'Hunch app' : 'Hunch landing'}</title>`;
      writeFileSync(path.join(clientDir, `${file}.br`), brotliCompressSync(html));
      writeFileSync(path.join(clientDir, `${file}.gz`), gzipSync(html));
    }
    return { clientDir };
  });

  const page = (url: string) => server.request('GET', url, { headers: { accept: 'text/html' } });

  it('answers the landing page and "/" with the drawn landing page, never cached', async () => {
    for (const url of ['/', '/landing', '/landing/', '/landing?ref=chat']) {
      const response = await page(url);
      expect(response.status, url).toBe(200);
      expect(response.text, url).toContain('Hunch landing');
      expect(response.headers.get('content-type'), url).toContain('text/html');
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
    }
    expect((await page('/about')).text).toContain('About · Hunch');
  });

  it('gives every other client route, and a public page the build lacks, the SPA', async () => {
    for (const url of ['/login', '/dashboard', '/blog', '/group/3']) {
      const response = await page(url);
      expect(response.status, url).toBe(200);
      expect(response.text, url).toContain('Hunch app');
    }
  });

  /** A GET sent with exactly these headers (fetch would add Accept-Encoding), answered uncompressed. */
  function rawGet(url: string, headers: Record<string, string>) {
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.get(`${server.url}${url}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
    });
  }

  it('answers "/" and every client route whatever the request headers (curl and health checkers send none)', async () => {
    const pages: Array<[string, string]> = [
      ['/', 'Hunch landing'],
      ['/landing/', 'Hunch landing'],
      ['/dashboard', 'Hunch app'],
      ['/pages/', 'Hunch app'],
    ];
    const headerSets: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'identity' },
      { accept: '*/*' },
    ];
    for (const headers of headerSets) {
      for (const [url, title] of pages) {
        const response = await rawGet(url, headers);
        expect(response.status, `${url} ${JSON.stringify(headers)}`).toBe(200);
        expect(response.text, url).toContain(title);
      }
    }
  });
});
