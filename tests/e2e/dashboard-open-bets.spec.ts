import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi } from './bets.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  openAs,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';
import { SCREEN_SIZES, shootIfAsked } from './screens.helpers';

// Issue #24, "the dashboard hides what is open", at phone size: beside the spec's two queues
// the dashboard lists every bet still open across the player's groups, soonest close first,
// each card naming its group and opening its bet; a wager from the queue leaves the others
// listed; a bet started meanwhile shows up by itself; with nothing open it says so.

function openList(page: Page) {
  return page.getByRole('list', { name: 'Open in your groups' });
}

/** With HUNCH_SCREENSHOTS, the dashboard as it is now at phone and desktop size. */
async function shootBothIfAsked(page: Page, name: string) {
  if (!process.env.HUNCH_SCREENSHOTS) return;
  for (const size of [...SCREEN_SIZES].reverse()) {
    await page.setViewportSize(size);
    await shootIfAsked(page, `${name}-${size.name}`, true);
  }
}

async function expectListed(page: Page, rows: { title: string; group: string }[]) {
  const cards = openList(page).getByRole('listitem');
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText(rows.map((row) => row.title));
  for (const [index, row] of rows.entries())
    await expect(cards.nth(index)).toContainText(row.group);
}

test('a player in two groups sees every open bet, soonest first, wagers from the queue and opens one by its card', async ({
  browser,
  request,
}) => {
  const ana = await registerPlayer(request);
  const bob = await registerPlayer(request);
  const me = await registerPlayer(request);
  const crew = await createGroupViaApi(request, ana, { name: uniqueGroupName('Thursday Crew') });
  const office = await createGroupViaApi(request, bob, { name: uniqueGroupName('Office') });
  await joinViaApi(request, me, crew.name);
  await joinViaApi(request, me, office.name);
  const rain = { title: 'Will it rain on Saturday?', group: crew.name };
  const quiz = { title: 'Who wins the quiz?', group: office.name };
  const pizza = { title: 'Pizza on Friday?', group: crew.name };
  await createBetViaApi(request, ana, { groupId: crew.id, title: pizza.title, hours: 20 });
  await createBetViaApi(request, ana, { groupId: crew.id, title: rain.title, hours: 3 });
  await createBetViaApi(request, bob, { groupId: office.id, title: quiz.title, hours: 8 });

  const page = await openAs(browser, me, '/dashboard');
  await expect(page.getByRole('heading', { name: 'Your Bet Queue' })).toBeVisible();
  await expectListed(page, [rain, quiz, pizza]);
  await expectAccessible(page, 'the dashboard with open bets');
  await shootBothIfAsked(page, 'dashboard-open-bets');

  // One tab stop per card: each card is one link to its bet.
  const cards = openList(page).getByRole('listitem');
  for (const index of [0, 1, 2])
    await expect(cards.nth(index).locator('a, button, input, [tabindex]')).toHaveCount(1);
  await cards.nth(0).getByRole('link').focus();
  await page.keyboard.press('Tab');
  await expect(cards.nth(1).getByRole('link')).toBeFocused();

  // The wager from the queue: the queue moves on, the list keeps every open bet.
  const queued = page.getByRole('article', { name: rain.title });
  await queued.getByRole('button', { name: /^Yes/ }).click();
  await queued.getByRole('button', { name: '2x', exact: true }).click();
  await queued.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(page.getByText('Wager Placed!').last()).toBeVisible();
  await expect(page.getByRole('article', { name: quiz.title })).toBeVisible();
  await expect(page.getByText('No active bets in your groups')).toHaveCount(0);
  await expectListed(page, [rain, quiz, pizza]);
  await expect(cards.nth(0)).toContainText('Yours: Yes');
  await shootBothIfAsked(page, 'dashboard-open-bets-after-wager');

  // A bet started meanwhile shows up by itself, in its place.
  const soon = { title: 'Coffee before nine?', group: office.name };
  await createBetViaApi(request, bob, { groupId: office.id, title: soon.title, hours: 1 });
  await expectListed(page, [soon, rain, quiz, pizza]);

  // The card opens its bet: a tap on the card itself, not only on its link.
  const pizzaCard = cards.filter({ hasText: pizza.title });
  const pizzaLink = await pizzaCard.getByRole('link').getAttribute('href');
  await pizzaCard.click();
  await expect(page).toHaveURL(new RegExp(`${pizzaLink}$`));
  await expect(page.getByRole('heading', { name: 'Bet Details', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: pizza.title })).toBeVisible();
  await page.context().close();
});

test('with nothing open in their groups, the dashboard says so beside the empty queue', async ({
  browser,
  request,
}) => {
  const ana = await registerPlayer(request);
  const me = await registerPlayer(request);
  const crew = await createGroupViaApi(request, ana, { name: uniqueGroupName('Quiet Crew') });
  await joinViaApi(request, me, crew.name);

  const page = await openAs(browser, me, '/dashboard');
  await expect(page.getByText('No active bets in your groups')).toBeVisible();
  await expect(page.getByText('Start one and see who agrees with you.')).toBeVisible();
  await expect(
    page.getByText('Nothing is open for betting in your groups right now.'),
  ).toBeVisible();
  await expect(openList(page)).toHaveCount(0);
  await expectAccessible(page, 'the dashboard with nothing open');
  await shootBothIfAsked(page, 'dashboard-open-bets-empty');
  await page.context().close();
});

test('a player with more open bets than the dashboard draws sees the soonest first and more on request', async ({
  browser,
  request,
}) => {
  const ana = await registerPlayer(request);
  const me = await registerPlayer(request);
  const crew = await createGroupViaApi(request, ana, { name: uniqueGroupName('Busy Crew') });
  await joinViaApi(request, me, crew.name);
  const titles = Array.from({ length: 23 }, (_, index) => `Open bet number ${index + 1}`);
  for (const [index, title] of titles.entries())
    await createBetViaApi(request, ana, { groupId: crew.id, title, hours: index + 1 });

  const page = await openAs(browser, me, '/dashboard');
  const headings = openList(page).getByRole('heading', { level: 3 });
  await expect(headings).toHaveText(titles.slice(0, 20));
  await expectAccessible(page, 'the dashboard with more open bets than it draws');
  await shootBothIfAsked(page, 'dashboard-open-bets-show-more');

  await page.getByRole('button', { name: 'Show 3 more' }).click();
  await expect(headings).toHaveText(titles);
  await expect(page.getByRole('button', { name: /^Show \d+ more$/ })).toHaveCount(0);
});
