import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Player } from './groups.helpers';

// Comments made through the API (fast), for specs that look at the thread rather than drive
// its form: the screenshot spec.

export async function commentViaApi(
  request: APIRequestContext,
  player: Player,
  betId: number,
  text: string,
) {
  const { cookies } = await request.storageState();
  const csrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  const response = await request.post(`/api/bets/${betId}/comments`, {
    headers: {
      Authorization: `Bearer ${player.token}`,
      ...(csrf ? { 'X-XSRF-TOKEN': decodeURIComponent(csrf) } : {}),
    },
    data: { text },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The bet page's comment thread. */
export function commentThread(page: Page) {
  return page.getByRole('region', { name: /^Comments/ });
}
