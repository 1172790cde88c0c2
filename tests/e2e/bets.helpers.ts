import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { Player } from './groups.helpers';

// Bets made through the API (fast), for specs that look at bet screens rather than drive
// their creation: the screenshot and accessibility specs.

async function headers(request: APIRequestContext, player: Player) {
  const { cookies } = await request.storageState();
  const csrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  return {
    Authorization: `Bearer ${player.token}`,
    ...(csrf ? { 'X-XSRF-TOKEN': decodeURIComponent(csrf) } : {}),
  };
}

export async function createBetViaApi(
  request: APIRequestContext,
  player: Player,
  bet: {
    groupId: number;
    title: string;
    description?: string;
    betType?: string;
    betTypeConfig?: Record<string, unknown>;
    baseWagerAmount?: number;
    hours?: number;
    repeat?: { every: 'day' | 'week' | 'month'; until?: string };
  },
): Promise<{ id: number }> {
  const { hours = 30, ...rest } = bet;
  const response = await request.post('/api/bets', {
    headers: await headers(request, player),
    data: {
      betType: 'yes_no',
      betTypeConfig: {},
      baseWagerAmount: 1,
      expiresAt: new Date(Date.now() + hours * 3_600_000).toISOString(),
      ...rest,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number };
}

export async function wagerViaApi(
  request: APIRequestContext,
  player: Player,
  betId: number,
  prediction: string,
  points: number,
) {
  const response = await request.post('/api/bets/wagers', {
    headers: await headers(request, player),
    data: { betId, prediction, points },
  });
  expect(response.status(), await response.text()).toBe(201);
}

export async function resolveViaApi(
  request: APIRequestContext,
  player: Player,
  betId: number,
  correctAnswer: string,
) {
  const response = await request.put(`/api/bets/${betId}/resolve`, {
    headers: await headers(request, player),
    data: { correctAnswer },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * On the resolve card of a bet still open for betting: the deliberate step that settles it
 * early ("Close betting now and settle", then its confirmation), after which the answer shows.
 */
export async function closeBettingNow(card: Locator) {
  await card.getByRole('button', { name: 'Close betting now and settle' }).click();
  await card.getByRole('button', { name: 'Yes, close betting' }).click();
}

/** A group of three with an open bet to wager on, one to resolve and one resolved, seen by `me`. */
export async function seedBetTable(
  request: APIRequestContext,
  players: { me: Player; friend: Player; other: Player },
  groupId: number,
) {
  const { me, friend, other } = players;
  const open = await createBetViaApi(request, friend, {
    groupId,
    title: 'Will it rain on Saturday?',
    description: 'Anywhere in town counts.',
    betTypeConfig: { yesLabel: 'Rain', noLabel: 'Sun' },
    baseWagerAmount: 2,
  });
  await wagerViaApi(request, friend, open.id, 'yes', 6);
  await wagerViaApi(request, other, open.id, 'no', 2);
  const toResolve = await createBetViaApi(request, me, {
    groupId,
    title: 'Who wins the quiz?',
    betType: 'multiple_choice',
    betTypeConfig: { options: ['Sam', 'Alex', 'Robin'] },
    hours: 5,
  });
  await wagerViaApi(request, friend, toResolve.id, 'Alex', 2);
  const resolved = await createBetViaApi(request, me, {
    groupId,
    title: 'Cups of coffee today?',
    betType: 'over_under',
    betTypeConfig: { line: 2.5 },
    baseWagerAmount: 3,
  });
  await wagerViaApi(request, me, resolved.id, 'over', 6);
  await wagerViaApi(request, friend, resolved.id, 'under', 3);
  await wagerViaApi(request, other, resolved.id, 'over', 9);
  await resolveViaApi(request, me, resolved.id, '4');
  return { open, toResolve, resolved };
}

/** A step of fair resolution as `player`: undo their resolution, dispute one (with a reason), or dismiss a dispute (an admin). */
export async function fairStepViaApi(
  request: APIRequestContext,
  player: Player,
  betId: number,
  step: 'undo-resolution' | 'dispute' | 'dispute/dismiss',
  reason?: string,
) {
  const response = await request.post(`/api/bets/${betId}/${step}`, {
    headers: await headers(request, player),
    ...(reason ? { data: { reason } } : {}),
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** The bet sheet, opened from the main navigation's Bet button. */
export async function openBetSheet(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Bet' }).click();
  const sheet = page.getByRole('dialog', { name: 'Create a Bet' });
  await expect(sheet.getByLabel('Title')).toBeVisible();
  return sheet;
}
