import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures';
import { createBetViaApi, resolveViaApi, seedBetTable, wagerViaApi } from './bets.helpers';
import {
  activeGroupButton,
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  signInWithServiceWorker,
  uniqueGroupName,
} from './groups.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// The local mirror (docs/architecture.md §8): one sync brings every group of the player whole, so a
// fresh device that only saw the dashboard shows every group's bets, results and leaderboard
// with no network; what changed while it was offline arrives once it is back, without a reload.

/** How many rows a store of the device's database holds. */
function countStored(page: Page, store: string): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('hunch');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction(name).objectStore(name).count();
          count.onsuccess = () => {
            open.result.close();
            resolve(count.result);
          };
        };
      }),
    store,
  );
}

async function reloadOffline(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByText("You're offline.")).toBeVisible();
}

/** Two groups: the seeded table of bets.helpers, and a second one with a bet the player wagered on and one resolved. */
async function twoGroups(request: APIRequestContext) {
  const [me, friend, other] = await Promise.all([
    registerPlayer(request),
    registerPlayer(request),
    registerPlayer(request),
  ]);
  const first = await createGroupViaApi(request, friend, { name: uniqueGroupName('Mirror A') });
  await joinViaApi(request, me, first.name);
  await joinViaApi(request, other, first.name);
  const firstBets = await seedBetTable(request, { me, friend, other }, first.id);
  const second = await createGroupViaApi(request, other, { name: uniqueGroupName('Mirror B') });
  await joinViaApi(request, me, second.name);
  const wagered = await createBetViaApi(request, other, {
    groupId: second.id,
    title: 'Pizza or pasta tonight?',
    betTypeConfig: { yesLabel: 'Pizza', noLabel: 'Pasta' },
  });
  await wagerViaApi(request, me, wagered.id, 'yes', 1);
  const settled = await createBetViaApi(request, other, {
    groupId: second.id,
    title: 'Will the train be late?',
  });
  await wagerViaApi(request, me, settled.id, 'no', 1);
  await wagerViaApi(request, other, settled.id, 'yes', 1);
  await resolveViaApi(request, other, settled.id, 'yes');
  return { me, friend, other, first, firstBets, second, wagered, settled };
}

test('a fresh device that only opened the dashboard shows every group’s bets, results and leaderboard offline', async ({
  page,
  context,
  request,
}) => {
  const { me, friend, other, first, second, wagered, settled } = await twoGroups(request);
  await signInWithServiceWorker(page, me);
  await page.goto('/dashboard');
  // Five bets in all, the player's three wagers.
  await expect.poll(() => countStored(page, 'bets'), { timeout: 15_000 }).toBe(5);
  await expect.poll(() => countStored(page, 'wagers')).toBe(3);

  await context.setOffline(true);
  await reloadOffline(page, `/group/${second.id}`);
  const betList = page.getByRole('region', { name: 'Bets' });
  await expect(page.getByRole('heading', { name: second.name, level: 1 })).toBeVisible();
  // The bet the player already wagered on is listed too.
  await expect(betList.getByRole('heading', { name: 'Pizza or pasta tonight?' })).toBeVisible();
  await betList.getByRole('tab', { name: 'Resolved' }).click();
  await expect(betList.getByRole('heading', { name: 'Will the train be late?' })).toBeVisible();

  await reloadOffline(page, `/bets/${settled.id}`);
  await expect(page.getByRole('heading', { name: 'Participation Overview' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Answer Distribution' })).toBeVisible();

  await reloadOffline(page, `/bets/${wagered.id}`);
  await expect(page.getByRole('heading', { name: 'Pizza or pasta tonight?' })).toBeVisible();

  await reloadOffline(page, `/group/${first.id}/bets`);
  await expect(page.getByRole('heading', { name: 'Will it rain on Saturday?' })).toBeVisible();

  // Every group's leaderboard: the active one, then the other chosen in the header.
  await reloadOffline(page, '/leaderboard');
  const activeName = first.id < second.id ? first.name : second.name;
  const otherGroup = first.id < second.id ? second : first;
  await activeGroupButton(page, activeName).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: new RegExp(otherGroup.name) })
    .click();
  await expect(activeGroupButton(page, otherGroup.name)).toBeVisible();
  const members = otherGroup === first ? [me, friend, other] : [me, other];
  for (const player of members)
    await expect(
      page.getByRole('row').filter({ hasText: player.person.displayName }),
    ).toBeVisible();
  await context.setOffline(false);
});

test('a bet created and one resolved while the device was offline show once it is back, without a reload', async ({
  page,
  context,
  request,
}) => {
  const { me, friend, first, firstBets } = await twoGroups(request);
  await signInWithServiceWorker(page, me);
  await page.goto(`/group/${first.id}`);
  const betList = page.getByRole('region', { name: 'Bets' });
  await expect(betList.getByRole('heading', { name: 'Will it rain on Saturday?' })).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByText("You're offline.")).toBeVisible();
  // The live events are lost: this device's socket is down.
  await createBetViaApi(request, friend, { groupId: first.id, title: 'Snow before New Year?' });
  await resolveViaApi(request, friend, firstBets.open.id, 'yes');
  await context.setOffline(false);

  await expect(betList.getByRole('heading', { name: 'Snow before New Year?' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(betList.getByRole('heading', { name: 'Will it rain on Saturday?' })).toHaveCount(0);
  await betList.getByRole('tab', { name: 'Resolved' }).click();
  await expect(betList.getByRole('heading', { name: 'Will it rain on Saturday?' })).toBeVisible();
});

test('a bet created offline takes a wager offline; back online, the server holds each exactly once', async ({
  page,
  context,
  request,
}) => {
  const { me, second } = await twoGroups(request);
  await signInWithServiceWorker(page, me);
  await page.goto(`/group/${second.id}/bets`);
  await expect(page.getByRole('heading', { name: 'Pizza or pasta tonight?' })).toBeVisible();

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Create a bet' }).click();
  const modal = page.getByRole('dialog', { name: 'Create a Bet' });
  const title = `Offline call ${Date.now().toString(36)}?`;
  await modal.getByLabel('Title').fill(title);
  await modal.getByRole('button', { name: 'Next' }).click();
  await modal.getByText('Yes / No', { exact: true }).click();
  await modal.getByRole('button', { name: 'Create Bet' }).click();
  await expect(
    page.getByText("You're offline. Your bet will be created when you're back."),
  ).toBeVisible();

  await page.getByRole('link', { name: new RegExp(title.replace(/[?]/g, '\\?')) }).click();
  const card = page.getByRole('article', { name: 'Place your wager' });
  await card.getByRole('button', { name: /^Yes/ }).click();
  await card.getByRole('button', { name: '2x', exact: true }).click();
  await card.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(card.getByTestId('pending-badge')).toBeVisible();
  await expect(page.getByText(/2 changes waiting to be sent/)).toBeVisible();

  await context.setOffline(false);
  // The page follows the bet to its server id. The wager goes in the push after the bet's: the
  // page re-keyed to the server id can show no mark for a moment before the wager's own comes
  // back, so the server's answer is what is waited for, then the mark's end.
  await expect(page).toHaveURL(/\/bets\/\d+$/, { timeout: 15_000 });
  const headers = { Authorization: `Bearer ${me.token}` };
  const bets = (await (
    await request.get(`/api/groups/${second.id}/bets`, { headers })
  ).json()) as Array<{ id: number; title: string }>;
  const created = bets.filter((bet) => bet.title === title);
  expect(created).toHaveLength(1);
  const wagersOnIt = async () =>
    (
      (await (
        await request.get(`/api/bets/user/wagers?group=${second.id}`, { headers })
      ).json()) as Array<{ betId: number; prediction: string; points: number }>
    ).filter((wager) => wager.betId === created[0]!.id);
  await expect.poll(async () => (await wagersOnIt()).length, { timeout: 15_000 }).toBe(1);
  await expect(page.getByText(/waiting to be sent/)).toHaveCount(0);
  await expect(card.getByTestId('pending-badge')).toHaveCount(0);
  expect(await wagersOnIt()).toEqual([expect.objectContaining({ prediction: 'yes', points: 2 })]);
});
