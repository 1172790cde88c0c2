import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, fairStepViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots for a person to look at (not compared), in .tmp/screens/: the inbox with a result
// undone, a dispute to review and a dispute's outcome, and the group's top-up switch.
// Opt-in, as screens.spec.ts: HUNCH_SCREENSHOTS=1.

for (const size of SCREEN_SIZES) {
  test(`fair inbox and top-up screens at ${size.name}`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const tag = `${size.name}-inbox-fair`;

    const me = await registerPlayer(request);
    const friend = await registerPlayer(request);
    const group = await createGroupViaApi(request, friend, {
      name: uniqueGroupName('Friday Quiz'),
    });
    await joinViaApi(request, me, group.name);
    const mineToRun = await createGroupViaApi(request, me, { name: uniqueGroupName('Book Club') });

    const undone = await createBetViaApi(request, friend, {
      groupId: group.id,
      title: 'Will it rain on Saturday?',
    });
    await wagerViaApi(request, me, undone.id, 'yes', 2);
    await resolveViaApi(request, friend, undone.id, 'yes');
    await fairStepViaApi(request, friend, undone.id, 'undo-resolution');
    const mine = await createBetViaApi(request, me, {
      groupId: group.id,
      title: 'Snow before Christmas?',
    });
    await wagerViaApi(request, friend, mine.id, 'yes', 1);
    await resolveViaApi(request, me, mine.id, 'no');
    await fairStepViaApi(request, friend, mine.id, 'dispute', 'It snowed all morning.');
    const dismissed = await createBetViaApi(request, friend, {
      groupId: group.id,
      title: 'Who wins the pub quiz?',
    });
    await wagerViaApi(request, me, dismissed.id, 'yes', 1);
    await resolveViaApi(request, friend, dismissed.id, 'no');
    await fairStepViaApi(request, me, dismissed.id, 'dispute', 'We won, check the scores.');
    await fairStepViaApi(request, friend, dismissed.id, 'dispute/dismiss');

    await page.goto('/login');
    await signIn(page, me.person);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/inbox');
    await expect(page.getByRole('link', { name: /stands/ })).toBeVisible();
    await shoot(page, `${tag}-entries`, true);

    await page.goto(`/group/${mineToRun.id}`);
    const topUps = page.getByRole('switch', { name: 'Top-ups' });
    await topUps.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shoot(page, `${tag}-settings`);
  });
}
