import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './accounts.helpers';
import { registerPlayer, type Player } from './groups.helpers';

// Issue 7, the writes-offline part: a write made with no network shows at once, marked pending,
// waits in the outbox (and the service worker's background-sync queue) and arrives exactly once
// when the network returns, even when the app was closed meanwhile.

async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

async function myGroupsNamed(request: APIRequestContext, player: Player, name: string) {
  const response = await request.get('/api/groups?membership=mine', { headers: { Authorization: `Bearer ${player.token}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as Array<{ name: string }>).filter((group) => group.name === name);
}

async function signInFresh(page: Page, request: APIRequestContext) {
  const player = await registerPlayer(request);
  await page.goto('/login');
  await signIn(page, player.person, { rememberMe: true });
  await page.waitForURL(/\/(dashboard|group)/);
  await waitForServiceWorker(page);
  return player;
}

async function createGroupInTheForm(page: Page, name: string) {
  await page.goto('/group/create');
  await page.getByLabel('Group name').fill(name);
  await page.getByRole('button', { name: 'Create Group' }).click();
}

test('a group created offline shows at once, pending, and the server holds it once the network returns', async ({ page, context, request }) => {
  const player = await signInFresh(page, request);
  const name = `Offline ${Date.now().toString(36)}`;
  await page.goto('/group/create');
  await context.setOffline(true);
  await page.getByLabel('Group name').fill(name);
  await page.getByRole('button', { name: 'Create Group' }).click();
  await expect(page.getByText("You're offline. Your group will be created when you're back.")).toBeVisible();
  await expect(page.getByText(/1 change waiting to be sent/)).toBeVisible();
  expect(await myGroupsNamed(request, player, name)).toHaveLength(0);

  await context.setOffline(false);
  await expect.poll(async () => (await myGroupsNamed(request, player, name)).length, { timeout: 15_000 }).toBe(1);
  await expect
    .poll(() => page.evaluate(() => new Promise<number>((resolve) => {
      const open = indexedDB.open('hunch');
      open.onsuccess = () => {
        const count = open.result.transaction('outbox').objectStore('outbox').count();
        count.onsuccess = () => resolve(count.result);
      };
    })))
    .toBe(0);
  // Sent again after a reload (same key): still one.
  await page.reload();
  await page.waitForTimeout(1000);
  expect(await myGroupsNamed(request, player, name)).toHaveLength(1);
});

test('a write queued offline, the page closed, the network back, the app reopened: it arrives once', async ({ page, context, request }) => {
  const player = await signInFresh(page, request);
  const name = `Closed ${Date.now().toString(36)}`;
  await context.setOffline(true);
  // Offline, /group/create comes from the service worker's precached shell.
  await createGroupInTheForm(page, name);
  await expect(page.getByText("You're offline. Your group will be created when you're back.")).toBeVisible();
  await page.close();

  await context.setOffline(false);
  const reopened = await context.newPage();
  await reopened.goto('/dashboard');
  await expect.poll(async () => (await myGroupsNamed(request, player, name)).length, { timeout: 20_000 }).toBe(1);
  await reopened.waitForTimeout(1500);
  expect(await myGroupsNamed(request, player, name)).toHaveLength(1);
});
