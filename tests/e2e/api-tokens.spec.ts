import { expect } from '@playwright/test';
import { test } from './fixtures';
import { openSignedIn, registerViaApi } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';

// Profile → API tokens (docs/integrations.md): a full account makes a token that expires in 90
// days, sees it once with Copy, finds it listed with its last use once a program used it, and revokes it, after which
// the program is refused. The rules behind it are the server's tests' (tests/server/auth).

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('makes a token, shows it once, lists its last use and expiry, and revokes it', async ({
  page,
  request,
}) => {
  const person = await registerViaApi(request);
  await openSignedIn(page, person, '/profile');
  await page.getByRole('link', { name: 'Manage API tokens' }).click();
  await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible();
  await expect(page.getByText('No tokens yet')).toBeVisible();

  await page.getByRole('button', { name: 'New token' }).click();
  const sheet = page.getByRole('dialog', { name: 'New API token' });
  await sheet.getByLabel('Name').fill('Discord bot');
  await sheet.getByLabel(/^Play/).check();
  await expect(sheet.getByText('It works until you revoke it.')).toBeVisible();
  const expiry = sheet.getByLabel('Expiration');
  await expect(expiry.locator('option')).toHaveText(['No expiry', '30 days', '90 days', '1 year']);
  await expiry.selectOption({ label: '90 days' });
  await expect(
    sheet.getByText(/^It stops working on .+\. You can revoke it before\.$/),
  ).toBeVisible();
  await sheet.getByRole('button', { name: 'Create token' }).click();
  await expect(sheet.getByText("Copy your token now. You won't see it again.")).toBeVisible();
  const in90Days = await page.evaluate(() =>
    new Date(Date.now() + 90 * 86_400_000).toLocaleDateString(undefined, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    }),
  );
  await expect(sheet.getByText(`Expires ${in90Days}`)).toBeVisible();
  const token = await sheet.getByLabel('Your new token').inputValue();
  expect(token).toMatch(/^hk_[A-Za-z0-9_-]{43}$/);
  await sheet.getByRole('button', { name: 'Copy token' }).click();
  await expect(sheet.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expectAccessible(page, 'New API token');
  await sheet.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('listitem').filter({ hasText: 'Discord bot' });
  await expect(row).toContainText('Never used');
  await expect(row).toContainText(`Expires ${in90Days}`);
  await expect(row.getByText('Read', { exact: true })).toBeVisible();
  await expect(row.getByText('Play', { exact: true })).toBeVisible();
  const used = await request.get('/api/groups', { headers: { authorization: `Bearer ${token}` } });
  expect(used.status()).toBe(200);
  await page.reload();
  await expect(row).toContainText('Last used just now');
  await expectAccessible(page, 'API tokens');

  await row.getByRole('button', { name: 'Revoke Discord bot' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this token?' });
  await expect(confirm).toContainText('Programs using "Discord bot" stop working at once.');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Token revoked.')).toBeVisible();
  await expect(page.getByText('No tokens yet')).toBeVisible();
  const refused = await request.get('/api/groups', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(refused.status()).toBe(401);
});
