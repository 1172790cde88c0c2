import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { newPerson, openSignedIn, signIn, type Person } from './accounts.helpers';

// Factories for the group specs: a registered person with an access token, and groups
// created through the API (fast), so each spec drives only the screens under test.

export interface Player {
  person: Person;
  token: string;
  id: number;
}

/** The request context keeps the XSRF-TOKEN cookie the server set, so non-GET calls send it back. */
async function csrfHeader(request: APIRequestContext): Promise<Record<string, string>> {
  const { cookies } = await request.storageState();
  const csrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  return csrf ? { 'X-XSRF-TOKEN': decodeURIComponent(csrf) } : {};
}

export async function authHeaders(request: APIRequestContext, player: Player) {
  return { Authorization: `Bearer ${player.token}`, ...(await csrfHeader(request)) };
}

export async function registerPlayer(
  request: APIRequestContext,
  person: Person = newPerson(),
): Promise<Player> {
  const response = await request.post('/auth/register', {
    headers: await csrfHeader(request),
    data: { ...person, passwordConfirm: person.password, appName: 'hunch', isTemporary: false },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { accessToken: string; user: { id: number } };
  return { person, token: body.accessToken, id: body.user.id };
}

export interface CreatedGroup {
  id: number;
  name: string;
  inviteCode?: string;
}

export async function createGroupViaApi(
  request: APIRequestContext,
  player: Player,
  group: {
    name: string;
    privacy?: 'public' | 'private';
    inviteCode?: string;
    description?: string;
    defaultPoints?: number;
  },
): Promise<CreatedGroup> {
  const response = await request.post('/api/groups', {
    headers: await authHeaders(request, player),
    data: { privacy: 'public', defaultPoints: 100, ...group },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CreatedGroup;
}

export async function joinViaApi(request: APIRequestContext, player: Player, groupName: string) {
  const response = await request.post('/api/groups/join-public', {
    headers: await authHeaders(request, player),
    data: { groupName },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export async function joinPrivateViaApi(
  request: APIRequestContext,
  player: Player,
  groupId: number,
  inviteCode: string,
) {
  const response = await request.post('/api/groups/join-private', {
    headers: await authHeaders(request, player),
    data: { groupId, inviteCode },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A group name no other test run will have picked. */
export function uniqueGroupName(prefix: string) {
  return `${prefix} ${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e4)}`;
}

/** The header's active-group button (its name, which opens the group selector). */
export function activeGroupButton(page: Page, name: string) {
  return page
    .getByRole('banner')
    .getByRole('button', { name: `Active group: ${name}. Change group` });
}

/**
 * After a join, a device without push gets the "Enable group updates" prompt (docs/groups-and-bets.md §4);
 * specs about something else answer it with "Not now".
 */
export async function declinePushPrompt(page: Page) {
  const prompt = page.getByRole('dialog', { name: 'Enable group updates' });
  await prompt.getByRole('button', { name: 'Not now' }).click();
  await expect(prompt).toHaveCount(0);
}

/** A browser context of its own, signed in as `player` (remembered), opened at `path`. */
export async function openAs(browser: Browser, player: Player, path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openSignedIn(page, player.person, path);
  return page;
}

/**
 * Signed in as `player` (remembered) through the form, with the service worker in control: for
 * the specs about offline play (their `test.use({ serviceWorkers: 'allow' })`).
 */
export async function signInWithServiceWorker(page: Page, player: Player) {
  await page.goto('/login');
  await signIn(page, player.person, { rememberMe: true });
  await page.waitForURL(/\/(dashboard|group)/);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Two new players in a new public group `owner` made (named after `prefix`). */
export async function twoInAGroup(request: APIRequestContext, prefix: string) {
  const [owner, member] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
  const group = await createGroupViaApi(request, owner, { name: uniqueGroupName(prefix) });
  await joinViaApi(request, member, group.name);
  return { owner, member, group };
}
