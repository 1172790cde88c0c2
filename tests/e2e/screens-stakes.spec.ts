import { expect } from '@playwright/test';
import { test } from './fixtures';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import {
  authHeaders,
  createGroupViaApi,
  joinViaApi,
  openAs,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';
import { LOOKED_AT_SIZES, shoot } from './screens.helpers';

// Screenshots of what stakes and repeats touched, for a person to look at (not compared), at
// 390, 320 and 1280, light and dark, in .tmp/screens/: the create-group form with its stakes,
// the group's Settings, the bet form with the quick close choices and the repeat, the wager
// form on a 5-point bet, the week's table with the played count, and a resolved bet's "Same as
// last time". Opt-in, as screens.spec.ts: HUNCH_SCREENSHOTS=1.

for (const size of LOOKED_AT_SIZES)
  for (const scheme of ['light', 'dark'] as const)
    test(`stakes and repeats screens at ${size.name}, ${scheme}`, async ({ browser, request }) => {
      const tag = `${size.name}-${scheme}-stakes`;
      const owner = await registerPlayer(request);
      const friend = await registerPlayer(request);
      const group = await createGroupViaApi(request, owner, { name: uniqueGroupName('Derby') });
      await joinViaApi(request, friend, group.name);
      const patched = await request.patch(`/api/groups/${group.id}`, {
        headers: await authHeaders(request, owner),
        data: { stakeTiers: [5, 10, 15] },
      });
      expect(patched.status()).toBe(200);
      const open = await createBetViaApi(request, owner, {
        groupId: group.id,
        title: 'Derby goes to penalties?',
        baseWagerAmount: 5,
      });
      const done = await createBetViaApi(request, owner, {
        groupId: group.id,
        title: 'First goal before half time?',
        baseWagerAmount: 10,
      });
      await wagerViaApi(request, owner, done.id, 'yes', 30);
      await wagerViaApi(request, friend, done.id, 'no', 10);
      await wagerViaApi(request, friend, open.id, 'no', 15);
      await resolveViaApi(request, owner, done.id, 'yes');

      const page = await openAs(browser, owner, '/group/create');
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.getByRole('group', { name: 'Stakes' })).toBeVisible();
      await shoot(page, `${tag}-create-group`, true);

      await page.goto(`/group/${group.id}`);
      await expect(page.getByRole('group', { name: 'Stakes' })).toBeVisible();
      await page.getByRole('group', { name: 'Stakes' }).scrollIntoViewIfNeeded();
      await shoot(page, `${tag}-settings`);

      await page.goto(`/group/${group.id}/bets`);
      await page.getByRole('button', { name: 'Create a bet' }).click();
      const sheet = page.getByRole('dialog', { name: 'Create a Bet' });
      await sheet.getByLabel('Title').fill('Who wins the pub quiz?');
      await sheet.getByLabel('Repeat').selectOption({ label: 'Every week' });
      await sheet.getByRole('button', { name: 'tomorrow 9:00' }).click();
      await sheet.getByRole('group', { name: 'Quick choices' }).scrollIntoViewIfNeeded();
      await shoot(page, `${tag}-bet-form`);
      await sheet.getByRole('group', { name: 'Base wager' }).scrollIntoViewIfNeeded();
      await shoot(page, `${tag}-bet-form-tiers`);
      await sheet.getByRole('button', { name: 'Close' }).first().click();

      await page.goto(`/bets/${open.id}`);
      const card = page.getByRole('article', { name: 'Place your wager' });
      await card.getByRole('button', { name: /^Yes/ }).click();
      await card.getByRole('button', { name: '3x', exact: true }).click();
      await shoot(page, `${tag}-wager`);

      await page.goto(`/bets/${done.id}`);
      await expect(page.getByRole('button', { name: 'Same as last time' })).toBeVisible();
      await page.getByRole('button', { name: 'Same as last time' }).scrollIntoViewIfNeeded();
      await shoot(page, `${tag}-same-as-last-time`);

      await page.goto('/leaderboard');
      await page
        .getByRole('group', { name: 'Leaderboard period' })
        .getByRole('button', { name: 'This week' })
        .click();
      await expect(page.getByText('2 bets played', { exact: true })).toBeVisible();
      await shoot(page, `${tag}-leaderboard`);
      await page.context().close();
    });
