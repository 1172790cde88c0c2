import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { SCREEN_SIZES, shootIfAsked } from './screens.helpers';

// A member's stats, opened from the leaderboard and the group's member list, and head-to-head against
// another member. With HUNCH_SCREENSHOTS=1 it also saves the screens at phone and desktop
// sizes in .tmp/screens/ for a person to look at.

for (const size of SCREEN_SIZES) {
  test(`stats and head-to-head at ${size.name}`, async ({ browser, request }) => {
    const [me, rival] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
    const group = await createGroupViaApi(request, me, { name: uniqueGroupName('Stats') });
    await joinViaApi(request, rival, group.name);
    const answers = ['yes', 'no', 'yes', 'yes'];
    for (const [index, answer] of answers.entries()) {
      const bet = await createBetViaApi(request, me, {
        groupId: group.id,
        title: `Match ${index + 1}: do we win?`,
        baseWagerAmount: 2,
      });
      await wagerViaApi(request, me, bet.id, 'yes', 4);
      await wagerViaApi(request, rival, bet.id, 'no', 2);
      await resolveViaApi(request, me, bet.id, answer);
    }

    const context = await browser.newContext({ viewport: size });
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, me.person);
    await page.waitForURL(/\/(dashboard|group)/);
    await page.goto('/leaderboard');
    await page.getByRole('link', { name: 'Your stats' }).click();
    await expect(page.getByRole('heading', { name: 'Your stats' })).toBeVisible();
    const record = page.getByRole('region', { name: 'Record' });
    await expect(record.getByText('Bets played')).toBeVisible();
    await expect(record.getByText('75%')).toBeVisible();
    await expect(record.getByText('3 won · 1 lost')).toBeVisible();
    await expect(page.getByRole('img', { name: /^From 100 to/ })).toBeVisible();
    await expect(page.getByText('3 of 4 right')).toBeVisible();
    await shootIfAsked(page, `stats-${size.name}-member`, true);

    await page.getByRole('combobox').selectOption({ label: rival.person.displayName });
    await expect(page.getByText('4 bets played together. You called it more often.')).toBeVisible();
    await expect(
      page.getByRole('row', { name: new RegExp(`^${rival.person.displayName} 1`) }),
    ).toBeVisible();
    await shootIfAsked(page, `stats-${size.name}-head-to-head`, true);

    await page.goto('/leaderboard');
    await page.getByRole('link', { name: rival.person.displayName }).click();
    await expect(
      page.getByRole('heading', { name: `${rival.person.displayName}'s stats` }),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Record' }).getByText('25%')).toBeVisible();

    // The group's member list leads to the same page.
    await page.goto(`/group/${group.id}`);
    await page
      .getByRole('list', { name: 'Members' })
      .getByRole('link', { name: rival.person.displayName })
      .click();
    await expect(page).toHaveURL(new RegExp(`/group/${group.id}/members/${rival.id}$`));
    await expect(
      page.getByRole('heading', { name: `${rival.person.displayName}'s stats` }),
    ).toBeVisible();
    await context.close();
  });
}
