import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { test } from './fixtures';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../src/domain/sync-protocol';
import { signIn } from './accounts.helpers';
import { expectAccessible, waitForStillPage } from './axe.helpers';
import { registerPlayer, signInWithServiceWorker, type Player } from './groups.helpers';
import { prepareNewerRelease } from './newer-release';
import { LOOKED_AT_SIZES } from './screens.helpers';
import { freePort, startServerProcess, type ServerProcess } from './server-process';

// An installed app older than its server (docs/architecture.md §8, "Protocol version"): the
// player queues a write offline on this checkout's release; meanwhile the server is replaced by
// the next release, which speaks only a newer sync protocol (./newer-release.ts: this checkout
// with its protocol one version up, built and run from its own folder, on the same port and
// DATA_DIR). Back online, the old app is refused `client_too_old`, says it is updating, takes
// the new service worker and reloads into the new version, which sends the write: it lands once.
// The updating state itself is checked where it holds still: the old build's page, without a
// service worker, against the newer server (axe, both themes; with HUNCH_SCREENSHOTS=1 saved at
// 390, 320 and 1280 in /tmp/shots-protocol/).

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ mode: 'serial' });

let newer: { root: string; version: number };

test.beforeAll(() => {
  newer = prepareNewerRelease(SYNC_PROTOCOL_VERSION);
});

const UPDATING = 'Updating Hunch… Your unsent changes are kept.';
const SHOTS = '/tmp/shots-protocol';

async function lookAt(page: Page) {
  if (!process.env.HUNCH_SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const { name, width, height } of LOOKED_AT_SIZES) {
      await page.setViewportSize({ width, height });
      await waitForStillPage(page);
      await page.screenshot({ path: `${SHOTS}/updating-${name}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (size) await page.setViewportSize(size);
}

async function groupsNamed(api: APIRequestContext, player: Player, name: string) {
  const response = await api.get('/api/groups?membership=mine', {
    headers: { Authorization: `Bearer ${player.token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as Array<{ name: string }>).filter((g) => g.name === name);
}

test('an app older than its server updates itself and its write queued offline lands once', async ({
  browser,
}) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-protocol-'));
  const port = await freePort();
  let server: ServerProcess = await startServerProcess({ port, dataDir });
  const api = await playwrightRequest.newContext({ baseURL: server.url });
  const context = await browser.newContext({ baseURL: server.url, serviceWorkers: 'allow' });
  try {
    const page = await context.newPage();
    const pushes: Array<{ version: string | undefined; status: number }> = [];
    context.on('requestfinished', (request) => {
      if (!request.url().endsWith('/api/sync/push') || request.frame === undefined) return;
      void request.response().then((response) => {
        if (response)
          pushes.push({
            version: request.headers()[SYNC_PROTOCOL_HEADER.toLowerCase()],
            status: response.status(),
          });
      });
    });
    const player = await registerPlayer(api);
    await signInWithServiceWorker(page, player);

    // Offline, on the installed release: the write waits in the outbox.
    const name = `Protocol ${Date.now().toString(36)}`;
    await page.goto('/group/create');
    await context.setOffline(true);
    await page.getByLabel('Group name').fill(name);
    await page.getByRole('button', { name: 'Create Group' }).click();
    await expect(
      page.getByText("You're offline. Your group will be created when you're back."),
    ).toBeVisible();
    await expect(page.getByText(/1 change waiting to be sent/)).toBeVisible();

    // Meanwhile the server becomes the next release, which no longer speaks this app's protocol.
    await server.stop();
    server = await startServerProcess({ port, dataDir, root: newer.root });

    const reloaded = page.waitForEvent('load');
    await context.setOffline(false);
    await expect(page.getByText(UPDATING)).toBeVisible();
    await reloaded;
    await expect
      .poll(async () => (await groupsNamed(api, player, name)).length, { timeout: 20_000 })
      .toBe(1);
    await expect(page.getByText('Updating Hunch…')).toHaveCount(0);
    await expect(page.getByText(/waiting to be sent/)).toHaveCount(0);
    // The old app's pushes were refused, the new one's was answered; nothing arrived twice.
    await expect
      .poll(() => pushes.some((p) => p.version === String(newer.version) && p.status === 200))
      .toBe(true);
    expect(
      pushes.filter((p) => p.version === String(SYNC_PROTOCOL_VERSION)).map((p) => p.status),
    ).not.toContain(200);
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await groupsNamed(api, player, name)).toHaveLength(1);
  } finally {
    await context.close();
    await api.dispose();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const checkoutBuild = path.resolve(import.meta.dirname, '../../dist/client');

test('the updating state, where an old page that gets no new worker meets the newer server', async ({
  browser,
}) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-protocol-'));
  const server = await startServerProcess({ port: await freePort(), dataDir, root: newer.root });
  const api = await playwrightRequest.newContext({ baseURL: server.url });
  const context = await browser.newContext({ baseURL: server.url, serviceWorkers: 'block' });
  try {
    // The page and its files are this checkout's build (the older app), read from its folder;
    // the API is the newer server's. Chromium's local network checks refuse the websocket of a
    // page the test fulfilled, so a "Reconnecting..." toast stands beside the one looked at.
    await context.route(
      (url) => !/^\/(api|auth|socket\.io)(\/|$)/.test(url.pathname),
      async (route) => {
        const { pathname } = new URL(route.request().url());
        const file = path.join(checkoutBuild, pathname);
        const isFile = pathname !== '/' && existsSync(file) && statSync(file).isFile();
        await route.fulfill({ path: isFile ? file : path.join(checkoutBuild, 'index.html') });
      },
    );
    const page = await context.newPage();
    const player = await registerPlayer(api);
    await page.goto('/login');
    await signIn(page, player.person, { rememberMe: true });
    // No new worker can come (Playwright blocks them): the app waits, saying so.
    await expect(page.getByText(UPDATING)).toBeVisible();
    await expectAccessible(page, 'the app updating itself');
    await lookAt(page);
  } finally {
    await context.close();
    await api.dispose();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
