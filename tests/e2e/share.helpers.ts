import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './accounts.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
  type Player,
} from './groups.helpers';

// What the share specs set up: a yes/no bet (base 2) in a public group of two, the winner on
// Yes and the loser on No, resolved Yes by the winner; and the winner's bet page, signed in.

export async function resolvedBetOfTwo(
  request: APIRequestContext,
  bet: { title: string; group: string; winnerStake: number; loserStake: number },
) {
  const [winner, loser] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
  const group = await createGroupViaApi(request, winner, { name: uniqueGroupName(bet.group) });
  await joinViaApi(request, loser, group.name);
  const made = await createBetViaApi(request, winner, {
    groupId: group.id,
    title: bet.title,
    baseWagerAmount: 2,
  });
  await wagerViaApi(request, winner, made.id, 'yes', bet.winnerStake);
  await wagerViaApi(request, loser, made.id, 'no', bet.loserStake);
  await resolveViaApi(request, winner, made.id, 'yes');
  return { winner, loser, group, bet: made };
}

/** `player` signs in on `page` and opens their resolved bet. */
export async function openResolvedBet(page: Page, player: Player, betId: number) {
  await page.goto('/login');
  await signIn(page, player.person);
  await page.waitForURL(/\/(dashboard|group)/);
  await page.goto(`/bets/${betId}`);
  await expect(page.getByText('Bet Resolved')).toBeVisible();
}
