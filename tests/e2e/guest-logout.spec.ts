import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { expectAccessible } from './axe.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
  type Player,
} from './groups.helpers';
import { newPerson, signIn } from './accounts.helpers';

// A guest who taps Logout would lose the account for good (a guest has no email or password to
// sign back in with): the app warns first, says what goes, and offers the upgrade beside it.

async function continueAsGuest(page: Page): Promise<Player> {
  await page.goto('/continue-as-guest');
  await page.getByLabel('Display name').fill('Sam the Oracle');
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const { id, token } = await page.evaluate(() => ({
    id: (JSON.parse(localStorage.getItem('user_data')!) as { id: number }).id,
    token: localStorage.getItem('access_token')!,
  }));
  return { person: newPerson(), id, token };
}

test('a guest tapping Logout is warned, with what is lost and the upgrade beside it', async ({
  page,
  request,
}) => {
  const host = await registerPlayer(request);
  const group = await createGroupViaApi(request, host, { name: uniqueGroupName('Quiz Night') });
  const guest = await continueAsGuest(page);
  await joinViaApi(request, guest, group.name);

  await page.goto('/profile');
  const logout = page.getByRole('button', { name: 'Logout' });
  const warning = page.getByRole('dialog', { name: 'Sign out of your guest account?' });
  const losses = warning.getByRole('list', { name: 'What you would lose' });

  // Keep playing: nothing happens.
  await logout.click();
  await expect(losses.getByText('your place in 1 group, with 100 points in all')).toBeVisible();
  await expectAccessible(page, 'the guest logout warning');
  await warning.getByRole('button', { name: 'Keep playing' }).click();
  await expect(warning).toHaveCount(0);
  await expect(page).toHaveURL(/\/profile$/);

  // The upgrade is one tap away.
  await logout.click();
  await warning.getByRole('button', { name: 'Upgrade to a Full Account' }).click();
  await expect(page.getByRole('dialog', { name: 'Upgrade to a Full Account' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Signing out anyway, on purpose.
  await logout.click();
  await warning.getByRole('button', { name: 'Sign out and lose it' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
});

test('a full account signs out at once, with no warning', async ({ page, request }) => {
  const player = await registerPlayer(request);
  await page.goto('/login');
  await signIn(page, player.person);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
});
