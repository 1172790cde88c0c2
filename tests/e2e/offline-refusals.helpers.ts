import { expect, type BrowserContext, type Page } from '@playwright/test';
import { createBetViaApi, resolveViaApi } from './bets.helpers';
import { signInWithServiceWorker, twoInAGroup, type Player } from './groups.helpers';

// A wager queued offline on a bet that closes meanwhile (offline-refusals.spec.ts and its
// screenshots).

export async function serverPoints(page: Page, player: Player, groupId: number): Promise<number> {
  const response = await page.request.get(`/api/groups/${groupId}/membership`, {
    headers: { Authorization: `Bearer ${player.token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { availablePoints: number }).availablePoints;
}

/**
 * Signed in as a member of a new group, on a bet of base 2 the owner made: the member wagers
 * 1x offline, the owner resolves the bet meanwhile, the network comes back.
 */
export async function wagerRefusedOffline(page: Page, context: BrowserContext, title: string) {
  const { owner, member, group } = await twoInAGroup(page.request, 'Pizza');
  const bet = await createBetViaApi(page.request, owner, {
    groupId: group.id,
    title,
    baseWagerAmount: 2,
  });
  await signInWithServiceWorker(page, member);
  await page.goto(`/bets/${bet.id}`);
  const card = page.getByRole('article', { name: 'Place your wager' });
  await expect(card.getByRole('button', { name: /^Yes/ })).toBeVisible();
  const before = await serverPoints(page, member, group.id);
  const header = page.getByTestId('header-available-points');
  await expect(header).toContainText(String(before));

  await context.setOffline(true);
  await card.getByRole('button', { name: /^Yes/ }).click();
  await card.getByRole('button', { name: '1x', exact: true }).click();
  await card.getByRole('button', { name: 'Submit Prediction' }).click();
  await expect(card.getByTestId('pending-badge')).toBeVisible();
  await expect(header).toContainText(String(before - 2));
  // Betting closes while this phone is offline.
  await resolveViaApi(page.request, owner, bet.id, 'yes');
  await context.setOffline(false);
  return { member, group, before, header };
}
