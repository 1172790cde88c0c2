import { expect } from '@playwright/test';
import { test } from './fixtures';
import { BET_LIMITS } from '../../src/domain/bet-limits';
import { isValidWagerPoints } from '../../src/domain/bets';
import { proportionalShare } from '../../src/domain/payout';

// The pages a visitor reads first show bets that could happen in the game: a wager of 1, 2 or
// 3 × a base the bet form offers, and the payout the pool would really give.

test('the landing example is a wager the game allows, paid as the pool pays', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/landing$/);
  const payout = page.getByText(
    /^Wager \d+ points \(\d× the base \d\) · If you win: about \d+ points$/,
  );
  await expect(payout).toBeVisible();
  const [, wager, multiplier, base, win] = (await payout.innerText())
    .match(/^Wager (\d+) points \((\d)× the base (\d)\) · If you win: about (\d+) points$/)!
    .map(Number);
  expect(BET_LIMITS.baseWagerTiers).toContain(base);
  expect(isValidWagerPoints(base!, wager!)).toBe(true);
  expect(wager).toBe(base! * multiplier!);
  // The odds on the chosen answer (rounded down to a tenth) are what the payout pays per point.
  const chosen = page.getByText(/^Yes×[\d.]+$/);
  const odds = Number(((await chosen.textContent()) ?? '').replace(/^Yes×/, ''));
  expect(win).toBeGreaterThanOrEqual(Math.floor(wager! * odds));
  expect(win).toBeLessThan(wager! * (odds + 0.1));
  await expect(page.getByText('Wager 12')).toHaveCount(0);

  await page.getByRole('link', { name: 'How it works' }).first().click();
  await expect(page).toHaveURL(/\/how-it-works$/);
  await expect(
    page.getByText(
      `say 60 points are in the pool and the winners wagered 20 of them. If 6 of those were yours (2× a base of 3), you get ${proportionalShare(60, 6, 20)} points back.`,
      { exact: false },
    ),
  ).toBeVisible();
});
