import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';

// The profile's "Your data" card: the export downloads a JSON file holding the
// player's wagers; deleting the account signs the device out and the old login stops working.

test("Download my data saves a JSON file with the player's wagers", async ({ page, request }) => {
  const player = await registerPlayer(request);
  const group = await createGroupViaApi(request, player, { name: uniqueGroupName('Export') });
  const bet = await createBetViaApi(request, player, {
    groupId: group.id,
    title: 'Will the train be on time?',
  });
  await wagerViaApi(request, player, bet.id, 'yes', 2);
  await page.goto('/login?returnUrl=/profile');
  await signIn(page, player.person);
  await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;

  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^hunch-export-${player.id}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
  );
  const file = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    profile: { email: string };
    wagers: Array<{ betId: number; betTitle: string; prediction: string; points: number }>;
  };
  expect(file.profile.email).toBe(player.person.email);
  expect(file.wagers).toEqual([
    expect.objectContaining({
      betId: bet.id,
      betTitle: 'Will the train be on time?',
      prediction: 'yes',
      points: 2,
    }),
  ]);
  await expect(page.getByText('Your data is downloading.')).toBeVisible();
});

test('Delete account asks for the password, signs out, and the login then fails', async ({
  page,
  request,
}) => {
  const player = await registerPlayer(request);
  await page.goto('/login?returnUrl=/profile');
  await signIn(page, player.person);
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog.getByText('Your name, email and username')).toBeVisible();

  await dialog.getByLabel('Current password').fill('Not-my-password-1');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Your current password is incorrect.')).toBeVisible();

  await dialog.getByLabel('Current password').fill(player.person.password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();

  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  await page.goto('/login');
  await signIn(page, player.person);
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('a guest deletes their account without a password', async ({ page }) => {
  await page.goto('/continue-as-guest');
  await page.getByLabel('Display name').fill('Leaving Guest');
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog.getByLabel('Current password')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();

  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fprofile$/);
});
