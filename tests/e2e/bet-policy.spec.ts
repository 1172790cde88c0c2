import { expect } from '@playwright/test';
import { test } from './fixtures';
import { mkdirSync } from 'node:fs';
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
import { SCREEN_SIZES } from './screens.helpers';

// One rulebook on screen: the server lets an admin resolve a bet once its creator has left, so
// the admin's resolve queue and the bet's page offer it at once (not only a day after the
// close), and a plain member is offered nothing to settle.

const SHOTS = '/tmp/shots/h7-bet-policy';

test('an admin settles the bet of a creator who left, from the resolve queue and the bet page', async ({
  browser,
  request,
}) => {
  const [admin, leaver, member] = await Promise.all([
    registerPlayer(request),
    registerPlayer(request),
    registerPlayer(request),
  ]);
  const group = await createGroupViaApi(request, admin, { name: uniqueGroupName('Rulebook') });
  await joinViaApi(request, leaver, group.name);
  await joinViaApi(request, member, group.name);
  const title = 'Will the ferry run on time?';
  const bet = await createBetViaApi(request, leaver, { groupId: group.id, title });
  await wagerViaApi(request, member, bet.id, 'yes', 1);
  const left = await request.post(`/api/groups/${group.id}/leave`, {
    headers: await authHeaders(request, leaver),
  });
  expect(left.status(), await left.text()).toBe(200);

  // A plain member has nothing to settle: the page offers them no resolve card.
  const memberPage = await openAs(browser, member, `/bets/${bet.id}`);
  // The first open reads the whole mirror: on a busy machine that takes a while.
  await expect(memberPage.getByRole('heading', { name: title })).toBeVisible({ timeout: 30_000 });
  await expect(memberPage.getByRole('article', { name: 'Place your wager' })).toBeVisible();
  await expect(memberPage.getByRole('article', { name: /^Resolve this bet/ })).toHaveCount(0);
  await memberPage.context().close();

  const page = await openAs(browser, admin, '/dashboard');
  const queued = page.getByRole('article', { name: `Resolve this bet: ${title}` });
  await expect(queued).toBeVisible({ timeout: 30_000 });
  await expect(queued.getByRole('button', { name: 'Close betting now and settle' })).toBeVisible();

  await page.goto(`/bets/${bet.id}`);
  const card = page.getByRole('article', { name: /^Resolve this bet/ });
  await expect(card).toBeVisible();
  await expectAccessible(page, 'the bet page of a creator who left');
  mkdirSync(SHOTS, { recursive: true });
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/admin-bet-page-${size.name}.png`, fullPage: true });
  }
  await page.setViewportSize(SCREEN_SIZES[0]);
  await closeBettingNow(card);
  await card.getByRole('button', { name: /^Yes/ }).click();
  await card.getByRole('button', { name: 'Resolve Bet' }).click();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Bet resolved!')).toBeVisible();
  await page.context().close();
});
