import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { authHeaders, type Player } from './groups.helpers';
import { LOOKED_AT_SIZES, shootIfAsked } from './screens.helpers';

// The tipping rounds' specs' shared steps: a score tip through the API, and a round screen's
// screenshots at the three looked-at widths, light and dark (with HUNCH_SCREENSHOTS=1).

/** `player` tips `tip` ("2-1", home–away) on the match's bet, through the wager call. */
export async function tipViaApi(
  request: APIRequestContext,
  player: Player,
  betId: number,
  tip: string,
) {
  const response = await request.post('/api/bets/wagers', {
    headers: await authHeaders(request, player),
    data: { betId, prediction: tip, points: 0 },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** `rounds-<name>-<width>-<scheme>.png` at each looked-at size, light then dark; back to the phone. */
export async function shootRoundScreen(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const size of LOOKED_AT_SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await shootIfAsked(page, `rounds-${name}-${size.name}-${colorScheme}`, true);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
}
