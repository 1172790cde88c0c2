import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import {
  authHeaders,
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots of how bets end, for a person to look at (not compared): a win, a refund on the
// over/under line, a numeric bet's closest guesses, a bet whose betting closed, a cancelled bet,
// the group's lists and settings, at the phone reference (390×844) and a desktop (1280×800).
// Opt-in like screens.spec.ts: HUNCH_SCREENSHOTS=1 npx playwright test screens-outcomes.

for (const size of SCREEN_SIZES) {
  test(`bet outcome screens at ${size.name}`, async ({ browser, request }) => {
    const [host, sam, alex] = await Promise.all([
      registerPlayer(request),
      registerPlayer(request),
      registerPlayer(request),
    ]);
    const group = await createGroupViaApi(request, host, { name: uniqueGroupName('Ferry Crew') });
    await joinViaApi(request, sam, group.name);
    await joinViaApi(request, alex, group.name);
    const won = await createBetViaApi(request, host, {
      groupId: group.id,
      title: 'Will the ferry be late?',
      baseWagerAmount: 2,
    });
    await wagerViaApi(request, sam, won.id, 'yes', 2);
    await wagerViaApi(request, alex, won.id, 'no', 6);
    await resolveViaApi(request, host, won.id, 'yes');
    const push = await createBetViaApi(request, host, {
      groupId: group.id,
      title: 'Goals in the derby?',
      betType: 'over_under',
      betTypeConfig: { line: 3 },
    });
    await wagerViaApi(request, sam, push.id, 'over', 3);
    await wagerViaApi(request, alex, push.id, 'under', 2);
    await resolveViaApi(request, host, push.id, '3');
    const guess = await createBetViaApi(request, host, {
      groupId: group.id,
      title: 'How many cakes at the party?',
      betType: 'numeric',
    });
    await wagerViaApi(request, sam, guess.id, '7', 1);
    await wagerViaApi(request, alex, guess.id, '9', 1);
    await resolveViaApi(request, host, guess.id, '8');
    const closing = await createBetViaApi(request, host, {
      groupId: group.id,
      title: 'Will the bus come on time?',
      hours: 8 / 3600,
    });
    await wagerViaApi(request, sam, closing.id, 'no', 1);
    const cancelled = await createBetViaApi(request, host, {
      groupId: group.id,
      title: 'Picnic on Sunday?',
      baseWagerAmount: 2,
    });
    await wagerViaApi(request, sam, cancelled.id, 'no', 4);
    const cancel = await request.post(`/api/bets/${cancelled.id}/cancel`, {
      headers: await authHeaders(request, host),
    });
    expect(cancel.status()).toBe(200);

    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
    });
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, sam.person, { rememberMe: true });
    await page.waitForURL(/\/(dashboard|group)/);
    await page.goto(`/bets/${won.id}`);
    await expect(page.getByText('You won 8 points (+6)')).toBeVisible();
    await shoot(page, `outcome-won-${size.name}`, true);
    await page.goto(`/bets/${push.id}`);
    await expect(page.getByText('You got your 3 points back')).toBeVisible();
    await shoot(page, `outcome-push-${size.name}`, true);
    await page.goto(`/bets/${guess.id}`);
    await expect(page.getByText('Closest').first()).toBeVisible();
    await shoot(page, `outcome-closest-${size.name}`, true);
    await page.goto(`/bets/${closing.id}`);
    await expect(page.getByText('Expired', { exact: true })).toBeVisible({ timeout: 60_000 });
    await shoot(page, `outcome-closed-${size.name}`);
    await page.goto(`/bets/${cancelled.id}`);
    await expect(page.getByText('This bet is currently cancelled.')).toBeVisible();
    await shoot(page, `outcome-cancelled-${size.name}`);
    await page.goto(`/group/${group.id}`);
    await page.getByRole('tab', { name: 'Resolved' }).click();
    await shoot(page, `outcome-group-resolved-${size.name}`, true);
    await context.close();
  });
}
