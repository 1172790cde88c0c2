import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createGroupViaApi, registerPlayer, uniqueGroupName, type Player } from './groups.helpers';
import { replacePushSubscribe } from './push.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Push end to end in Chromium. The browser's own push service cannot be reached here, so
// only PushManager.prototype.subscribe is replaced, at the browser boundary, by one that
// returns a subscription for a local stand-in push service (an HTTP server on loopback) with
// real P-256 keys; everything else (permission, the service worker, the server's calls, the
// profile toggle, the join prompt) is the real thing.

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

async function serverStatus(
  request: APIRequestContext,
  player: Player,
  page: Page,
): Promise<boolean> {
  const deviceId = await page.evaluate(() => localStorage.getItem('push_device_id_hunch'));
  expect(deviceId).toBeTruthy();
  const response = await request.get(
    `/api/push-subscriptions/status?deviceId=${encodeURIComponent(deviceId!)}&appName=hunch`,
    {
      headers: { Authorization: `Bearer ${player.token}` },
    },
  );
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { active: boolean }).active;
}

async function openProfile(page: Page, player: Player) {
  await page.goto('/login');
  await signIn(page, player.person);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/profile');
  return page.getByRole('switch', { name: 'Notifications on this device' });
}

test('the profile toggle goes off → on → off, with its messages, and the server follows', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseURL! });
  await replacePushSubscribe(context, pushServiceUrl);
  const player = await registerPlayer(request);
  const toggle = await openProfile(page, player);

  await expect(page.getByRole('heading', { name: 'Push notifications' })).toBeVisible();
  await expect(toggle).toBeEnabled();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');

  await toggle.click();
  await expect(page.getByText('Notifications enabled successfully')).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  expect(await serverStatus(request, player, page)).toBe(true);

  // The state is read back from the server on the next visit.
  await page.reload();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  await toggle.click();
  await expect(page.getByText('Notifications disabled successfully')).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  expect(await serverStatus(request, player, page)).toBe(false);
});

test('a denied permission shows the blocked state, disabled, with the instructions', async ({
  page,
  request,
}) => {
  // No permission granted: Chromium answers the request with "denied".
  const player = await registerPlayer(request);
  const toggle = await openProfile(page, player);
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(
    page.getByText('Notification permission was denied. Check your browser settings.'),
  ).toBeVisible();
  await expect(toggle).toBeDisabled();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText('Click the lock icon in the address bar.')).toBeVisible();
  await expect(page.getByText('Refresh this page.')).toBeVisible();

  // Still blocked on the next visit: the browser remembers.
  await page.reload();
  await expect(toggle).toBeDisabled();
});

test('a push delivered to the service worker shows a notification with its title', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseURL! });
  await replacePushSubscribe(context, pushServiceUrl);
  const player = await registerPlayer(request);
  const toggle = await openProfile(page, player);
  await toggle.click();
  await expect(page.getByText('Notifications enabled successfully')).toBeVisible();

  const cdp = await context.newCDPSession(page);
  const registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> = [];
  cdp.on(
    'ServiceWorker.workerRegistrationUpdated',
    (event: { registrations: typeof registrations }) => registrations.push(...event.registrations),
  );
  await cdp.send('ServiceWorker.enable');
  await expect
    .poll(() => registrations.find((r) => !r.isDeleted && r.scopeURL === `${baseURL}/`))
    .toBeTruthy();
  const { registrationId } = registrations.find(
    (r) => !r.isDeleted && r.scopeURL === `${baseURL}/`,
  )!;

  const payload = {
    title: 'New bet in Friday Five',
    body: 'Maya asks: Will it rain on Saturday?',
    url: '/bets/12',
    tag: 'bet-12',
  };
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: baseURL!,
    registrationId,
    data: JSON.stringify(payload),
  });
  const shown = () =>
    page.evaluate(() =>
      navigator.serviceWorker.ready
        .then((registration) => registration.getNotifications())
        .then((list) =>
          list.map((n) => ({
            title: n.title,
            body: n.body,
            tag: n.tag,
            url: (n.data as { url: string }).url,
          })),
        ),
    );
  await expect
    .poll(shown)
    .toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, url: payload.url }]);
});

test('after a join the modal offers "Enable group updates"; enabling closes it', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseURL! });
  await replacePushSubscribe(context, pushServiceUrl);
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Prompted'),
    privacy: 'private',
    inviteCode: 'prompt-code-1',
  });
  const player = await registerPlayer(request);
  await page.goto('/login');
  await signIn(page, player.person);
  await page.getByRole('banner').getByRole('button', { name: 'Join Group' }).click();
  const join = page.getByRole('dialog', { name: 'Join a Group' });
  await join.getByRole('tab', { name: 'Private Group' }).click();
  await join.getByLabel('Group ID').fill(String(group.id));
  await join.getByLabel('Invite code').fill('prompt-code-1');
  await join.getByRole('button', { name: 'Join Group' }).click();

  await expect(page.getByText('Group joined successfully!')).toBeVisible();
  const prompt = page.getByRole('dialog', { name: 'Enable group updates' });
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Enable' }).click();
  // The first Enable waits for the service worker to install (it precaches the whole app):
  // 20–40 s with two browsers on two cores.
  await expect(page.getByText('Notifications enabled successfully')).toBeVisible({
    timeout: 45_000,
  });
  await expect(prompt).toHaveCount(0);
  expect(await serverStatus(request, player, page)).toBe(true);

  // Active now: the next join just closes with the toast.
  const second = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Quiet'),
    privacy: 'private',
    inviteCode: 'prompt-code-2',
  });
  await page.goto(`/group/${second.id}?inviteCode=prompt-code-2`);
  await expect(page.getByRole('heading', { name: second.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Enable group updates' })).toHaveCount(0);
});

test('"Not now" closes the prompt; with permission denied it is never shown', async ({
  page,
  request,
}) => {
  const owner = await registerPlayer(request);
  const first = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Later'),
    privacy: 'private',
    inviteCode: 'later-code-1',
  });
  const second = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Never'),
    privacy: 'private',
    inviteCode: 'later-code-2',
  });
  const player = await registerPlayer(request);
  await page.goto('/login');
  await signIn(page, player.person);
  await expect(page).toHaveURL(/\/dashboard$/);

  // At 320 px the toast that says the group was joined stands clear of the prompt's buttons.
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto(`/group/${first.id}?inviteCode=later-code-1`);
  const prompt = page.getByRole('dialog', { name: 'Enable group updates' });
  await expect(prompt).toBeVisible();
  const joined = page.getByRole('status').filter({ hasText: 'Group joined successfully!' });
  await expect(joined).toBeVisible();
  const toastBox = (await joined.boundingBox())!;
  for (const name of ['Not now', 'Enable']) {
    const button = (await prompt.getByRole('button', { name }).boundingBox())!;
    const overlaps =
      toastBox.x < button.x + button.width &&
      button.x < toastBox.x + toastBox.width &&
      toastBox.y < button.y + button.height &&
      button.y < toastBox.y + toastBox.height;
    expect(overlaps, `the toast covers "${name}"`).toBe(false);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await prompt.getByRole('button', { name: 'Not now' }).click();
  await expect(prompt).toHaveCount(0);

  // Chromium answers a permission request here with "denied": from then on no prompt.
  expect(await page.evaluate(() => Notification.requestPermission())).toBe('denied');
  await page.goto(`/group/${second.id}?inviteCode=later-code-2`);
  await expect(page.getByText('Group joined successfully!')).toBeVisible();
  await expect(page.getByRole('heading', { name: second.name, level: 1 })).toBeVisible();
  await expect(prompt).toHaveCount(0);
});
