import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi } from './bets.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
  type Player,
} from './groups.helpers';
import { replacePushSubscribe } from './push.helpers';
import { jobPasses } from './server-process';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// The inbox end to end with two players in Chromium: the "closes soon" reminder
// lands in the inbox (the bell's count, the entry, its link) and as a push through the stand-in
// push service; the profile's push kinds and a group's mute are written and read back.

let pushService: Server;
let pushServiceUrl = '';
const received: string[] = [];

test.beforeAll(async () => {
  pushService = createServer((request, response) => {
    received.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.writeHead(201).end());
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushServiceUrl = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => pushService.close(resolve));
});

async function openAs(browser: Browser, player: Player, baseURL: string, withPush = false) {
  const context = await browser.newContext();
  let endpointPath = '';
  if (withPush) {
    await context.grantPermissions(['notifications'], { origin: baseURL });
    endpointPath = new URL((await replacePushSubscribe(context, pushServiceUrl)).endpoint).pathname;
  }
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, player.person);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { context, page, endpointPath };
}

const bell = (page: Page) => page.getByRole('link', { name: /^Inbox/ });

test('the closes-soon reminder lands in the inbox and as a push', async ({
  browser,
  request,
  baseURL,
}) => {
  const host = await registerPlayer(request);
  const guest = await registerPlayer(request);
  const group = await createGroupViaApi(request, host, { name: uniqueGroupName('Quiz') });
  await joinViaApi(request, guest, group.name);

  // The host turns push on; they created the bet, so the only push they get is the reminder.
  const hostSide = await openAs(browser, host, baseURL!, true);
  // Switching on waits for the service worker to be active, and it first precaches the whole
  // app: 20-40 s on a busy machine, longer than a toast's wait. Wait for the worker itself.
  await hostSide.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await hostSide.page.goto('/profile');
  const pushSwitch = hostSide.page.getByRole('switch', { name: 'Notifications on this device' });
  await pushSwitch.click();
  // Done when the switch is on and no longer busy: a state that stays, where the toast leaves
  // after 5 s (push.spec.ts checks its text). A failure would turn the switch back off.
  await expect(pushSwitch).toHaveAttribute('aria-checked', 'true');
  await expect(pushSwitch).toBeEnabled();
  const pushesToHost = () => received.filter((url) => url === hostSide.endpointPath).length;
  expect(pushesToHost()).toBe(0);

  const guestSide = await openAs(browser, guest, baseURL!);
  // Closes in 2 hours and 6 seconds: due 6 seconds from now, and made with the 2 hours to go.
  const title = `Quiz night winner ${Date.now()}`;
  const bet = await createBetViaApi(request, host, {
    groupId: group.id,
    title,
    hours: 2 + 6 / 3600,
  });

  // The guest's bell: the new bet, then the reminder, live.
  await expect(bell(guestSide.page)).toHaveAccessibleName('Inbox, 2 unread', { timeout: 30_000 });
  await bell(guestSide.page).click();
  await expect(guestSide.page).toHaveURL(/\/inbox$/);
  const reminder = guestSide.page.getByRole('link', { name: new RegExp(`Closes soon: ${title}`) });
  await expect(reminder).toContainText("You haven't picked yet. Betting closes in about 2 hours.");
  await reminder.click();
  await expect(guestSide.page).toHaveURL(new RegExp(`/bets/${bet.id}$`));
  await expect(bell(guestSide.page)).toHaveAccessibleName('Inbox, 1 unread');

  // The host heard it too (they have not picked either), once, as a push.
  await expect.poll(pushesToHost, { timeout: 30_000 }).toBe(1);
  await hostSide.page.goto('/inbox');
  await expect(
    hostSide.page.getByRole('link', { name: new RegExp(`Closes soon: ${title}`) }),
  ).toBeVisible();
  // The reminder is sent once: later runs of the job add nothing.
  const passes = await jobPasses(hostSide.page.request, 'reminders');
  await expect
    .poll(() => jobPasses(hostSide.page.request, 'reminders'))
    .toBeGreaterThan(passes + 1);
  expect(pushesToHost()).toBe(1);

  await hostSide.context.close();
  await guestSide.context.close();
});

test('push kinds and mutes are chosen, kept and undone', async ({ browser, request, baseURL }) => {
  const player = await registerPlayer(request);
  const group = await createGroupViaApi(request, player, { name: uniqueGroupName('Mute') });
  const { page, context } = await openAs(browser, player, baseURL!);

  await page.goto(`/group/${group.id}`);
  await page.getByRole('button', { name: 'Mute group' }).click();
  await expect(page.getByRole('button', { name: 'Unmute group' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await page.goto('/profile');
  const friends = page.getByRole('switch', { name: 'Friends joining' });
  await expect(friends).toHaveAttribute('aria-checked', 'true');
  await friends.click();
  await expect(friends).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('heading', { name: 'Muted' })).toBeVisible();

  // Read back from the server after a reload (the mirror starts over only on a reset: both are kept).
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Friends joining' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await page.getByRole('button', { name: `Unmute ${group.name}` }).click();
  await expect(page.getByRole('heading', { name: 'Muted' })).toHaveCount(0);
  await context.close();
});
