import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { newPerson } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, uniqueGroupName, type Player } from './groups.helpers';

// Move to another device: a guest shows a one-time link on the profile, a
// second browser (another context: its own storage, as a phone or the installed app has)
// opens it, confirms, and plays as the same guest with the same points. The link works once.

async function playAsGuest(page: Page, name: string): Promise<Player> {
  await page.goto('/continue-as-guest');
  await page.getByLabel('Display name').fill(name);
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const session = await page.evaluate(() => ({
    token: localStorage.getItem('access_token')!,
    user: JSON.parse(localStorage.getItem('user_data')!) as { id: number },
  }));
  return { person: newPerson(), token: session.token, id: session.user.id };
}

async function availablePoints(page: Page, groupId: number): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  const response = await page.request.get(`/api/groups/${groupId}/membership`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { availablePoints: number }).availablePoints;
}

async function showSignInLink(page: Page): Promise<string> {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Show a sign-in code' }).click();
  const sheet = page.getByRole('dialog', { name: 'Move to another device' });
  await expect(sheet.getByRole('img', { name: 'QR code of your sign-in link' })).toBeVisible();
  await expect(sheet.getByText(/^Works for \d+:\d\d more/)).toBeVisible();
  return sheet.getByLabel('Sign-in link').inputValue();
}

test('a guest moves to a second browser with the link and keeps their points', async ({
  page,
  browser,
  request,
}) => {
  const guest = await playAsGuest(page, 'Traveller');
  const group = await createGroupViaApi(request, guest, { name: uniqueGroupName('Travel') });
  const bet = await createBetViaApi(request, guest, { groupId: group.id, title: 'Rain today?' });
  await wagerViaApi(request, guest, bet.id, 'yes', 2);
  const points = await availablePoints(page, group.id);
  expect(points).toBeLessThan(100);

  const link = await showSignInLink(page);
  await expectAccessible(page, 'the move-to-another-device sheet');
  expect(link).toMatch(/\/move#\d+\.[\w-]{43}$/);

  const phone = await browser.newContext();
  const other = await phone.newPage();
  await other.goto(link);
  await expect(other.getByRole('heading', { name: 'Sign in as Traveller?' })).toBeVisible();
  await expectAccessible(other, '/move, Sign in as …?');
  // The code left the address bar once read.
  await expect(other).toHaveURL(/\/move$/);
  await other.getByRole('button', { name: 'Sign in as Traveller' }).click();
  await expect(other).toHaveURL(/\/dashboard$/);
  await expect(
    other.getByText("Welcome, Traveller! You're signed in on this device."),
  ).toBeVisible();
  // The first browser's open sheet hears it, and the profile says so too.
  const sheet = page.getByRole('dialog', { name: 'Move to another device' });
  await expect(sheet.getByRole('status')).toHaveText('Signed in on the other device.');
  await expect(sheet.getByLabel('Sign-in link')).toHaveCount(0);
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText('Signed in on the other device.'),
  ).toBeVisible();
  await sheet.getByRole('button', { name: 'Done' }).click();
  await expect(sheet).toBeHidden();
  expect(await other.evaluate(() => JSON.parse(localStorage.getItem('user_data')!).id)).toBe(
    guest.id,
  );
  expect(await availablePoints(other, group.id)).toBe(points);
  await other.goto(`/group/${group.id}`);
  await expect(other.getByRole('heading', { name: group.name })).toBeVisible();

  // Single use: a third browser gets the refusal.
  const third = await (await browser.newContext()).newPage();
  await third.goto(link);
  await expect(third.getByText('This sign-in link has expired, was already used')).toBeVisible();
  // The first browser is still signed in.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await phone.close();
});

test('a cancelled link stops working, and a pasted link works on a device with no address bar', async ({
  page,
  browser,
}) => {
  await playAsGuest(page, 'Careful');
  const cancelled = await showSignInLink(page);
  await page
    .getByRole('dialog', { name: 'Move to another device' })
    .getByRole('button', { name: 'Cancel the code' })
    .click();
  await expect(page.getByText('The sign-in code was cancelled.')).toBeVisible();

  const app = await (await browser.newContext()).newPage();
  await app.goto(cancelled);
  await expect(app.getByText('This sign-in link has expired, was already used')).toBeVisible();

  const link = await showSignInLink(page);
  await app.goto('/login');
  await app.getByRole('link', { name: 'Use a sign-in link' }).click();
  await expectAccessible(app, '/move, the pasted link');
  await app.getByLabel('Sign-in link').fill('not a link');
  await app.getByRole('button', { name: 'Continue' }).click();
  await expect(app.getByText('This sign-in link is not complete.')).toBeVisible();
  await app.getByLabel('Sign-in link').fill(link);
  await app.getByRole('button', { name: 'Continue' }).click();
  await app.getByRole('button', { name: 'Sign in as Careful' }).click();
  await expect(app).toHaveURL(/\/dashboard$/);

  // The same device again: it says so and does not use the link.
  const again = await showSignInLink(page);
  await app.goto(again);
  await expect(
    app.getByRole('heading', { name: "You're already signed in as Careful" }),
  ).toBeVisible();
});
