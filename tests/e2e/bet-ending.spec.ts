import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi, fairStepViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';

// How a bet ends, walked by players at phone size: settling while betting is open is a
// separate step that says what it does (on the bet page and in the dashboard's resolve queue),
// and the wager form offers only amounts the server accepts and keeps the pick when a write is
// refused anyway.

async function signInTo(page: Page, player: Awaited<ReturnType<typeof registerPlayer>>) {
  await page.goto('/login');
  await signIn(page, player.person);
  await page.waitForURL(/\/(dashboard|group)/);
}

test('settling a bet while betting is open is a deliberate step that says who it cuts off', async ({
  page,
  request,
}) => {
  const [creator, friend, other] = await Promise.all([
    registerPlayer(request),
    registerPlayer(request),
    registerPlayer(request),
  ]);
  const group = await createGroupViaApi(request, creator, { name: uniqueGroupName('Ending') });
  await joinViaApi(request, friend, group.name);
  await joinViaApi(request, other, group.name);
  const bet = await createBetViaApi(request, creator, {
    groupId: group.id,
    title: 'Will the ferry leave on time?',
    hours: 24,
  });
  await wagerViaApi(request, friend, bet.id, 'yes', 1);
  await wagerViaApi(request, other, bet.id, 'no', 1);

  await signInTo(page, creator);
  // The dashboard's resolve queue: the open bet says so and offers only the deliberate step.
  const queue = page.getByRole('region', { name: 'Your Resolve Queue' });
  const queued = queue.getByRole('article', { name: /^Resolve this bet/ });
  await expect(queued.getByText('Betting is still open')).toBeVisible();
  await expect(queued.getByRole('button', { name: 'Close betting now and settle' })).toBeVisible();
  await expect(queued.getByRole('button', { name: /^Yes/ })).toHaveCount(0);
  await expect(queued.getByRole('button', { name: 'Resolve Bet' })).toHaveCount(0);
  await expectAccessible(page, 'dashboard resolve queue, betting open');

  // The bet page: the same step, in a card of its own below the betting area.
  await page.goto(`/bets/${bet.id}`);
  const card = page.getByRole('article', { name: /^Resolve this bet/ });
  await expect(card.getByText('Betting is still open')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Resolve Bet' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Close betting now and settle' }).click();
  await expect(card.getByText(/Everyone is cut off/)).toBeVisible();
  await expect(card.getByText('2 people have picked.')).toBeVisible();
  await expectAccessible(page, 'close betting now confirmation');
  // Changing one's mind leaves betting open and the form hidden.
  await card.getByRole('button', { name: 'Keep betting open' }).click();
  await expect(card.getByRole('button', { name: 'Resolve Bet' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Close betting now and settle' }).click();
  await card.getByRole('button', { name: 'Yes, close betting' }).click();
  await card.getByRole('button', { name: /^Yes/ }).click();
  await card.getByRole('button', { name: 'Resolve Bet' }).click();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Bet resolved!')).toBeVisible();

  // Undone, the bet stays closed for good: the resolve area shows its form at once.
  await fairStepViaApi(request, creator, bet.id, 'undo-resolution');
  await page.reload();
  const again = page.getByRole('article', { name: /^Resolve this bet/ });
  await expect(again.getByRole('button', { name: 'Resolve Bet' })).toBeVisible();
  await expect(again.getByText('Betting is still open')).toHaveCount(0);
  await expectAccessible(page, 'resolve card, betting closed');
});

test('the wager form offers only amounts the server accepts and keeps the pick when refused', async ({
  page,
  request,
}) => {
  const [creator, friend] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
  const group = await createGroupViaApi(request, creator, {
    name: uniqueGroupName('Amounts'),
    defaultPoints: 10,
  });
  await joinViaApi(request, friend, group.name);
  const bet = await createBetViaApi(request, creator, {
    groupId: group.id,
    title: 'Will it snow before New Year?',
    baseWagerAmount: 3,
  });
  const elsewhere = await createBetViaApi(request, creator, {
    groupId: group.id,
    title: 'Will the bakery open on Sunday?',
  });

  await signInTo(page, friend);
  await page.goto(`/bets/${bet.id}`);
  const card = page.getByRole('article', { name: 'Place your wager' });
  const amounts = card.getByRole('group', { name: /Wager Amount:/ });
  await expect(amounts.getByRole('button')).toHaveText(['1x', '2x', '3x']);
  await expect(card.getByRole('button', { name: 'Custom amount' })).toHaveCount(0);

  await card.getByRole('button', { name: /^No/ }).click();
  await amounts.getByRole('button', { name: '3x' }).click();
  await expect(card.getByText(/If you win: about/)).toBeVisible();
  // Meanwhile the same player spends 2 of their 10 points on another device: 9 no longer fit.
  let hasSpent = false;
  // The app sends its writes through the push (src/server/sync): the wager is in this one.
  await page.route('**/api/sync/push', async (route) => {
    if (route.request().method() === 'POST' && !hasSpent) {
      hasSpent = true;
      await wagerViaApi(request, friend, elsewhere.id, 'yes', 2);
    }
    await route.continue();
  });
  await card.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /points/i })).toBeVisible();
  // The pick stays as it was, to change or send again.
  await expect(card.getByRole('button', { name: /^No/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(amounts.getByRole('button', { name: '3x' })).toHaveAttribute('aria-pressed', 'true');
  await page.unroute('**/api/sync/push');
  await amounts.getByRole('button', { name: '2x' }).click();
  await card.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(page.getByText('Wager Placed!')).toBeVisible();
  await expect(card.getByText('Your wager')).toBeVisible();
  await expectAccessible(page, 'wager form amounts');
});
