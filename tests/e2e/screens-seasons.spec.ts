import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { endSeasonViaApi, startSeasonViaApi } from './seasons.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots of the seasons screens for a person to look at (not compared), at the phone
// reference and a desktop, in .tmp/screens/: the banner on the leaderboard and the group page, the seasons page with a
// running season and the archive's podium, its share sheet, the Start a season sheet and the End season now
// confirmation, and the inbox's entries of a season's end. Opt-in, as screens.spec.ts: HUNCH_SCREENSHOTS=1.

for (const size of SCREEN_SIZES) {
  test(`seasons screens at ${size.name}`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const tag = `${size.name}-seasons`;

    const owner = await registerPlayer(request);
    const group = await createGroupViaApi(request, owner, { name: uniqueGroupName('Friday') });
    const friends = [await registerPlayer(request), await registerPlayer(request)];
    for (const friend of friends) await joinViaApi(request, friend, group.name);
    const summer = await startSeasonViaApi(request, owner, group.id, { name: 'Summer cup' });
    const bet = await createBetViaApi(request, owner, { groupId: group.id, title: 'Rain?' });
    await wagerViaApi(request, owner, bet.id, 'yes', 3);
    await wagerViaApi(request, friends[0]!, bet.id, 'no', 2);
    await wagerViaApi(request, friends[1]!, bet.id, 'yes', 1);
    await resolveViaApi(request, owner, bet.id, 'yes');
    await endSeasonViaApi(request, owner, group.id, summer.id);
    await startSeasonViaApi(request, owner, group.id, {
      name: 'Autumn cup',
      days: 5,
      resetPoints: true,
    });

    await page.goto('/login?returnUrl=/leaderboard');
    await signIn(page, owner.person);
    await expect(page.getByRole('link', { name: /Season: Autumn cup/ })).toBeVisible();
    await shoot(page, `${tag}-banner`);
    await page.goto(`/group/${group.id}`);
    await expect(page.getByRole('link', { name: /Season: Autumn cup/ })).toBeVisible();
    await shoot(page, `${tag}-group`);
    await page.goto('/leaderboard');

    await page.getByRole('link', { name: /Season: Autumn cup/ }).click();
    await expect(page.getByRole('list', { name: 'Summer cup podium' })).toBeVisible();
    await page.getByText('Full standings').click();
    await shoot(page, `${tag}-page`, true);

    await page.getByRole('button', { name: 'Share' }).click();
    const share = page.getByRole('dialog', { name: 'Share this podium' });
    await expect(share.getByRole('img')).toBeVisible();
    await shoot(page, `${tag}-share`);
    await share.getByRole('button', { name: 'Close' }).first().click();

    await page.getByRole('button', { name: 'End season now' }).click();
    await expect(page.getByRole('dialog', { name: 'End season now?' })).toBeVisible();
    await shoot(page, `${tag}-end-confirm`);
    await page
      .getByRole('dialog', { name: 'End season now?' })
      .getByRole('button', { name: 'End season' })
      .click();
    await expect(page.getByRole('list', { name: 'Autumn cup podium' })).toBeVisible();

    await page.getByRole('button', { name: 'Start a season' }).click();
    const sheet = page.getByRole('dialog', { name: 'Start a season' });
    await sheet.getByLabel('Reset points when it ends').check();
    await shoot(page, `${tag}-start-sheet`);

    // Both seasons' ends in the inbox: one won, one where no point moved.
    await page.goto('/inbox');
    await expect(page.getByRole('link', { name: /Summer cup is over/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Autumn cup is over/ })).toBeVisible();
    await shoot(page, `${tag}-inbox`);
  });
}
