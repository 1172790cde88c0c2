import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { newPerson, registerViaApi, signIn } from './accounts.helpers';
import { activeGroupButton, createGroupViaApi, joinPrivateViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';

// Screenshots for a person to look at (not compared): every account screen and a few public
// ones at the phone reference (390×844) and a desktop (1280×800), light and dark, in
// .tmp/screens/. Opt-in, as it is for looking, not for testing: HUNCH_SCREENSHOTS=1.

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];
const OUT = '.tmp/screens';

async function shoot(page: Page, name: string, fullPage = false) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(900);
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage });
}

for (const size of SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`screens at ${size.name} ${colorScheme}`, async ({ page, request }) => {
      test.setTimeout(120_000);
      mkdirSync(OUT, { recursive: true });
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const tag = `${size.name}-${colorScheme}`;
      for (const path of ['/landing', '/login', '/register', '/continue-as-guest', '/forgot-password', '/reset-password/abc', '/reset-password']) {
        await page.goto(path);
        await shoot(page, `${tag}${path.replaceAll('/', '-')}`);
      }
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await shoot(page, `${tag}-login-errors`);

      const person = await registerViaApi(request);
      await signIn(page, person);
      await expect(page).toHaveURL(/\/dashboard$/);
      await shoot(page, `${tag}-dashboard`);
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible();
      await shoot(page, `${tag}-profile`);
      await page.getByRole('button', { name: 'Edit' }).click();
      await shoot(page, `${tag}-edit-modal`);
      await page.keyboard.press('Escape');
      await page.goto('/group');
      await shoot(page, `${tag}-group`);

      await page.goto('/profile');
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.goto('/continue-as-guest');
      await page.getByLabel('Display name').fill('Sam the Oracle');
      await page.getByRole('button', { name: 'Continue as Guest' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: "You're playing as a guest" })).toBeVisible();
      await shoot(page, `${tag}-guest-profile`);
      await page.getByRole('button', { name: 'Using Temporary Account' }).click();
      await shoot(page, `${tag}-upgrade-modal`);
    });
  }
}

for (const size of SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`group screens at ${size.name} ${colorScheme}`, async ({ page, request }) => {
      test.setTimeout(120_000);
      mkdirSync(OUT, { recursive: true });
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const tag = `${size.name}-${colorScheme}`;
      const player = await registerPlayer(request);
      await page.goto('/login');
      await signIn(page, player.person);
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto('/group');
      await expect(page.getByRole('heading', { name: 'Join Your First Group!' })).toBeVisible();
      await shoot(page, `${tag}-group-none`);
      await page.getByRole('banner').getByRole('button', { name: 'Join Group' }).click();
      await shoot(page, `${tag}-join-modal`);
      await page.getByRole('dialog').getByRole('tab', { name: 'Private Group' }).click();
      await shoot(page, `${tag}-join-modal-private`);
      await page.keyboard.press('Escape');
      await page.goto('/group/create');
      await page.getByRole('radio', { name: /Private/ }).check();
      await page.getByRole('button', { name: 'Create Group' }).click();
      await shoot(page, `${tag}-group-create`, true);

      const group = await createGroupViaApi(request, player, { name: uniqueGroupName('Friday Forecasters'), privacy: 'private', description: 'Our weekly calls on sport, weather and who is late again.' });
      await createGroupViaApi(request, player, { name: uniqueGroupName('Book Club'), privacy: 'public' });
      for (const name of ['Sam Guest', 'Alex Rivera']) {
        const friend = await registerPlayer(request, { ...newPerson(), displayName: name });
        await joinPrivateViaApi(request, friend, group.id, group.inviteCode!);
      }
      await page.goto(`/group/${group.id}`);
      await expect(page.getByRole('list', { name: 'Members' })).toBeVisible();
      await shoot(page, `${tag}-group-details`, true);
      await page.getByRole('button', { name: 'Share' }).click();
      await shoot(page, `${tag}-share-modal`);
      await page.keyboard.press('Escape');
      await page.goto('/group');
      await shoot(page, `${tag}-group-active`);
      await activeGroupButton(page, group.name).click();
      await shoot(page, `${tag}-group-selector`);
      await page.keyboard.press('Escape');
      await page.goto('/leaderboard');
      await expect(page.getByRole('table')).toBeVisible();
      await shoot(page, `${tag}-leaderboard`);
    });
  }
}
