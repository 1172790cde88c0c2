import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { commentViaApi } from './comments.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots of the inbox for a person to look at (not compared), at the phone reference and
// a desktop, light and dark, in .tmp/screens/: the empty inbox, the bell with its count, the
// inbox with unread and read entries, the notification choices and the mute controls.
// Opt-in, as screens.spec.ts: HUNCH_SCREENSHOTS=1.

for (const size of SCREEN_SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`inbox screens at ${size.name} ${colorScheme}`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const tag = `${size.name}-${colorScheme}-inbox`;

      const me = await registerPlayer(request);
      const friend = await registerPlayer(request);
      const group = await createGroupViaApi(request, friend, {
        name: uniqueGroupName('Friday Quiz'),
      });
      await joinViaApi(request, me, group.name);
      await page.goto('/login');
      await signIn(page, me.person);
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto('/inbox');
      await expect(page.getByRole('heading', { name: "You're all caught up" })).toBeVisible();
      await shoot(page, `${tag}-empty`);

      const won = await createBetViaApi(request, friend, {
        groupId: group.id,
        title: 'Will it rain on Saturday?',
      });
      await wagerViaApi(request, me, won.id, 'yes', 1);
      await resolveViaApi(request, friend, won.id, 'yes');
      for (const title of [
        'Who wins the pub quiz?',
        'Pizza or tacos tonight?',
        'Will Sam be late again?',
      ])
        await createBetViaApi(request, friend, { groupId: group.id, title });
      const talked = await createBetViaApi(request, me, {
        groupId: group.id,
        title: 'Snow before Christmas?',
      });
      await commentViaApi(
        request,
        friend,
        talked.id,
        'No chance, it never snows here in December.',
      );
      await commentViaApi(request, friend, talked.id, 'Well, maybe once in 2010.');
      const third = await registerPlayer(request);
      await joinViaApi(request, third, group.name);

      await page.goto('/dashboard');
      await expect(page.getByRole('link', { name: /^Inbox, \d+ unread$/ })).toBeVisible();
      await shoot(page, `${tag}-bell`);
      await page.goto('/inbox');
      await expect(page.getByRole('heading', { name: 'Unread' })).toBeVisible();
      // One entry read, so both sections show.
      await page.getByRole('link', { name: /Resolved: Will it rain/ }).click();
      await expect(page).toHaveURL(/\/bets\/\d+$/);
      await page.getByRole('link', { name: /^Inbox/ }).click();
      await expect(page.getByRole('heading', { name: 'Earlier' })).toBeVisible();
      await shoot(page, `${tag}-entries`, true);

      await page.goto(`/group/${group.id}`);
      await page.getByRole('button', { name: 'Mute group' }).click();
      await expect(page.getByRole('button', { name: 'Unmute group' })).toBeVisible();
      await shoot(page, `${tag}-group-muted`);
      await page.goto(`/bets/${talked.id}`);
      await expect(page.getByRole('button', { name: 'Mute bet' })).toBeVisible();
      await shoot(page, `${tag}-bet-mute`);

      await page.goto('/profile');
      await page
        .getByRole('heading', { name: 'What reaches push' })
        .evaluate((heading) => heading.scrollIntoView({ block: 'center' }));
      await shoot(page, `${tag}-choices`);
    });
  }
}
