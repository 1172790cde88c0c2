import { expect } from '@playwright/test';
import { test } from './fixtures';
import { registerViaApi, signIn, signInNewPlayer } from './accounts.helpers';

test('a visitor at / lands on /landing', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByRole('link', { name: 'Get Started' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
});

test('a protected URL leads to /login and back to it after signing in', async ({
  page,
  request,
}) => {
  const person = await registerViaApi(request);
  await page.goto('/leaderboard');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fleaderboard$/);
  await signIn(page, person);
  await expect(page).toHaveURL(/\/leaderboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeVisible();
});

test('an unknown route goes to the dashboard (and so, signed out, to sign in)', async ({
  page,
}) => {
  await page.goto('/no-such-place');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdashboard$/);
});

test('the header is hidden on the auth pages and the title goes to the dashboard', async ({
  page,
  request,
}) => {
  for (const path of ['/login', '/register', '/forgot-password', '/reset-password']) {
    await page.goto(path);
    await expect(page.getByRole('banner')).toHaveCount(0);
  }
  await signInNewPlayer(page, request);
  await page.getByRole('link', { name: 'Profile' }).first().click();
  await page.getByRole('banner').getByRole('link', { name: 'Hunch' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test.describe('a screen whose code cannot arrive', () => {
  // No service worker: its precache would hand the chunk over whatever the network does.
  test.use({ serviceWorkers: 'block' });

  test('says so in the page, keeps the header, and the next screen opens', async ({
    page,
    request,
  }) => {
    const person = await signInNewPlayer(page, request);
    // The network drops just as the leaderboard's code is asked for.
    const leaderboardChunk = /\/assets\/leaderboard-page-[^/]*\.js$/;
    await page.route(leaderboardChunk, (route) => route.abort('internetdisconnected'));
    await page.getByRole('link', { name: 'Leaderboard' }).first().click();
    await expect(
      page.getByRole('heading', { name: "This screen isn't on your device yet" }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();

    await page.getByRole('link', { name: 'Home' }).first().click();
    await expect(page.getByText(`Hi, ${person.displayName}!`)).toBeVisible();
  });
});
