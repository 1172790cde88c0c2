import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots of the travel screens (opt-in, for looking: HUNCH_SCREENSHOTS=1): the
// install help as Safari on an iPhone shows it, the move-to-another-device sheet, the other
// device's "Sign in as …?" and its pasted-link form, and the leaderboard's This week, at
// 390×844 and 1280×800, in .tmp/screens/.

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function playAsGuest(page: Page, name: string) {
  await page.goto('/continue-as-guest');
  await page.getByLabel('Display name').fill(name);
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

for (const size of SCREEN_SIZES) {
  test(`travel screens at ${size.name}`, async ({ browser }) => {
    const iphone = await browser.newContext({
      viewport: size,
      userAgent: IPHONE_SAFARI,
      hasTouch: true,
    });
    const page = await iphone.newPage();
    await playAsGuest(page, 'Maya');
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Install Hunch' })).toBeVisible();
    await page
      .getByRole('heading', { name: 'Install Hunch' })
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await shoot(page, `travel-${size.name}-profile-install-ios`);
    await shoot(page, `travel-${size.name}-profile-full`, true);

    await page.getByRole('button', { name: 'Show a sign-in code' }).click();
    const sheet = page.getByRole('dialog', { name: 'Move to another device' });
    await expect(sheet.getByLabel('Sign-in link')).toBeVisible();
    await shoot(page, `travel-${size.name}-move-sheet`);
    const link = await sheet.getByLabel('Sign-in link').inputValue();

    const other = await (await browser.newContext({ viewport: size })).newPage();
    await other.goto(link);
    await expect(other.getByRole('heading', { name: 'Sign in as Maya?' })).toBeVisible();
    await shoot(other, `travel-${size.name}-move-confirm`);
    await other.goto('/move');
    await shoot(other, `travel-${size.name}-move-paste`);
    await other.goto('/move#1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    await expect(other.getByText('This sign-in link has expired')).toBeVisible();
    await shoot(other, `travel-${size.name}-move-failed`);
    // A device signed in to someone else says so first.
    await page.goto(link.replace(/#.*/, '') + '#' + link.split('#')[1]);
    await expect(
      page.getByRole('heading', { name: "You're already signed in as Maya" }),
    ).toBeVisible();
    await shoot(page, `travel-${size.name}-move-already`);
    await iphone.close();
  });
}

for (const size of SCREEN_SIZES) {
  test(`leaderboard periods at ${size.name}`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const owner = await registerPlayer(request);
    const group = await createGroupViaApi(request, owner, { name: uniqueGroupName('Friday') });
    const friends = [await registerPlayer(request), await registerPlayer(request)];
    for (const friend of friends) await joinViaApi(request, friend, group.name);
    const bet = await createBetViaApi(request, owner, { groupId: group.id, title: 'Derby?' });
    await wagerViaApi(request, owner, bet.id, 'yes', 3);
    await wagerViaApi(request, friends[0]!, bet.id, 'no', 2);
    await wagerViaApi(request, friends[1]!, bet.id, 'yes', 1);
    await resolveViaApi(request, owner, bet.id, 'yes');
    await page.goto('/login?returnUrl=/leaderboard');
    await signIn(page, owner.person);
    const periods = page.getByRole('group', { name: 'Leaderboard period' });
    await periods.getByRole('button', { name: 'This week' }).click();
    await expect(page.getByRole('table', { name: /standings this week/ })).toBeVisible();
    await shoot(page, `travel-${size.name}-leaderboard-week`);
    await periods.getByRole('button', { name: 'All time' }).click();
    await shoot(page, `travel-${size.name}-leaderboard-all`);
  });
}
