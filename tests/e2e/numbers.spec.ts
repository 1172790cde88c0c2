import { expect } from '@playwright/test';
import { test } from './fixtures';
import { mkdirSync } from 'node:fs';
import { signIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { startSeasonViaApi } from './seasons.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Numbers players can read: the header's points say they are the points available to bet, the
// leaderboard's say they are totals; a group's first week shows no rank movement (nobody had an
// earlier place); a running season shows its standings so far; and offline the week, the month
// and the stats are worked out from the mirror, with the numbers the server gives online.

test.use({ viewport: { width: 390, height: 844 } });

const SHOTS = '/tmp/shots/numbers';

test('labelled points, no movement in a first week, season standings, the week offline', async ({
  page,
  context,
  request,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, { name: uniqueGroupName('Numbers') });
  const friend = await registerPlayer(request);
  await joinViaApi(request, friend, group.name);
  await startSeasonViaApi(request, owner, group.id, { name: 'Winter cup' });
  const bet = await createBetViaApi(request, owner, {
    groupId: group.id,
    title: 'Snow by Friday?',
  });
  await wagerViaApi(request, owner, bet.id, 'yes', 3);
  await wagerViaApi(request, friend, bet.id, 'no', 1);
  await resolveViaApi(request, owner, bet.id, 'yes');

  await page.goto('/login?returnUrl=/leaderboard');
  await signIn(page, owner.person);

  // The header: "101 available", heard as "101 points available to bet".
  const available = page.getByTestId('header-available-points');
  await expect(available).toHaveText(/^101\s*points\s*available\s*to bet$/);
  await expect(available.getByText('available', { exact: true })).toBeVisible();
  // The leaderboard's column: total points.
  const allTime = page.getByRole('table', { name: `${group.name} standings` });
  await expect(
    allTime.getByRole('columnheader', { name: /^Points\s*\(\s*total\s*\)/ }),
  ).toBeVisible();
  await expect(allTime.getByRole('row').nth(1)).toContainText('101');
  await page.screenshot({ path: `${SHOTS}/leaderboard-390.png` });

  // This week, the group's first: won and lost, and no ▲ ▼ (nobody had an earlier place).
  const periods = page.getByRole('group', { name: 'Leaderboard period' });
  await periods.getByRole('button', { name: 'This week' }).click();
  const week = page.getByRole('table', { name: `${group.name} standings this week` });
  const ownerRow = week.getByRole('row', { name: new RegExp(owner.person.displayName) });
  const friendRow = week.getByRole('row', { name: new RegExp(friend.person.displayName) });
  await expect(ownerRow).toContainText('+1');
  await expect(friendRow).toContainText('−1');
  await expect(week.getByText(/[▲▼]/)).toHaveCount(0);
  const onlineWeek = await week.getByRole('row').allInnerTexts();
  await expectAccessible(page, 'the leaderboard, this week, labelled');

  // The running season's standings so far, from the mirror (through the leaderboard's banner).
  await page.getByRole('link', { name: /Season: Winter cup/ }).click();
  const soFar = page.getByRole('table', { name: 'Winter cup standings so far' });
  await expect(
    soFar.getByRole('row', { name: new RegExp(owner.person.displayName) }),
  ).toContainText('+1');
  await expect(
    soFar.getByRole('row', { name: new RegExp(friend.person.displayName) }),
  ).toContainText('−1');
  await expectAccessible(page, 'the seasons page with standings so far');
  await page.screenshot({ path: `${SHOTS}/season-390.png`, fullPage: true });

  // Offline, after a reload: the week is worked out from the mirror, the same rows as online;
  // the month, never opened online, too.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Leaderboard' })
    .click();
  await expect(periods).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  await page.reload();
  await periods.getByRole('button', { name: 'This week' }).click();
  await expect(
    page.getByText("You're offline: these standings are as of your last sync."),
  ).toBeVisible();
  await expect(week.getByRole('row')).toHaveCount(onlineWeek.length);
  expect(await week.getByRole('row').allInnerTexts()).toEqual(onlineWeek);
  await page.screenshot({ path: `${SHOTS}/week-offline-390.png` });
  await periods.getByRole('button', { name: 'This month' }).click();
  const month = page.getByRole('table', { name: `${group.name} standings this month` });
  await expect(
    month.getByRole('row', { name: new RegExp(friend.person.displayName) }),
  ).toContainText('−1');

  // The friend's stats, never opened online: worked out from the mirror too.
  await periods.getByRole('button', { name: 'All time' }).click();
  await allTime.getByRole('link', { name: friend.person.displayName }).click();
  await expect(page.getByText('Offline: as of your last sync')).toBeVisible();
  const record = page.getByRole('region', { name: 'Record' });
  await expect(record).toContainText('0 won · 1 lost');
  await expect(record).toContainText('−1');
  await expect(page.getByText("The line shows once you're back online.")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/stats-offline-390.png`, fullPage: true });
  await context.setOffline(false);
});
