import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi } from './bets.helpers';
import { openAs, registerPlayer, type Player } from './groups.helpers';
import { openResolvedBet, resolvedBetOfTwo } from './share.helpers';
import { LOOKED_AT_SIZES, shootIfAsked } from './screens.helpers';

// Issue 42, point 9: a shared bet link works for outsiders. Ben shares his resolved bet; a
// signed-out browser opens the link and reads that one bet (its question, that it is resolved,
// "Ben called it — won 6 (×1.5)"), with "Sign up to play" and "Join" (the group is public), and
// none of the group's other bets. Ben stops sharing; the same link then says it was turned off.
// With HUNCH_SCREENSHOTS=1 the public page and the sheet are saved at 390, 320 and 1280, light
// and dark, in .tmp/screens/.

async function bensBet(request: APIRequestContext) {
  const made = await resolvedBetOfTwo(request, {
    title: 'Pizza on Friday?',
    group: 'Pizza crew',
    winnerStake: 4,
    loserStake: 2,
  });
  // Another bet of the group, still open: the link must never lead to it.
  await createBetViaApi(request, made.loser, { groupId: made.group.id, title: 'Karaoke after?' });
  return { ben: made.winner, group: made.group, bet: made.bet };
}

async function openShareSheet(page: Page, ben: Player, betId: number) {
  await openResolvedBet(page, ben, betId);
  await page.getByRole('button', { name: 'Share' }).click();
  const sheet = page.getByRole('dialog', { name: 'Share this bet' });
  await expect(sheet.getByLabel('Link to this bet')).toHaveValue(/\/s\/[A-Za-z0-9_-]{22}$/);
  return sheet;
}

test('a signed-out friend opens a shared bet; once Ben stops sharing, the link says so', async ({
  browser,
  request,
}) => {
  const { ben, group, bet } = await bensBet(request);
  const bens = await browser.newContext();
  const sheet = await openShareSheet(await bens.newPage(), ben, bet.id);
  const link = await sheet.getByLabel('Link to this bet').inputValue();
  await expect(sheet.getByText(/Anyone with the link sees this bet, read-only/)).toBeVisible();

  // A browser that never signed in, at the phone's size.
  const outsider = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await outsider.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Pizza on Friday?' })).toBeVisible();
  await expect(page.getByText(`A bet in ${group.name}`)).toBeVisible();
  await expect(page.getByText('Resolved', { exact: true })).toBeVisible();
  await expect(page.getByText(`${ben.person.displayName} called it — won 6 (×1.5)`)).toBeVisible();
  await expect(page.getByText('The answer: Yes')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign up to play' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Join the group' })).toHaveAttribute(
    'href',
    `/group/${group.id}`,
  );
  await expect(page.getByText('Karaoke after?')).toHaveCount(0);
  // The preview a chat app shows carries the question.
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
    'content',
    'Pizza on Friday?',
  );

  // Ben stops sharing: his sheet says so, and the link answers a friendly page.
  await sheet.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(sheet.getByText('Sharing stopped. The link was turned off.')).toBeVisible();
  await expect(sheet.getByLabel('Link to this bet')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This link was turned off' })).toBeVisible();
  await expect(page.getByText('Pizza on Friday?')).toHaveCount(0);
  await bens.close();
  await outsider.close();
});

test('a member who opens the link lands on the bet; a player outside the group reads it', async ({
  browser,
  request,
}) => {
  const { ben, bet } = await bensBet(request);
  const context = await browser.newContext();
  const page = await context.newPage();
  const sheet = await openShareSheet(page, ben, bet.id);
  const link = await sheet.getByLabel('Link to this bet').inputValue();
  await page.goto(link);
  await page.waitForURL(new RegExp(`/bets/${bet.id}$`));
  await expect(page.getByText('Bet Resolved')).toBeVisible();
  await context.close();

  // Signed in, but not in the group: the public page, with Join and no sign-up.
  const stranger = await registerPlayer(request);
  const theirs = await openAs(browser, stranger, '/dashboard');
  await theirs.goto(link);
  await expect(theirs.getByRole('heading', { name: 'Pizza on Friday?' })).toBeVisible();
  await expect(theirs.getByRole('link', { name: 'Join the group' })).toBeVisible();
  await expect(theirs.getByRole('link', { name: 'Sign up to play' })).toHaveCount(0);
  await theirs.context().close();
});

for (const size of LOOKED_AT_SIZES) {
  test(`the shared bet's page and the share sheet at ${size.name}, light and dark`, async ({
    browser,
    request,
  }) => {
    const { ben, bet } = await bensBet(request);
    const bens = await browser.newContext({ viewport: size });
    const benPage = await bens.newPage();
    const sheet = await openShareSheet(benPage, ben, bet.id);
    const link = await sheet.getByLabel('Link to this bet').inputValue();
    const outsider = await browser.newContext({ viewport: size });
    const page = await outsider.newPage();
    await page.goto(link);
    await expect(page.getByRole('link', { name: 'Sign up to play' })).toBeVisible();
    await expectAccessible(page, `the shared bet's page at ${size.name}`);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await benPage.emulateMedia({ colorScheme: scheme });
      await shootIfAsked(page, `shared-bet-${size.name}-${scheme}`, true);
      await shootIfAsked(benPage, `share-sheet-${size.name}-${scheme}`);
    }
    await expectAccessible(benPage, `the share sheet at ${size.name}`);
    await sheet.getByRole('button', { name: 'Stop sharing' }).click();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'This link was turned off' })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shootIfAsked(page, `shared-bet-off-${size.name}-${scheme}`);
    }
    await bens.close();
    await outsider.close();
  });
}
