import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// The leaderboard's This week / This month / All time. A bet settled today moves
// this week's and this month's standings (won or lost, from the ledger); in a group's first
// week there is no earlier standing, so no movement. Offline, the week is worked out from the
// mirror.

test('This week, This month and All time, no movement in a first week, and this week offline', async ({
  page,
  context,
  request,
}) => {
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, { name: uniqueGroupName('Weekly') });
  const friend = await registerPlayer(request);
  await joinViaApi(request, friend, group.name);
  const bet = await createBetViaApi(request, owner, { groupId: group.id, title: 'Sunny Sunday?' });
  await wagerViaApi(request, owner, bet.id, 'yes', 3);
  await wagerViaApi(request, friend, bet.id, 'no', 1);
  await resolveViaApi(request, owner, bet.id, 'yes');

  await page.goto('/login?returnUrl=/leaderboard');
  await signIn(page, owner.person);
  const periods = page.getByRole('group', { name: 'Leaderboard period' });
  await expect(periods.getByRole('button', { name: 'All time' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const allTime = page.getByRole('table', { name: `${group.name} standings` });
  await expect(allTime.getByRole('row').nth(1)).toContainText('101');

  await periods.getByRole('button', { name: 'This week' }).click();
  const week = page.getByRole('table', { name: `${group.name} standings this week` });
  const ownerRow = week.getByRole('row', { name: new RegExp(owner.person.displayName) });
  const friendRow = week.getByRole('row', { name: new RegExp(friend.person.displayName) });
  await expect(ownerRow).toContainText('+1');
  await expect(friendRow).toContainText('−1');
  // Who plays: each wagered on one bet this week.
  await expect(ownerRow.getByText('1 bet played', { exact: true })).toBeVisible();
  await expect(friendRow.getByText('1 bet played', { exact: true })).toBeVisible();
  await expect(week.getByText(/[▲▼–]/)).toHaveCount(0);
  await expectAccessible(page, 'the leaderboard, this week');

  await periods.getByRole('button', { name: 'This month' }).click();
  const month = page.getByRole('table', { name: `${group.name} standings this month` });
  await expect(
    month.getByRole('row', { name: new RegExp(owner.person.displayName) }),
  ).toContainText('+1');

  // Offline, even after a reload, the week is still there, from the mirror, and says so.
  // (The service worker holds the app's files once it controls the page, as when installed.)
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  await page.reload();
  await periods.getByRole('button', { name: 'This week' }).click();
  await expect(
    page.getByText("You're offline: these standings are as of your last sync."),
  ).toBeVisible();
  await expect(week.getByRole('row', { name: new RegExp(owner.person.displayName) })).toContainText(
    '+1',
  );
  await context.setOffline(false);
});
