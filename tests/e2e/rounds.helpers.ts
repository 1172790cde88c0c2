import { expect, type APIRequestContext } from '@playwright/test';
import { authHeaders, type Player } from './groups.helpers';

// The tipping rounds' specs' shared steps: a score tip through the API.

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
