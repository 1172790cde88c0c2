import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, fairStepViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots of how a bet ends, for a person to look at (not compared): the resolve queue and
// the bet page while betting is open (only "Close betting now and settle"), its confirmation,
// the resolve card once betting closed, and the wager form's amounts, at the phone reference
// and a desktop, in .tmp/screens/. Opt-in: HUNCH_SCREENSHOTS=1 npx playwright test screens-bet-ending.

for (const size of SCREEN_SIZES) {
  test(`bet ending screens at ${size.name}`, async ({ browser, page, request }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const [host, sam] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
    const group = await createGroupViaApi(request, host, { name: uniqueGroupName('Ferry') });
    await joinViaApi(request, sam, group.name);
    const open = await createBetViaApi(request, host, {
      groupId: group.id,
      title: 'Will the ferry leave on time?',
      baseWagerAmount: 2,
      hours: 24,
    });
    await wagerViaApi(request, sam, open.id, 'yes', 4);
    const closed = await createBetViaApi(request, host, {
      groupId: group.id,
      title: 'Will the bakery open on Sunday?',
      hours: 48,
    });
    await wagerViaApi(request, sam, closed.id, 'no', 1);
    // Resolved and undone: closed for good, waiting for its result.
    await resolveViaApi(request, host, closed.id, 'no');
    await fairStepViaApi(request, host, closed.id, 'undo-resolution');

    await page.goto('/login');
    await signIn(page, host.person);
    const queue = page.getByRole('region', { name: 'Your Resolve Queue' });
    await expect(queue.getByText('Betting is still open')).toBeVisible();
    await shoot(page, `${size.name}-bet-ending-queue-open`, true);

    await page.goto(`/bets/${open.id}`);
    const card = page.getByRole('article', { name: /^Resolve this bet/ });
    await expect(card.getByText('Betting is still open')).toBeVisible();
    await shoot(page, `${size.name}-bet-ending-page-open`, true);
    await card.getByRole('button', { name: 'Close betting now and settle' }).click();
    await expect(card.getByText('1 person has picked.')).toBeVisible();
    await shoot(page, `${size.name}-bet-ending-close-confirm`, true);

    await page.goto(`/bets/${closed.id}`);
    await expect(
      page.getByRole('article', { name: /^Resolve this bet/ }).getByRole('button', {
        name: 'Resolve Bet',
      }),
    ).toBeVisible();
    await shoot(page, `${size.name}-bet-ending-page-closed`, true);

    const samContext = await browser.newContext({
      viewport: { width: size.width, height: size.height },
    });
    const samPage = await samContext.newPage();
    await samPage.goto('/login');
    await signIn(samPage, sam.person);
    await samPage.waitForURL(/\/(dashboard|group)/);
    await samPage.goto(`/bets/${open.id}`);
    const wager = samPage.getByRole('article', { name: 'Place your wager' });
    await wager.getByRole('button', { name: 'Change' }).click();
    await wager.getByRole('button', { name: '3x', exact: true }).click();
    await expect(wager.getByText(/If you win: about/)).toBeVisible();
    await shoot(samPage, `${size.name}-bet-ending-wager-amounts`, true);
    await samContext.close();
  });
}
