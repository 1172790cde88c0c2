import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures';
import { openSignedIn } from './accounts.helpers';
import { createBetViaApi, openBetSheet } from './bets.helpers';
import { commentThread } from './comments.helpers';
import { activeGroupButton, registerPlayer, twoInAGroup } from './groups.helpers';
import { shootIfAsked } from './screens.helpers';

// Nothing typed is lost to Back (a phone's Back, here the browser's): it closes the bet sheet
// or steps back inside it, and a half-written bet, comment or wager stays as a draft of its
// group on the device, offered again ("Draft restored", with "Discard draft"). A sent or
// discarded draft is gone, and signing out leaves none.

/** The player's own keys in localStorage that hold drafts. */
const draftKeys = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('draft:')));

/** A member of a new group on the dashboard, the bet sheet open with `title` typed. */
async function signedInWithBetSheet(page: Page, request: APIRequestContext, title: string) {
  const { member, group } = await twoInAGroup(request, 'Drafts');
  await openSignedIn(page, member.person, '/dashboard');
  // The bet sheet opens for the active group, known once the first sync has answered.
  await expect(activeGroupButton(page, group.name)).toBeVisible();
  const sheet = await openBetSheet(page);
  await sheet.getByLabel('Title').fill(title);
  return { group, sheet };
}

test('Back closes the bet sheet or steps back inside it, and the half-written bet comes back as a draft', async ({
  page,
  request,
}) => {
  const { sheet } = await signedInWithBetSheet(page, request, 'Pizza Friday?');
  await sheet.getByRole('button', { name: 'Next' }).click();
  await expect(sheet.getByRole('tab', { name: /Type/ })).toHaveAttribute('aria-selected', 'true');

  // Back on the Type step: back to Details, the sheet still open.
  await page.goBack();
  await expect(sheet.getByRole('tab', { name: /Details/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(sheet.getByLabel('Title')).toHaveValue('Pizza Friday?');
  // Back on Details: the sheet closes, the page stays.
  await page.goBack();
  await expect(sheet).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);

  const again = await openBetSheet(page);
  await expect(again.getByText('Draft restored')).toBeVisible();
  await expect(again.getByLabel('Title')).toHaveValue('Pizza Friday?');
  await shootIfAsked(page, 'draft-bet-390');
  await again.getByRole('button', { name: 'Discard draft' }).click();
  await expect(again.getByLabel('Title')).toHaveValue('');
  await expect(again.getByText('Draft restored')).toHaveCount(0);
  expect(await draftKeys(page)).toEqual([]);
  // A title typed and wiped by hand leaves no draft to offer.
  await again.getByLabel('Title').fill('Hm');
  await expect.poll(() => draftKeys(page)).toHaveLength(1);
  await again.getByLabel('Title').fill('');
  await expect.poll(() => draftKeys(page)).toEqual([]);

  // Closed with its X, the sheet leaves its history entry for Back to skip.
  await again.getByLabel('Title').fill('Sent this time?');
  await again.getByRole('button', { name: 'Close' }).click();
  await expect(again).toHaveCount(0);
  const sent = await openBetSheet(page);
  await expect(sent.getByLabel('Title')).toHaveValue('Sent this time?');
  await sent.getByRole('button', { name: 'Next' }).click();
  await sent.getByRole('button', { name: 'Create Bet' }).click();
  await expect(page).toHaveURL(/\/bets\/\d+$/);
  expect(await draftKeys(page)).toEqual([]);
  // Back from the new bet returns to the page the sheet was opened on.
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
  const fresh = await openBetSheet(page);
  await expect(fresh.getByLabel('Title')).toHaveValue('');
});

test('a bet draft whose closing time has passed comes back with the default one', async ({
  page,
  request,
}) => {
  const { group, sheet } = await signedInWithBetSheet(page, request, 'Kept from last week?');
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toHaveCount(0);
  // A week later: the draft's closing time is in the past.
  await page.evaluate((key) => {
    const draft = JSON.parse(localStorage.getItem(key)!) as { expiresAt: string };
    localStorage.setItem(key, JSON.stringify({ ...draft, expiresAt: '2020-01-01T18:00' }));
  }, `draft:${group.id}:bet`);
  const again = await openBetSheet(page);
  await expect(again.getByLabel('Title')).toHaveValue('Kept from last week?');
  await expect(again.getByLabel('Closes at')).not.toHaveValue(/^2020/);
  await expect(again.getByRole('button', { name: 'Next' })).toBeEnabled();
});

test('a half-written comment and a picked wager stay as drafts after Back, and sign-out removes them', async ({
  page,
  request,
}) => {
  const { owner, member, group } = await twoInAGroup(request, 'Drafts');
  const bet = await createBetViaApi(request, owner, {
    groupId: group.id,
    title: 'Rain later?',
    baseWagerAmount: 2,
  });
  await openSignedIn(page, member.person, '/dashboard');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.goto(`/bets/${bet.id}`);
  const card = page.getByRole('article', { name: 'Place your wager' });
  await card.getByRole('button', { name: /^No/ }).click();
  await card.getByRole('button', { name: '3x', exact: true }).click();
  await commentThread(page).getByLabel('Add a comment').fill('Bringing an umbrella');
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goForward();
  await expect(commentThread(page).getByLabel('Add a comment')).toHaveValue('Bringing an umbrella');
  await expect(card.getByText('Draft restored')).toBeVisible();
  await expect(card.getByRole('button', { name: /^No/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByRole('button', { name: '3x', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await shootIfAsked(page, 'draft-wager-comment-390', true);
  expect((await draftKeys(page)).sort()).toEqual([
    `draft:${group.id}:comment:${bet.id}`,
    `draft:${group.id}:wager:${bet.id}`,
  ]);
  // A sent comment's draft is gone.
  await commentThread(page).getByRole('button', { name: 'Send' }).click();
  await expect(commentThread(page).getByText('Bringing an umbrella')).toBeVisible();
  expect(await draftKeys(page)).toEqual([`draft:${group.id}:wager:${bet.id}`]);

  await page.goto('/profile');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await draftKeys(page)).toEqual([]);
});

test('a modal closed by Escape lets a page load or a reload made at once go through', async ({
  page,
  request,
}) => {
  // Closing used to take the modal's history entry off with a navigation of its own, which
  // cancelled a reload or a page load made right after it (net::ERR_ABORTED).
  const player = await registerPlayer(request);
  await openSignedIn(page, player.person, '/group');
  for (const leave of ['goto', 'reload', 'goto', 'reload'] as const) {
    await page.getByRole('banner').getByRole('button', { name: 'Join Group' }).click();
    await expect(page.getByRole('dialog', { name: 'Join a Group' })).toBeVisible();
    await page.keyboard.press('Escape');
    // At once, as a player's next tap would.
    await (leave === 'goto' ? page.goto('/group') : page.reload());
    await expect(page.getByRole('heading', { name: 'Join Your First Group!' })).toBeVisible();
  }
});

test('the X closes an empty bet sheet, and Back then leaves the page', async ({
  page,
  request,
}) => {
  const { member, group } = await twoInAGroup(request, 'Drafts');
  await openSignedIn(page, member.person, '/leaderboard');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.goto('/dashboard');
  await expect(activeGroupButton(page, group.name)).toBeVisible();
  // The empty Title keeps the focus: pressing the X used to blur it, its error grew the sheet
  // and the click missed the X.
  const sheet = await openBetSheet(page);
  await expect(sheet.getByLabel('Title')).toBeFocused();
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toHaveCount(0);
  // Its history entry is left for Back, which then leaves the page as if the sheet had never
  // been opened.
  await page.goBack();
  await expect(page).toHaveURL(/\/leaderboard$/);
});
