import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type BrowserContext } from '@playwright/test';
import { test } from './fixtures';
import { expectAccessible } from './axe.helpers';
import type { Player } from './groups.helpers';
import { openResolvedBet, resolvedBetOfTwo } from './share.helpers';
import { SCREEN_SIZES, SCREENS_DIR, shootIfAsked } from './screens.helpers';

// Sharing a resolved bet. Share opens our own sheet: the drawn card, a Download that saves the
// PNG, and the bet's public link to copy (/s/<token>, bet-share-link.spec.ts opens it). With
// HUNCH_SCREENSHOTS=1 it also saves the sheet and the card itself at phone and desktop sizes in
// .tmp/screens/. A phone's system share sheet is outside Hunch: the last test stands in for it
// with a navigator.share that records what the sheet's Send handed it (or refuses, as a player
// or a browser can).

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A bet's public link: /s/ and its 22-character token. */
const SHARED_LINK = /\/s\/[A-Za-z0-9_-]{22}$/;

/** Maya wins a bet against Sam (Yes ×3 in a group of two). */
async function resolvedBet(request: APIRequestContext) {
  const made = await resolvedBetOfTwo(request, {
    title: 'Will it rain on the picnic on Saturday?',
    group: 'Rain club',
    winnerStake: 2,
    loserStake: 4,
  });
  return { maya: made.winner, group: made.group, bet: made.bet };
}

/** Maya's resolved bet, open in a page of `context` she signed in to. */
async function openBetSignedIn(context: BrowserContext, maya: Player, betId: number) {
  const page = await context.newPage();
  await openResolvedBet(page, maya, betId);
  return page;
}

for (const size of SCREEN_SIZES) {
  test(`sharing a resolved bet at ${size.name}`, async ({ browser, request }) => {
    const { maya, group, bet } = await resolvedBet(request);

    const context = await browser.newContext({ viewport: size, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await openBetSignedIn(context, maya, bet.id);

    await page.getByRole('button', { name: 'Share' }).click();
    const sheet = page.getByRole('dialog', { name: 'Share this bet' });
    const card = sheet.getByRole('img', {
      name: `Share card: ${maya.person.displayName} called it — won 6 (×3). Will it rain on the picnic on Saturday?, in ${group.name}. Virtual points, no money.`,
    });
    await expect(card).toBeVisible();
    // The image really is drawn: 1200×630, decoded.
    expect(
      await card.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
    ).toEqual([1200, 630]);
    await expectAccessible(page, `the share sheet at ${size.name}`);
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

    await expect(sheet.getByLabel('Link to this bet')).toHaveValue(SHARED_LINK);
    await sheet.getByRole('button', { name: 'Copy link' }).click();
    await expect(sheet.getByRole('button', { name: 'Copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(SHARED_LINK);
    await context.close();
  });
}

test('a phone that shares files sends the card to its own share sheet from ours; a refusal says so', async ({
  browser,
  request,
}) => {
  const { maya, group, bet } = await resolvedBet(request);
  const context = await browser.newContext();
  // The system share sheet: accepts files, records what it was handed, or refuses as told.
  await context.addInitScript(() => {
    const recorded: unknown[] = [];
    Object.assign(window, { sharedCards: recorded, shareAnswer: 'share' });
    Object.defineProperty(navigator, 'canShare', {
      configurable: true,
      value: (data: ShareData) => (data.files ?? []).every((file) => file.type === 'image/png'),
    });
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: async (data: ShareData) => {
        const answer = (window as unknown as { shareAnswer: string }).shareAnswer;
        if (answer !== 'share') throw new DOMException('The sheet said no', answer);
        const files = await Promise.all(
          (data.files ?? []).map(async (file) => ({
            name: file.name,
            type: file.type,
            head: [...new Uint8Array(await file.slice(0, 24).arrayBuffer())],
          })),
        );
        recorded.push({ title: data.title, text: data.text, url: data.url, files });
      },
    });
  });
  const page = await openBetSignedIn(context, maya, bet.id);
  const share = page.getByRole('button', { name: 'Share' });
  const sheet = page.getByRole('dialog', { name: 'Share this bet' });

  // Our sheet offers Send; sent: one PNG card of 1200×630, the bet's title, what it says and its link.
  await share.click();
  const send = sheet.getByRole('button', { name: 'Send' });
  await send.click();
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { sharedCards: unknown[] }).sharedCards.length),
    )
    .toBe(1);
  const [shared] = await page.evaluate(
    () =>
      (
        window as unknown as {
          sharedCards: {
            title: string;
            text: string;
            url: string;
            files: { name: string; type: string; head: number[] }[];
          }[];
        }
      ).sharedCards,
  );
  expect(shared!.title).toBe('Will it rain on the picnic on Saturday?');
  expect(shared!.text).toBe(
    `${maya.person.displayName} called it — won 6 (×3). Will it rain on the picnic on Saturday?, in ${group.name} (virtual points, no money)`,
  );
  expect(shared!.url).toMatch(SHARED_LINK);
  expect(shared!.files.map((file) => [file.name, file.type])).toEqual([
    ['hunch-bet.png', 'image/png'],
  ]);
  const head = Buffer.from(shared!.files[0]!.head);
  expect(head.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  expect([head.readUInt32BE(16), head.readUInt32BE(20)]).toEqual([1200, 630]);
  await expect(sheet).toBeVisible();

  // The player closes the system sheet: nothing more happens, and nothing is reported.
  await page.evaluate(() => Object.assign(window, { shareAnswer: 'AbortError' }));
  await send.click();
  await expect(send).toBeEnabled();
  await expect(page.getByText("Sending didn't work.")).toBeHidden();

  // The browser refuses: the player is told, and the sheet's Download and link stay.
  await page.evaluate(() => Object.assign(window, { shareAnswer: 'NotAllowedError' }));
  await send.click();
  await expect(page.getByText("Sending didn't work.")).toBeVisible();
  await expect(sheet.getByLabel('Link to this bet')).toHaveValue(SHARED_LINK);
  await context.close();
});
