import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { MIRROR_SYNCED_MARK } from '../../src/domain/mirror-marks';
import { signInNewPlayer } from './accounts.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// The installable part: the manifest and the service worker make Hunch installable
// (Chromium's own install criteria), and after one online visit the app shell opens offline
// from the service worker's precache and says it is offline.

/** Resolves once the service worker is active and controls the page. */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('the web app manifest names the app, its colours, its start URL and its icons', async ({
  request,
}) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/manifest+json');
  const manifest = (await response.json()) as Record<string, unknown> & {
    icons: Array<{ src: string; sizes: string; purpose: string; type: string }>;
  };
  expect(manifest).toMatchObject({
    name: 'Hunch',
    short_name: 'Hunch',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: '#6d28d9',
    background_color: '#f7f6fb',
  });
  expect(manifest.description).toEqual(expect.any(String));
  for (const purpose of ['any', 'maskable']) {
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find(
        (candidate) => candidate.purpose === purpose && candidate.sizes === size,
      );
      expect(icon, `${purpose} ${size}`).toBeDefined();
      const image = await request.get(icon!.src);
      expect(image.status()).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
    }
  }
  const worker = await request.get('/sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(worker.headers()['content-type']).toContain('javascript');
});

test('Chromium finds the app installable: no installability errors once the service worker runs', async ({
  baseURL,
}) => {
  // A fresh profile on disk: Chromium never offers installation in an incognito-like context.
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'hunch-install-'));
  const { launchOptions } = test.info().project.use;
  const context = await chromium.launchPersistentContext(userDataDir, {
    ...launchOptions,
    baseURL,
    viewport: { width: 390, height: 844 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await waitForServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: unknown[];
    };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
    expect(manifest.errors).toEqual([]);
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
});

test('after one online visit the app opens offline from the cache and says it is offline', async ({
  page,
  context,
  request,
}) => {
  await signInNewPlayer(page, request);
  await waitForServiceWorker(page);
  await expect(page.getByText("You're offline.")).toHaveCount(0);
  // The first sync has been written: the banner below says when.
  await page.waitForFunction(
    (mark) => performance.getEntriesByName(mark).length > 0,
    MIRROR_SYNCED_MARK,
  );

  await context.setOffline(true);
  await page.reload();
  // The shell comes from the precache: the header, the signed-in navigation and the screen.
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeAttached();
  const indicator = page.getByRole('status').filter({ hasText: "You're offline." });
  await expect(indicator).toBeVisible();
  // …and says when the data on screen was last brought up to date (the sync at sign-in).
  await expect(indicator).toContainText('Last updated just now.');

  // Any app route is answered with the cached shell; the router takes it from there.
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await expect(page.getByText("You're offline.")).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByText("You're offline.")).toHaveCount(0);
});
