import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi, fairStepViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import {
  authHeaders,
  createGroupViaApi,
  joinViaApi,
  openAs,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';

// How a bet ends, in the player's words, at phone size: a result says what the player won, got
// back or lost (as the inbox does), a refund is named as one, a numeric bet's closest guesses are
// "Closest"; betting closed, a cancelled bet, a dispute and the top-up floor are each worded for
// the one looking.

async function threePlayers(request: Parameters<typeof registerPlayer>[0]) {
  const [ana, ben, cleo] = await Promise.all([
    registerPlayer(request),
    registerPlayer(request),
    registerPlayer(request),
  ]);
  const group = await createGroupViaApi(request, ana, { name: uniqueGroupName('Outcome') });
  await joinViaApi(request, ben, group.name);
  await joinViaApi(request, cleo, group.name);
  return { ana, ben, cleo, group };
}

const resultsBanner = (page: Page) => page.getByRole('status').filter({ hasText: 'Bet Resolved' });

test('a settled bet tells each player what they won or lost, on the bet page, its card and in the inbox', async ({
  browser,
  request,
}) => {
  const { ana, ben, cleo, group } = await threePlayers(request);
  const bet = await createBetViaApi(request, ana, {
    groupId: group.id,
    title: 'Will the ferry be late?',
    baseWagerAmount: 2,
  });
  await wagerViaApi(request, ben, bet.id, 'yes', 2);
  await wagerViaApi(request, cleo, bet.id, 'no', 6);
  await resolveViaApi(request, ana, bet.id, 'yes');

  const winner = await openAs(browser, ben, `/bets/${bet.id}`);
  await expect(resultsBanner(winner)).toBeVisible();
  await expect(winner.getByText('You won 8 points (+6)')).toBeVisible();
  await expectAccessible(winner, 'the bet page of a winner');

  const loser = await openAs(browser, cleo, `/bets/${bet.id}`);
  await expect(loser.getByText('You lost 6 points')).toBeVisible();
  // The group's resolved list says it on the card too, in the same words.
  await loser.goto(`/group/${group.id}`);
  await loser.getByRole('tab', { name: 'Resolved' }).click();
  await expect(loser.getByText('You lost 6 points')).toBeVisible();
  // And the inbox agrees, word for word.
  await loser.goto('/inbox');
  await expect(loser.getByText('You lost 6 points')).toBeVisible();
});

test('an answer on the over/under line refunds everyone and says so, with no trophy and no losers', async ({
  browser,
  request,
}) => {
  const { ana, ben, cleo, group } = await threePlayers(request);
  const bet = await createBetViaApi(request, ana, {
    groupId: group.id,
    title: 'Goals in the derby?',
    betType: 'over_under',
    betTypeConfig: { line: 3 },
    baseWagerAmount: 1,
  });
  await wagerViaApi(request, ben, bet.id, 'over', 3);
  await wagerViaApi(request, cleo, bet.id, 'under', 2);
  await resolveViaApi(request, ana, bet.id, '3');

  const page = await openAs(browser, cleo, `/bets/${bet.id}`);
  await expect(resultsBanner(page)).toContainText(
    'The answer landed exactly on the line, so everyone got their points back.',
  );
  await expect(page.getByText('You got your 2 points back')).toBeVisible();
  const breakdown = page
    .locator('section, div')
    .filter({ has: page.getByRole('heading', { name: 'Results Breakdown' }) })
    .last();
  await expect(breakdown).toContainText('Losers0');
  await expectAccessible(page, 'a refunded over/under bet');
});

test('nobody right: the refunded players are not losers; a numeric bet badges the closest guesses "Closest"', async ({
  browser,
  request,
}) => {
  const { ana, ben, cleo, group } = await threePlayers(request);
  const colours = await createBetViaApi(request, ana, {
    groupId: group.id,
    title: 'Which colour wins the relay?',
    betType: 'multiple_choice',
    betTypeConfig: { options: ['Red', 'Green', 'Blue'] },
  });
  await wagerViaApi(request, ben, colours.id, 'Red', 1);
  await resolveViaApi(request, ana, colours.id, 'Blue');
  const guess = await createBetViaApi(request, ana, {
    groupId: group.id,
    title: 'How many cakes at the party?',
    betType: 'numeric',
  });
  await wagerViaApi(request, ben, guess.id, '7', 1);
  await wagerViaApi(request, cleo, guess.id, '9', 1);
  await resolveViaApi(request, ana, guess.id, '8');
  const unplayed = await createBetViaApi(request, ana, {
    groupId: group.id,
    title: 'Will anyone bet on the weather?',
  });
  await resolveViaApi(request, ana, unplayed.id, 'yes');

  const page = await openAs(browser, ben, `/bets/${colours.id}`);
  await expect(resultsBanner(page)).toContainText(
    'Nobody picked the right answer, so everyone got their points back.',
  );
  await expect(page.getByText('You got your 1 point back')).toBeVisible();
  const breakdown = page
    .locator('div')
    .filter({ has: page.getByRole('heading', { name: 'Results Breakdown' }) })
    .last();
  await expect(breakdown).toContainText('Losers0');

  await page.goto(`/bets/${guess.id}`);
  await expect(page.getByText('You got your 1 point back')).toBeVisible();
  const picks = page.getByRole('region', { name: 'Who picked what' });
  await expect(picks.getByText('Closest', { exact: true })).toHaveCount(2);
  await expect(page.getByText('Correct', { exact: true })).toHaveCount(0);
  await expectAccessible(page, 'a numeric bet settled on the closest guesses');

  // Nobody wagered: the spec's "No Participants", and no refund nobody got.
  await page.goto(`/bets/${unplayed.id}`);
  await expect(page.getByRole('heading', { name: 'No Participants' })).toBeVisible();
  await expect(page.getByText("This bet hasn't received any wagers yet.")).toBeVisible();
  await expect(page.getByText(/everyone got their points back/)).toHaveCount(0);
});

test("a bet's page shows its group's points in the header; a number takes a decimal comma", async ({
  browser,
  request,
}) => {
  const { ana, ben, group } = await threePlayers(request);
  const other = await createGroupViaApi(request, ana, { name: uniqueGroupName('Elsewhere') });
  await joinViaApi(request, ben, other.name);
  const here = await createBetViaApi(request, ana, { groupId: group.id, title: 'Rain today?' });
  await wagerViaApi(request, ben, here.id, 'yes', 3);
  const there = await createBetViaApi(request, ana, {
    groupId: other.id,
    title: 'How many goals tonight?',
    betType: 'numeric',
  });

  // Whichever group is active, each bet's page shows its own group's points: 97 here, 100 there.
  const page = await openAs(browser, ben, `/bets/${here.id}`);
  const available = page.getByTestId('header-available-points');
  await expect(available).toHaveText(/^97\s*points/);
  await expect(page.getByRole('banner')).toContainText(group.name);
  await page.goto(`/bets/${there.id}`);
  await expect(available).toHaveText(/^100\s*points/);
  await expect(page.getByRole('banner')).toContainText(other.name);

  // "1,000" could be a thousand or one: it is asked again; "2,5" is 2.5.
  const guess = page.getByLabel('Your prediction');
  await guess.fill('1,000');
  await guess.blur();
  await expect(page.getByText('Please enter a valid number (use 2.5)')).toBeVisible();
  await guess.fill('2,5');
  await expect(page.getByText('Please enter a valid number (use 2.5)')).toHaveCount(0);
  await page.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(page.getByText('Wager Placed!')).toBeVisible();
  await expect(available).toHaveText(/^99\s*points/);
  // Stored and shown as the server keeps it.
  await expect(page.locator('main')).toContainText('2.5');
});

test('betting closed, a cancelled bet, a dispute and the top-up floor are each said in players’ words', async ({
  browser,
  request,
}) => {
  const { ana, ben, group } = await threePlayers(request);
  // Closes about 25 seconds from now: open long enough to wager, then the page watches it close.
  const closing = await createBetViaApi(request, ana, {
    groupId: group.id,
    title: 'Will the bus come on time?',
    hours: 25 / 3600,
  });
  await wagerViaApi(request, ben, closing.id, 'yes', 1);
  const page = await openAs(browser, ben, `/group/${group.id}`);
  const card = page.getByRole('listitem').filter({ hasText: 'Will the bus come on time?' });
  await expect(card.getByRole('link', { name: /^Place Bet/ })).toBeVisible();
  await expect(card.getByText('Expired', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(card.getByText('betting closed — waiting for the result')).toBeVisible();
  await expect(card.getByRole('link', { name: /^Place Bet/ })).toHaveCount(0);
  await card.getByRole('link', { name: /^View Bet/ }).click();
  await expect(page).toHaveURL(new RegExp(`/bets/${closing.id}$`));
  await expect(page.getByRole('heading', { name: 'Will the bus come on time?' })).toBeVisible();
  await expect(page.getByText('betting closed — waiting for the result')).toBeVisible();
  await expect(page.getByRole('button', { name: /Place Bet|Submit/ })).toHaveCount(0);
  await expectAccessible(page, 'a bet whose betting closed');

  const cancelled = await createBetViaApi(request, ana, {
    groupId: group.id,
    title: 'Picnic on Sunday?',
    baseWagerAmount: 2,
  });
  await wagerViaApi(request, ben, cancelled.id, 'no', 4);
  const cancel = await request.post(`/api/bets/${cancelled.id}/cancel`, {
    headers: await authHeaders(request, ana),
  });
  expect(cancel.status(), await cancel.text()).toBe(200);
  await page.goto(`/bets/${cancelled.id}`);
  await expect(page.getByText('This bet is currently cancelled.')).toBeVisible();
  await expect(page.getByText('Your 4 points came back')).toBeVisible();
  await expectAccessible(page, 'a cancelled bet');

  const disputed = await createBetViaApi(request, ana, {
    groupId: group.id,
    title: 'Did the shop open early?',
  });
  await wagerViaApi(request, ben, disputed.id, 'yes', 1);
  await resolveViaApi(request, ana, disputed.id, 'no');
  await fairStepViaApi(request, ben, disputed.id, 'dispute', 'It opened at eight');
  await page.goto(`/bets/${disputed.id}`);
  await expect(page.getByText('You think this result is wrong:')).toBeVisible();
  const admin = await openAs(browser, ana, `/bets/${disputed.id}`);
  await expect(
    admin.getByText(`${ben.person.displayName} thinks this result is wrong:`),
  ).toBeVisible();

  await admin.goto(`/group/${group.id}`);
  const settings = admin.getByRole('region', { name: 'Settings' });
  await expect(
    settings.getByText('Members with fewer than 3 points get topped up to 10 points once a week.'),
  ).toBeVisible();
  await expectAccessible(admin, 'the group page with its settings');
});
