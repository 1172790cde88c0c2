import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures';
import { createBetViaApi, resolveViaApi, seedBetTable } from './bets.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  signInWithServiceWorker,
  uniqueGroupName,
  type Player,
} from './groups.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

/** The locked bet card's label once a wager is held (bet-card.tsx). */
const BET_CARD_WAGER_LABEL = 'Your wager';

// After one online visit the screens read from Dexie with no network; a write made
// with no network shows at once, marked pending, waits in the outbox (and the service worker's
// background-sync queue) and arrives exactly once when the network returns, even when the app
// was closed meanwhile; a write the server refuses on replay is rolled back with its reason.

async function myGroupsNamed(request: APIRequestContext, player: Player, name: string) {
  const response = await request.get('/api/groups?membership=mine', {
    headers: { Authorization: `Bearer ${player.token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as Array<{ name: string }>).filter(
    (group) => group.name === name,
  );
}

/** A new player, signed in (remembered) with the service worker in control. */
async function signInFresh(page: Page, request: APIRequestContext) {
  const player = await registerPlayer(request);
  await signInWithServiceWorker(page, player);
  return player;
}

async function createGroupInTheForm(page: Page, name: string) {
  await page.goto('/group/create');
  await page.getByLabel('Group name').fill(name);
  await page.getByRole('button', { name: 'Create Group' }).click();
}

test('a group created offline shows at once, pending, and the server holds it once the network returns', async ({
  page,
  context,
  request,
}) => {
  const player = await signInFresh(page, request);
  const name = `Offline ${Date.now().toString(36)}`;
  await page.goto('/group/create');
  await context.setOffline(true);
  await page.getByLabel('Group name').fill(name);
  await page.getByRole('button', { name: 'Create Group' }).click();
  await expect(
    page.getByText("You're offline. Your group will be created when you're back."),
  ).toBeVisible();
  await expect(page.getByText(/1 change waiting to be sent/)).toBeVisible();
  expect(await myGroupsNamed(request, player, name)).toHaveLength(0);

  await context.setOffline(false);
  await expect
    .poll(async () => (await myGroupsNamed(request, player, name)).length, { timeout: 15_000 })
    .toBe(1);
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open('hunch');
            open.onsuccess = () => {
              const count = open.result.transaction('outbox').objectStore('outbox').count();
              count.onsuccess = () => resolve(count.result);
            };
          }),
      ),
    )
    .toBe(0);
  // A reload starts the app again, which sends what it still holds (nothing): still one once
  // its requests have settled.
  await page.reload();
  await page.waitForLoadState('networkidle');
  expect(await myGroupsNamed(request, player, name)).toHaveLength(1);
});

test('a write queued offline, the page closed, the network back, the app reopened: it arrives once', async ({
  page,
  context,
  request,
}) => {
  const player = await signInFresh(page, request);
  const name = `Closed ${Date.now().toString(36)}`;
  await context.setOffline(true);
  // Offline, /group/create comes from the service worker's precached shell.
  await createGroupInTheForm(page, name);
  await expect(
    page.getByText("You're offline. Your group will be created when you're back."),
  ).toBeVisible();
  await page.close();

  await context.setOffline(false);
  const reopened = await context.newPage();
  await reopened.goto('/dashboard');
  await expect
    .poll(async () => (await myGroupsNamed(request, player, name)).length, { timeout: 20_000 })
    .toBe(1);
  await reopened.waitForLoadState('networkidle');
  expect(await myGroupsNamed(request, player, name)).toHaveLength(1);
});

// ---- reads and wagers offline, on a group with bets in every state ----

async function groupWithBets(request: APIRequestContext) {
  const [me, friend, other] = await Promise.all([
    registerPlayer(request),
    registerPlayer(request),
    registerPlayer(request),
  ]);
  const group = await createGroupViaApi(request, friend, { name: uniqueGroupName('Offline') });
  await joinViaApi(request, me, group.name);
  await joinViaApi(request, other, group.name);
  const bets = await seedBetTable(request, { me, friend, other }, group.id);
  return { me, friend, other, group, bets };
}

async function myWagers(request: APIRequestContext, player: Player, groupId: number) {
  const response = await request.get(`/api/bets/user/wagers?group=${groupId}`, {
    headers: { Authorization: `Bearer ${player.token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Array<{ betId: number; prediction: string; points: number }>;
}

async function reloadOffline(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByText("You're offline.")).toBeVisible();
}

test('after one online visit, a reload with no network shows the dashboard, group, bets, results and leaderboard from the device', async ({
  page,
  context,
  request,
}) => {
  const { me, friend, other, group, bets } = await groupWithBets(request);
  await signInWithServiceWorker(page, me);
  // One online visit of each screen stores what it shows.
  const betQueue = page.getByRole('region', { name: 'Your Bet Queue' });
  const resolveQueue = page.getByRole('region', { name: 'Your Resolve Queue' });
  await page.goto('/dashboard');
  await expect(betQueue.getByRole('heading', { name: 'Who wins the quiz?' })).toBeVisible();
  await page.goto(`/group/${group.id}`);
  await expect(page.getByRole('heading', { name: 'Will it rain on Saturday?' })).toBeVisible();
  await page.goto(`/bets/${bets.open.id}`);
  await expect(page.getByRole('article', { name: 'Place your wager' })).toBeVisible();
  await page.goto(`/bets/${bets.resolved.id}`);
  await expect(page.getByRole('heading', { name: 'Participation Overview' })).toBeVisible();
  await page.goto('/leaderboard');
  await expect(page.getByRole('row').filter({ hasText: friend.person.displayName })).toBeVisible();

  await context.setOffline(true);
  await reloadOffline(page, '/dashboard');
  await expect(page.getByText(/Last updated/)).toBeVisible();
  await expect(betQueue.getByRole('heading', { name: 'Who wins the quiz?' })).toBeVisible();
  await expect(resolveQueue.getByRole('heading', { name: 'Who wins the quiz?' })).toBeVisible();

  await reloadOffline(page, `/group/${group.id}`);
  await expect(page.getByRole('heading', { name: group.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Will it rain on Saturday?' })).toBeVisible();
  await page.getByRole('tab', { name: 'Resolved' }).click();
  await expect(page.getByRole('heading', { name: 'Cups of coffee today?' })).toBeVisible();

  await reloadOffline(page, `/bets/${bets.open.id}`);
  await expect(page.getByRole('heading', { name: 'Will it rain on Saturday?' })).toBeVisible();
  await expect(
    page.getByRole('article', { name: 'Place your wager' }).getByRole('button', { name: /^Rain/ }),
  ).toBeVisible();

  await reloadOffline(page, `/bets/${bets.resolved.id}`);
  await expect(page.getByRole('heading', { name: 'Cups of coffee today?' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Participation Overview' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Answer Distribution' })).toBeVisible();

  await reloadOffline(page, '/leaderboard');
  for (const player of [me, friend, other])
    await expect(
      page.getByRole('row').filter({ hasText: player.person.displayName }),
    ).toBeVisible();
  await context.setOffline(false);
});

test('a wager placed offline shows pending; the network back, the server holds exactly one and the mark goes', async ({
  page,
  context,
  request,
}) => {
  const { me, group, bets } = await groupWithBets(request);
  await signInWithServiceWorker(page, me);
  await page.goto(`/bets/${bets.open.id}`);
  const card = page.getByRole('article', { name: 'Place your wager' });
  await expect(card.getByRole('button', { name: /^Rain/ })).toBeVisible();

  await context.setOffline(true);
  await card.getByRole('button', { name: /^Rain/ }).click();
  await card.getByRole('button', { name: '2x', exact: true }).click();
  await card.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(
    page.getByText("You're offline. Your wager will be sent when you're back."),
  ).toBeVisible();
  await expect(card.getByTestId('pending-badge')).toBeVisible();
  await expect(page.getByText(/1 change waiting to be sent/)).toBeVisible();
  expect(
    (await myWagers(request, me, group.id)).filter((wager) => wager.betId === bets.open.id),
  ).toHaveLength(0);

  await context.setOffline(false);
  await expect
    .poll(
      async () =>
        (await myWagers(request, me, group.id)).filter((wager) => wager.betId === bets.open.id),
      { timeout: 15_000 },
    )
    .toEqual([expect.objectContaining({ prediction: 'yes', points: 4 })]);
  await expect(card.getByTestId('pending-badge')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Change' })).toBeVisible();
  await page.reload();
  await expect(card.getByRole('button', { name: 'Change' })).toBeVisible();
  expect(
    (await myWagers(request, me, group.id)).filter((wager) => wager.betId === bets.open.id),
  ).toHaveLength(1);
});

test('an offline wager on a bet that expires before the network returns is rolled back with the reason', async ({
  page,
  context,
  request,
}) => {
  const { me, friend, group } = await groupWithBets(request);
  await signInWithServiceWorker(page, me);
  // Long enough for a loaded machine to open the page and wager before the close.
  const closesInMs = 15_000;
  const short = await createBetViaApi(request, friend, {
    groupId: group.id,
    title: 'Last-minute call?',
    hours: closesInMs / 3_600_000,
  });
  const closesAt = Date.now() + closesInMs;
  await page.goto(`/bets/${short.id}`);
  const card = page.getByRole('article', { name: 'Place your wager' });
  await expect(card.getByRole('button', { name: /^Yes/ })).toBeVisible();

  await context.setOffline(true);
  await card.getByRole('button', { name: /^Yes/ }).click();
  await card.getByRole('button', { name: '1x', exact: true }).click();
  await card.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(card.getByTestId('pending-badge')).toBeVisible();
  // The bet closes while the player is still offline: its countdown says so.
  await expect(page.getByText('Expired', { exact: true }).first()).toBeVisible({
    timeout: Math.max(0, closesAt - Date.now()) + 10_000,
  });

  await context.setOffline(false);
  // The refusal names the bet and the points that came back (data/write-refusal.ts).
  await expect(
    page.getByText("Your 1 point on 'Last-minute call?' came back: betting had closed"),
  ).toBeVisible({ timeout: 15_000 });
  await expect(card.getByTestId('pending-badge')).toHaveCount(0);
  await expect(page.getByText(BET_CARD_WAGER_LABEL)).toHaveCount(0);
  await expect(page.getByText(/change(s)? waiting to be sent/)).toHaveCount(0);
  expect(
    (await myWagers(request, me, group.id)).filter((wager) => wager.betId === short.id),
  ).toHaveLength(0);
});

test('a bet resolved while this device was offline leaves the active list once the network returns, without a reload', async ({
  page,
  context,
  request,
}) => {
  const { me, friend, group, bets } = await groupWithBets(request);
  await signInWithServiceWorker(page, me);
  await page.goto(`/group/${group.id}`);
  const betList = page.getByRole('region', { name: 'Bets' });
  await expect(betList.getByRole('heading', { name: 'Will it rain on Saturday?' })).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByText("You're offline.")).toBeVisible();
  // The live event is lost: this device's socket is down.
  await resolveViaApi(request, friend, bets.open.id, 'yes');
  await context.setOffline(false);

  await expect(betList.getByRole('heading', { name: 'Will it rain on Saturday?' })).toHaveCount(0, {
    timeout: 15_000,
  });
  await betList.getByRole('tab', { name: 'Resolved' }).click();
  await expect(betList.getByRole('heading', { name: 'Will it rain on Saturday?' })).toBeVisible();
});
