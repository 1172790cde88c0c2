import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Seasons: an admin starts one from the seasons page (name, end date, reset), the leaderboard
// shows its banner, a bet is settled during it, the admin ends it now; its podium is archived
// and, after a reload with no network, still shows; the inbox tells the owner they won.

test('a season ends and its podium shows offline', async ({ page, context, request }) => {
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, { name: uniqueGroupName('Cup') });
  const friend = await registerPlayer(request);
  await joinViaApi(request, friend, group.name);

  await page.goto(`/login?returnUrl=/group/${group.id}/seasons`);
  await signIn(page, owner.person);
  await expect(page.getByRole('heading', { name: 'No seasons yet' })).toBeVisible();
  await page.getByRole('button', { name: 'Start a season' }).click();
  const sheet = page.getByRole('dialog', { name: 'Start a season' });
  await sheet.getByLabel('Season name').fill('Autumn cup');
  await sheet.getByLabel('Reset points when it ends').check();
  await expect(sheet.getByText("Everyone's available points go back")).toBeVisible();
  await sheet.getByRole('button', { name: 'Start season' }).click();
  await expect(sheet).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Autumn cup' })).toBeVisible();
  await expect(page.getByText(/ends in \d+ days/)).toBeVisible();

  await page.goto('/leaderboard');
  await expect(page.getByRole('link', { name: /Season: Autumn cup, ends in/ })).toBeVisible();

  const bet = await createBetViaApi(request, owner, { groupId: group.id, title: 'Rain at noon?' });
  await wagerViaApi(request, owner, bet.id, 'yes', 3);
  await wagerViaApi(request, friend, bet.id, 'no', 2);
  await resolveViaApi(request, owner, bet.id, 'yes');

  await page.getByRole('link', { name: /Season: Autumn cup/ }).click();
  await page.getByRole('button', { name: 'End season now' }).click();
  const confirm = page.getByRole('dialog', { name: 'End season now?' });
  await expect(confirm.getByText('go back to the starting points')).toBeVisible();
  await confirm.getByRole('button', { name: 'End season' }).click();
  const podium = page.getByRole('list', { name: 'Autumn cup podium' });
  await expect(podium.getByRole('listitem').first()).toContainText(owner.person.displayName);
  await expect(podium.getByRole('listitem').first()).toContainText('1st');
  await expect(podium.getByRole('listitem').nth(1)).toContainText(friend.person.displayName);
  await expectAccessible(page, 'the seasons archive');

  // Offline, after a reload, the archive still shows the podium and the full standings.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  await page.reload();
  await expect(podium.getByRole('listitem').first()).toContainText(owner.person.displayName);
  await page.getByText('Full standings').click();
  const table = page.getByRole('table', { name: 'Autumn cup final standings' });
  await expect(
    table.getByRole('row', { name: new RegExp(friend.person.displayName) }),
  ).toContainText('−2');

  // The podium is shared as a card, drawn on the device (also offline).
  await page.getByRole('button', { name: 'Share' }).click();
  const share = page.getByRole('dialog', { name: 'Share this podium' });
  const card = share.getByRole('img', {
    name: `Share card: Autumn cup podium in ${group.name}: 1. ${owner.person.displayName}, 2. ${friend.person.displayName}. Virtual points, no money.`,
  });
  await expect(card).toBeVisible();
  expect(
    await card.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
  ).toEqual([1200, 630]);
  await context.setOffline(false);

  // Each member's inbox says where they finished; the entry opens the archive.
  await page.goto('/inbox');
  const entry = page.getByRole('link', { name: new RegExp(`Autumn cup is over in ${group.name}`) });
  await expect(entry).toContainText('You won it, +2 points! Everyone starts again at');
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/group/${group.id}/seasons$`));
});
