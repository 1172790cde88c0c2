import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { expectAccessible } from './axe.helpers';
import { closeBettingNow, createBetViaApi, wagerViaApi } from './bets.helpers';
import {
  authHeaders,
  createGroupViaApi,
  joinViaApi,
  openAs,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';

// Fair resolution with two players in two browser contexts: who picked what shows once betting
// closes; the creator undoes a resolution and both headers show the points from before; a
// participant disputes a result and an admin without a stake in it corrects it.

/** The header's available points (the number next to the coin). */
const headerPoints = (page: Page, points: number) =>
  page.getByRole('banner').locator('span', { hasText: new RegExp(`^${points}$`) });

/** The creator resolves on the bet page's resolve card. */
async function resolveAs(page: Page, answer: string) {
  const card = page.getByRole('article', { name: /^Resolve this bet/ });
  // Its betting is still open: settling closes it first, on purpose.
  await closeBettingNow(card);
  await card.getByRole('button', { name: new RegExp(`^${answer}`) }).click();
  await card.getByRole('button', { name: 'Resolve Bet' }).click();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Bet resolved!')).toBeVisible();
}

async function twoPlayers(request: Parameters<typeof registerPlayer>[0], hours = 30) {
  const [creator, friend] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
  const group = await createGroupViaApi(request, creator, { name: uniqueGroupName('Fair') });
  await joinViaApi(request, friend, group.name);
  const bet = await createBetViaApi(request, creator, {
    groupId: group.id,
    title: 'Will the band play an encore?',
    baseWagerAmount: 2,
    hours,
  });
  await wagerViaApi(request, creator, bet.id, 'yes', 2);
  await wagerViaApi(request, friend, bet.id, 'no', 6);
  return { creator, friend, group, bet };
}

test('picks stay hidden while betting is open and show for everyone once it closes', async ({
  browser,
  request,
}) => {
  // Closes about 25 seconds from now: time enough to open the page while it is open, also on a
  // busy machine (8 seconds was not).
  const { creator, friend, bet } = await twoPlayers(request, 25 / 3600);
  const page = await openAs(browser, friend, `/bets/${bet.id}`);
  await expect(page.getByText('Picks are revealed when betting closes.')).toBeVisible();
  const picks = page.getByRole('region', { name: 'Who picked what' });
  await expect(picks).toBeVisible({ timeout: 60_000 });
  // The pick line itself (the answer's item holds it too): the name, 2 points, 1× the base.
  const pick = picks.getByRole('listitem').filter({ hasText: creator.person.displayName }).last();
  await expect(pick).toContainText('2');
  await expect(pick).toContainText('1×');
  await expect(picks).toContainText('Yes');
  await expect(picks).toContainText('No');
  await expectAccessible(page, 'who picked what');
  await page.context().close();
});

test('the creator undoes a resolution: both headers show the points from before', async ({
  browser,
  request,
}) => {
  const { creator, friend, bet } = await twoPlayers(request);
  const path = `/bets/${bet.id}`;
  const [mine, theirs] = await Promise.all([
    openAs(browser, creator, path),
    openAs(browser, friend, path),
  ]);
  await expect(headerPoints(mine, 98)).toBeVisible();
  await expect(headerPoints(theirs, 94)).toBeVisible();

  // Resolved Yes by mistake: the creator takes the pool of 8.
  await resolveAs(mine, 'Yes');
  await expect(headerPoints(mine, 106)).toBeVisible();
  await expect(headerPoints(theirs, 94)).toBeVisible();

  const review = mine.getByRole('article', { name: 'About this result' });
  await expect(review.getByText(/You can undo this result for \d+:\d\d\./)).toBeVisible();
  await expectAccessible(mine, 'the undo window');
  await review.getByRole('button', { name: 'Undo result' }).click();
  const confirm = mine.getByRole('dialog', { name: 'Undo this result?' });
  // The friend is told in a toast, which goes after a few seconds: watched from before the
  // undo, so a busy machine that shows it before the creator's header moves cannot miss it.
  const friendTold = expect(
    theirs.getByText(/was undone\. Your points are back as they were\./),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'Undo result' }).click();

  await expect(headerPoints(mine, 98)).toBeVisible();
  await expect(headerPoints(theirs, 94)).toBeVisible();
  await friendTold;
  const history = theirs.getByRole('region', { name: 'History' });
  await expect(history).toContainText('Result undone by');
  // Everyone saw the picks: the bet waits for its result and takes no wager, nor a change.
  await expect(theirs.getByText('Closed', { exact: true })).toBeVisible();
  await expect(theirs.getByRole('button', { name: 'Change', exact: true })).toHaveCount(0);
  await mine.context().close();
  await theirs.context().close();
});

test('a participant disputes a result and an admin without a stake corrects it', async ({
  browser,
  request,
}) => {
  const { creator, friend, group, bet } = await twoPlayers(request);
  // The creator wagered, so they may not judge the dispute: a referee, an admin who did not, does.
  const referee = await registerPlayer(request);
  await joinViaApi(request, referee, group.name);
  const promoted = await request.post(`/api/groups/${group.id}/admins`, {
    headers: await authHeaders(request, creator),
    data: { userId: referee.id },
  });
  expect(promoted.status(), await promoted.text()).toBe(200);
  const path = `/bets/${bet.id}`;
  const [mine, theirs] = await Promise.all([
    openAs(browser, creator, path),
    openAs(browser, friend, path),
  ]);
  await resolveAs(mine, 'Yes');
  await expect(headerPoints(theirs, 94)).toBeVisible();

  // The friend disputes it through the sheet.
  await theirs.getByRole('button', { name: 'Dispute result' }).click();
  const sheet = theirs.getByRole('dialog', { name: 'Dispute this result' });
  await expect(sheet).toBeVisible();
  // It names who will decide: the one the server lets judge (the admin without a stake).
  const judge = referee.person.displayName;
  await expect(sheet).toContainText(
    `Think the result is wrong? Say why: ${judge} will correct it or let it stand.`,
  );
  await expectAccessible(theirs, 'the dispute sheet');
  await sheet.getByLabel("What's wrong?").fill('No encore: they left at ten.');
  await sheet.getByRole('button', { name: 'Send dispute' }).click();
  await expect(theirs.getByText(`Dispute sent. ${judge} will take a look.`)).toBeVisible();
  await expect(theirs.getByTestId('dispute-judges')).toHaveText(
    `${judge} will correct it or let it stand. Points stay as they are until then.`,
  );

  // The creator, an admin with a stake, sees it live but is offered no way to judge it.
  await expect(mine.getByText(/thinks the result of .* is wrong\. Take a look\./)).toBeVisible();
  const seen = mine.getByRole('article', { name: 'About this result' });
  await expect(seen).toContainText('No encore: they left at ten.');
  await expect(seen.getByRole('button', { name: 'Correct the result' })).toHaveCount(0);
  await expect(seen.getByTestId('dispute-judges')).toContainText(`${judge} will correct it`);
  await mine.context().close();

  // The referee corrects it to No.
  const refereePage = await openAs(browser, referee, path);
  const dispute = refereePage.getByRole('article', { name: 'About this result' });
  await expect(dispute).toContainText('No encore: they left at ten.');
  await dispute.getByRole('button', { name: 'Correct the result' }).click();
  await dispute.getByRole('button', { name: /^No/ }).click();
  await dispute.getByRole('button', { name: /Re-resolve as “No”/ }).click();

  // The friend now takes the pool of 8: 100 − 6 + 8.
  await expect(headerPoints(theirs, 102)).toBeVisible();
  await expect(
    theirs.getByText('This result was reviewed by an admin and is final.'),
  ).toBeVisible();
  await expect(theirs.getByRole('region', { name: 'History' })).toContainText(
    'Re-resolved as “No”',
  );
  await refereePage.context().close();
  await theirs.context().close();
});
