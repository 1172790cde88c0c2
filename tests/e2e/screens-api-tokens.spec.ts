import { expect } from '@playwright/test';
import { test } from './fixtures';
import { openSignedIn, registerViaApi } from './accounts.helpers';
import { LOOKED_AT_SIZES, shoot } from './screens.helpers';

// Screenshots of Profile → API tokens for a person to look at (not compared), in .tmp/screens/,
// light and dark at 390, 320 and 1280: the profile's card, the list (with expiries), the new-token sheet
// (a year's expiry chosen) and the token shown once, and the revoke confirmation. Opt-in: HUNCH_SCREENSHOTS=1.

for (const size of LOOKED_AT_SIZES)
  for (const scheme of ['light', 'dark'] as const)
    test(`API tokens screens at ${size.name}, ${scheme}`, async ({ page, request }) => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      const tag = `${size.name}-${scheme}-api-tokens`;
      const person = await registerViaApi(request);
      const headers = { authorization: '' };
      await openSignedIn(page, person, '/profile');
      const card = page.getByRole('link', { name: 'Manage API tokens' });
      await card.scrollIntoViewIfNeeded();
      await shoot(page, `${tag}-card`);
      await card.click();
      await expect(page.getByText('No tokens yet')).toBeVisible();
      await shoot(page, `${tag}-empty`);

      for (const name of ['Weekly results to our Discord channel', 'Fatebook export']) {
        await page.getByRole('button', { name: 'New token' }).click();
        const sheet = page.getByRole('dialog', { name: 'New API token' });
        await sheet.getByLabel('Name').fill(name);
        await sheet.getByLabel(/^Play/).check();
        if (!name.startsWith('Weekly')) {
          await sheet.getByLabel('Expiration').selectOption({ label: '1 year' });
          await shoot(page, `${tag}-sheet`);
        }
        await sheet.getByRole('button', { name: 'Create token' }).click();
        await expect(sheet.getByText("You won't see it again.", { exact: false })).toBeVisible();
        headers.authorization = `Bearer ${await sheet.getByLabel('Your new token').inputValue()}`;
        if (!name.startsWith('Weekly')) await shoot(page, `${tag}-shown`);
        await sheet.getByRole('button', { name: 'Done' }).click();
      }
      expect((await request.get('/api/groups', { headers })).status()).toBe(200);
      await page.reload();
      await expect(page.getByText('Last used just now')).toBeVisible();
      await expect(page.getByText('No expiry')).toBeVisible();
      await expect(page.getByText(/^Expires /)).toBeVisible();
      await shoot(page, `${tag}-list`);
      await page.getByRole('button', { name: 'Revoke Fatebook export' }).click();
      await expect(page.getByRole('dialog', { name: 'Revoke this token?' })).toBeVisible();
      await shoot(page, `${tag}-revoke`);
    });
