import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { newPerson, signIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi } from './bets.helpers';
import {
  activeGroupButton,
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
  type Player,
} from './groups.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// A group's first week, the shell's side: the header fits a small phone with a guest's long
// name and a long group name (and shows both whole on a desktop), going offline is one calm
// state rather than toasts over the banner, a long bet title is shown whole, the Bet button
// from the keyboard lands in the title field, and a wager sent with Enter keeps focus on the form.

const SHOTS = '/tmp/shots/h4';
mkdirSync(SHOTS, { recursive: true });

const SIZES = [
  { width: 320, height: 640 },
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

const GUEST_NAME = 'Claire Beauchamp';

async function continueAsGuest(page: Page, displayName: string): Promise<Player> {
  await page.goto('/continue-as-guest');
  await page.getByLabel('Display name').fill(displayName);
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const { id, token } = await page.evaluate(() => ({
    id: (JSON.parse(localStorage.getItem('user_data')!) as { id: number }).id,
    token: localStorage.getItem('access_token')!,
  }));
  return { person: newPerson(), id, token };
}

/** Whether an element shows all of its text (nothing cut by an ellipsis or clipped). */
function isWhole(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => element.scrollWidth <= element.clientWidth);
}

for (const size of SIZES) {
  test(`the guest's header fits ${size.width} px with long names`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const host = await registerPlayer(request);
    const group = await createGroupViaApi(request, host, {
      name: uniqueGroupName('Thursday Club'),
    });
    const guest = await continueAsGuest(page, GUEST_NAME);
    await joinViaApi(request, guest, group.name);
    await page.goto('/dashboard');
    const header = page.getByRole('banner');
    await expect(activeGroupButton(page, group.name)).toBeVisible({ timeout: 30_000 });

    const widths = await header.evaluate((element) => ({
      header: element.scrollWidth,
      inner: (element.firstElementChild as HTMLElement).scrollWidth,
      page: document.documentElement.scrollWidth,
    }));
    expect(widths.header).toBeLessThanOrEqual(size.width);
    expect(widths.inner).toBeLessThanOrEqual(size.width);
    expect(widths.page).toBeLessThanOrEqual(size.width);
    // Every control of the header lies inside the screen, the avatar last.
    const profile = header.getByRole('link', { name: new RegExp(`${GUEST_NAME}, profile`) });
    const box = await profile.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
    expect(box!.width).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: `${SHOTS}/header-${size.width}.png` });

    if (size.width >= 1280) {
      // A desktop has the room: neither name is cut.
      await expect(header.getByText(GUEST_NAME)).toBeVisible();
      expect(await isWhole(page, 'header [data-slot="group"] button span')).toBe(true);
      expect(await isWhole(page, `header a[href="/profile"] span:last-child`)).toBe(true);
    }
    await expectAccessible(page, `the header at ${size.width} px`);
  });
}

/** A registered player in a group of their own, signed in (remembered) on `page`. */
async function signedInWithGroup(page: Page, request: Parameters<typeof registerPlayer>[0]) {
  const player = await registerPlayer(request);
  const group = await createGroupViaApi(request, player, { name: uniqueGroupName('Quiz Night') });
  await page.goto('/login');
  await signIn(page, player.person, { rememberMe: true });
  await page.waitForURL(/\/dashboard/);
  await expect(activeGroupButton(page, group.name)).toBeVisible({ timeout: 30_000 });
  return { player, group };
}

test('offline is one calm state: the banner, and no reconnecting toasts stacked over it', async ({
  page,
  context,
  request,
}) => {
  const socketOpened = page.waitForEvent('websocket', {
    predicate: (socket) => socket.url().includes('/socket.io'),
    timeout: 60_000,
  });
  await signedInWithGroup(page, request);
  // Offline, the banner's code comes from the service worker's cache.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const socket = await socketOpened;
  const closed = new Promise<void>((resolve) => {
    if (socket.isClosed()) resolve();
    socket.on('close', () => resolve());
  });

  await context.setOffline(true);
  await expect(page.getByText("You're offline.")).toBeVisible();
  await closed;
  // The page has handled the closed socket (its tasks run before these two frames).
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  const reconnecting = page.getByText(/^Reconnecting\.\.\. \(\d\/5\)$/);
  await expect(reconnecting).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Notifications' }).locator('> *')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/offline-390.png` });

  // Back online: the banner goes and the connection comes back, still without a toast.
  const reopened = page.waitForEvent('websocket', {
    predicate: (next) => next.url().includes('/socket.io'),
    timeout: 60_000,
  });
  await context.setOffline(false);
  await expect(page.getByText("You're offline.")).toHaveCount(0);
  await reopened;
  await expect(reconnecting).toHaveCount(0);
});

const LONG_TITLE =
  'Will the Thursday quiz team finally beat the Regulars table before the end of the winter season?';

test('Bet from the keyboard lands in the title, and a long title is kept whole to the bet page', async ({
  page,
  request,
}) => {
  expect(LONG_TITLE.length).toBeLessThanOrEqual(100);
  await signedInWithGroup(page, request);
  const bet = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Bet' });
  const modal = page.getByRole('dialog', { name: 'Create a Bet' });
  const title = modal.getByLabel('Title');

  // Twice: once while the form's code loads, once when it is already there, where the title
  // typed the first time comes back as the group's draft and the keys go on after it.
  for (const [round, typed, expected] of [
    [1, 'Rain', 'Rain'],
    [2, '?', 'Rain?'],
  ] as const) {
    await bet.focus();
    await page.keyboard.press('Enter');
    await expect(title).toBeFocused();
    if (round === 2) await expect(modal.getByText('Draft restored')).toBeVisible();
    await page.keyboard.type(typed);
    await expect(title).toHaveValue(expected);
    if (round === 1) {
      await page.keyboard.press('Escape');
      await expect(modal).toHaveCount(0);
    }
  }

  // Over the limit nothing is cut behind the player's back: all of it stays, with the reason.
  const tooLong = `${LONG_TITLE} Or not?!`;
  await title.fill(tooLong);
  await expect(title).toHaveValue(tooLong);
  await expect(modal.getByText('Title must be 100 characters or less')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/title-too-long-390.png` });

  await title.fill(LONG_TITLE);
  await expect(modal.getByText('Title must be 100 characters or less')).toHaveCount(0);
  await modal.getByRole('button', { name: 'Next' }).click();
  await modal.getByRole('button', { name: 'Create Bet' }).click();
  await expect(page).toHaveURL(/\/bets\/\d+$/, { timeout: 30_000 });
  const heading = page.getByRole('heading', { level: 2, name: LONG_TITLE });
  await expect(heading).toBeVisible();
  await expect(heading).toContainText(LONG_TITLE);
  expect(await heading.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
    true,
  );
  await page.screenshot({ path: `${SHOTS}/long-title-390.png` });
});

test('a wager sent with Enter keeps the focus on its card', async ({ page, request }) => {
  const { player, group } = await signedInWithGroup(page, request);
  const { id } = await createBetViaApi(request, player, {
    groupId: group.id,
    title: 'Snow by Friday?',
  });
  await page.goto(`/bets/${id}`);
  const card = page.getByRole('article', { name: 'Place your wager' });
  await card.getByRole('button', { name: /^Yes/ }).click();
  const submit = card.getByRole('button', { name: 'Submit Prediction' });
  await expect(submit).toBeEnabled();
  await submit.focus();
  await page.keyboard.press('Enter');
  await expect(card.getByText('Your wager')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Change' })).toBeVisible();
  expect(
    await card.evaluate((element) => element.contains(document.activeElement)),
    'focus stays on the card, on the wager it now shows',
  ).toBe(true);
  await page.screenshot({ path: `${SHOTS}/wager-focus-390.png` });
});
