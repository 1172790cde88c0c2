import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { signInNewPlayer } from './accounts.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// The public pages are drawn to HTML at build time (scripts/vite-plugin-public-pages.ts): a
// visitor's load of one fetches a single small script and no React, its links lead into the
// SPA, someone signed in still gets the SPA's page (their own header), and after one visit
// the pages open offline from the service worker.

/** The scripts a page fetches, by path. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

test('a visitor at / gets the drawn landing page: one script, no React, links into the app', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/landing$/);
  await expect(page).toHaveTitle('Hunch');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Call it before it happens.');
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/public-page-[\w-]+\.js$/)]);

  // Another public page is drawn too; its title is the one the SPA gives it.
  await page.getByRole('link', { name: 'See how it works' }).click();
  await expect(page).toHaveURL(/\/how-it-works$/);
  await expect(page).toHaveTitle('How it works · Hunch');

  // A link into the app loads the SPA, which draws the sign-in screen.
  await page.getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
});

test('signed in, /landing shows the player their own header and / goes to the dashboard', async ({
  page,
  request,
}) => {
  await signInNewPlayer(page, request);

  await page.goto('/landing');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Call it before it happens.');
  await expect(page.getByRole('link', { name: /, profile$/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login' })).toHaveCount(0);

  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeAttached();
});

test('after one visit the public pages open offline', async ({ page, context }) => {
  await page.goto('/landing');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  const scripts = recordScripts(page);
  for (const [path, title] of [
    ['/about', 'About · Hunch'],
    ['/landing', 'Hunch'],
  ] as const) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
  }
  // The drawn pages, not the SPA: their one script is all they ran.
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.every((script) => /^\/assets\/public-page-[\w-]+\.js$/.test(script))).toBe(true);
  // The SPA's screens still come from the cached shell.
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await context.setOffline(false);
});
