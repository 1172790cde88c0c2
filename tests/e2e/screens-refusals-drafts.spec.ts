import { expect } from '@playwright/test';
import { test } from './fixtures';
import { openSignedIn } from './accounts.helpers';
import { createBetViaApi, openBetSheet } from './bets.helpers';
import { activeGroupButton, twoInAGroup } from './groups.helpers';
import { wagerRefusedOffline } from './offline-refusals.helpers';
import { LOOKED_AT_SIZES, shootIfAsked } from './screens.helpers';

// Screenshots for a person to look at (never compared) of a refused offline write's toast and
// sheet, and of restored drafts, at 320 (dark) and 1280 (light); offline-refusals.spec.ts and
// drafts.spec.ts take the 390 ones. Opt-in: HUNCH_SCREENSHOTS=1 npx playwright test
// screens-refusals-drafts.

test.use({ serviceWorkers: 'allow' });

for (const size of LOOKED_AT_SIZES.filter((one) => one.name !== '390'))
  test(`the refused write's toast and sheet at ${size.name}`, async ({ page, context }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    // The narrow phone in dark mode, the desktop in light.
    await page.emulateMedia({ colorScheme: size.name === '320' ? 'dark' : 'light' });
    await wagerRefusedOffline(page, context, 'Pizza Friday with the whole office, or just us?');
    const bar = page.getByText("1 change couldn't be sent.");
    await expect(bar).toBeVisible({ timeout: 15_000 });
    await shootIfAsked(page, `refused-offline-toast-${size.name}`);
    await bar.getByRole('button', { name: 'Review' }).click();
    const sheet = page.getByRole('dialog', { name: 'Sync status' });
    await expect(sheet.getByRole('button', { name: 'Dismiss', exact: true })).toBeVisible();
    await shootIfAsked(page, `refused-offline-sheet-${size.name}`);
  });

for (const size of LOOKED_AT_SIZES.filter((one) => one.name !== '390'))
  test(`a restored draft at ${size.name}`, async ({ page, request }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    // The narrow phone in dark mode, the desktop in light.
    await page.emulateMedia({ colorScheme: size.name === '320' ? 'dark' : 'light' });
    const { owner, member, group } = await twoInAGroup(request, 'Drafts');
    const bet = await createBetViaApi(request, owner, { groupId: group.id, title: 'Rain?' });
    await openSignedIn(page, member.person, `/bets/${bet.id}`);
    await expect(activeGroupButton(page, group.name)).toBeVisible();
    const card = page.getByRole('article', { name: 'Place your wager' });
    await card.getByRole('button', { name: /^Yes/ }).click();
    await page.reload();
    await expect(card.getByText('Draft restored')).toBeVisible();
    await shootIfAsked(page, `draft-wager-${size.name}`);
    const sheet = await openBetSheet(page);
    await sheet.getByLabel('Title').fill('Pizza Friday?');
    await page.goBack();
    await openBetSheet(page);
    await shootIfAsked(page, `draft-bet-${size.name}`);
  });
