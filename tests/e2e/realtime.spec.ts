import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Browser,
  type Page,
} from '@playwright/test';
import { test as base } from './fixtures';
import { signIn } from './accounts.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
  type Player,
} from './groups.helpers';
import { freePort, startServerProcess, type ServerProcess } from './server-process';

// Live updates end to end (docs/groups-and-bets.md §4): two players in two browser contexts on a
// server of this spec's own — its own port and a DATA_DIR that outlives a restart — so the
// reconnection test can stop and start it. The other player's moves go through the API with
// their token; what is asserted is what the screens show, without reloading.

type RealtimeServer = ServerProcess & { api: APIRequestContext };

// One server per worker: starting one takes seconds, and the specs below run one after another.
const test = base.extend<object, { server: RealtimeServer }>({
  server: [
    // Playwright reads fixture dependencies from the destructuring pattern: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-realtime-'));
      const server = await startServerProcess({ port: await freePort(), dataDir });
      const api = await playwrightRequest.newContext({ baseURL: server.url });
      await use(Object.assign(server, { api }));
      await api.dispose();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 200_000 },
  ],
});

test.describe.configure({ mode: 'serial' });

async function csrf(api: APIRequestContext): Promise<Record<string, string>> {
  const { cookies } = await api.storageState();
  const token = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  return token ? { 'X-XSRF-TOKEN': decodeURIComponent(token) } : {};
}

async function call(
  api: APIRequestContext,
  player: Player,
  method: 'post' | 'put',
  url: string,
  data: unknown,
) {
  const response = await api[method](url, {
    headers: { Authorization: `Bearer ${player.token}`, ...(await csrf(api)) },
    data,
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as { id: number };
}

async function openAs(browser: Browser, server: ServerProcess, player: Player): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, player.person);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/** The header's available points (the number next to the coin). */
const headerPoints = (page: Page, points: number) =>
  page.getByRole('banner').locator('span', { hasText: new RegExp(`^${points}$`) });

test('B sees A’s new bet, the wagers moving odds and points, and the resolution, without reloading', async ({
  browser,
  server,
}) => {
  const alice = await registerPlayer(server.api);
  const bob = await registerPlayer(server.api);
  const group = await createGroupViaApi(server.api, alice, { name: uniqueGroupName('Live') });
  await joinViaApi(server.api, bob, group.name);

  const alicePage = await openAs(browser, server, alice);
  const bobPage = await openAs(browser, server, bob);
  await expect(headerPoints(bobPage, 100)).toBeVisible();
  await expect(bobPage.getByText('No active bets in your groups')).toBeVisible();

  // A creates a bet: it lands in B's bet queue on the dashboard.
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
  const bet = await call(server.api, alice, 'post', '/api/bets', {
    title: 'Rain tomorrow?',
    baseWagerAmount: 2,
    expiresAt,
    betType: 'yes_no',
    betTypeConfig: {},
    groupId: group.id,
  });
  const card = bobPage.getByRole('article', { name: 'Rain tomorrow?' });
  await expect(card).toBeVisible();

  // A wagers 2 on No: B's odds move (the whole pool is on No: ×1); A's points drop on A's screen.
  await call(server.api, alice, 'post', '/api/bets/wagers', {
    betId: bet.id,
    prediction: 'no',
    points: 2,
  });
  await expect(card.getByRole('button', { name: /No/ })).toContainText('×1');
  await expect(headerPoints(alicePage, 98)).toBeVisible();

  // B wagers 6 on Yes from elsewhere (the API): the bet leaves B's queue and B's points drop.
  await call(server.api, bob, 'post', '/api/bets/wagers', {
    betId: bet.id,
    prediction: 'yes',
    points: 6,
  });
  await expect(headerPoints(bobPage, 94)).toBeVisible();
  await expect(card).toHaveCount(0);

  // A resolves Yes: B takes the pool of 8 (100 − 6 + 8 = 102), A lost 2 (98).
  await call(server.api, alice, 'put', `/api/bets/${bet.id}/resolve`, { correctAnswer: 'yes' });
  await expect(headerPoints(bobPage, 102)).toBeVisible();
  await expect(headerPoints(alicePage, 98)).toBeVisible();
  // In-app navigation, no reload: the leaderboard shows the payout too.
  await bobPage
    .getByRole('link', { name: 'Leaderboard' })
    .filter({ visible: true })
    .first()
    .click();
  await expect(
    bobPage.getByRole('row', { name: new RegExp(alice.person.displayName) }),
  ).toContainText('98');
  await expect(
    bobPage.getByRole('row', { name: new RegExp(bob.person.displayName) }),
  ).toContainText('102');
});

test('a member joining shows up on the leaderboard live', async ({ browser, server }) => {
  const alice = await registerPlayer(server.api);
  const carol = await registerPlayer(server.api);
  const group = await createGroupViaApi(server.api, alice, { name: uniqueGroupName('Joiners') });
  const alicePage = await openAs(browser, server, alice);
  await alicePage.goto('/leaderboard');
  await expect(
    alicePage.getByRole('row', { name: new RegExp(alice.person.displayName) }),
  ).toBeVisible();
  await expect(
    alicePage.getByRole('row', { name: new RegExp(carol.person.displayName) }),
  ).toHaveCount(0);

  await joinViaApi(server.api, carol, group.name);
  await expect(
    alicePage.getByRole('row', { name: new RegExp(carol.person.displayName) }),
  ).toContainText('100');
});

test('a server restart shows the reconnecting toast, then recovers with the current state', async ({
  browser,
  server,
}) => {
  const alice = await registerPlayer(server.api);
  const bob = await registerPlayer(server.api);
  const group = await createGroupViaApi(server.api, alice, { name: uniqueGroupName('Restart') });
  await joinViaApi(server.api, bob, group.name);
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
  const bet = await call(server.api, alice, 'post', '/api/bets', {
    title: 'Will it restart?',
    baseWagerAmount: 2,
    expiresAt,
    betType: 'yes_no',
    betTypeConfig: {},
    groupId: group.id,
  });
  await call(server.api, bob, 'post', '/api/bets/wagers', {
    betId: bet.id,
    prediction: 'yes',
    points: 4,
  });
  await call(server.api, alice, 'post', '/api/bets/wagers', {
    betId: bet.id,
    prediction: 'no',
    points: 2,
  });

  const bobPage = await openAs(browser, server, bob);
  await expect(headerPoints(bobPage, 96)).toBeVisible();

  await server.stop();
  const toast = bobPage.getByRole('status').filter({ hasText: /^Reconnecting\.\.\. \(\d\/5\)$/ });
  await expect(toast).toBeVisible();
  // Not dismissible (docs/groups-and-bets.md §4).
  await expect(toast.getByRole('button', { name: 'Dismiss notification' })).toHaveCount(0);

  await server.start();
  // Resolved right after the restart, most likely while B waits for its next attempt: the
  // event is missed and the reload after reconnecting must bring it (either way B ends right).
  await call(server.api, alice, 'put', `/api/bets/${bet.id}/resolve`, { correctAnswer: 'yes' });
  await expect(toast).toHaveCount(0, { timeout: 40_000 });
  // B wins the pool of 6: 100 − 4 + 6 = 102.
  await expect(headerPoints(bobPage, 102)).toBeVisible();
});
