import { createECDH, randomBytes } from 'node:crypto';
import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test';
import { signIn } from './accounts.helpers';
import { createGroupViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';

// The browser's own push service cannot be reached from here, so the specs replace only
// PushManager.prototype.subscribe, at the browser boundary: it returns a subscription for a
// local stand-in push service, with keys made as a browser makes them.

/** Keys made as a browser makes them: a P-256 public key (65 bytes) and a 16-byte secret. */
export function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

/**
 * Makes every page of the context subscribe to `${pushServiceUrl}/push/<id>`; returns the
 * subscription the server will be given.
 */
export async function replacePushSubscribe(context: BrowserContext, pushServiceUrl: string) {
  const fake = {
    endpoint: `${pushServiceUrl}/push/${randomBytes(8).toString('hex')}`,
    ...browserKeys(),
  };
  await context.addInitScript((subscription) => {
    PushManager.prototype.subscribe = async function subscribe(
      options?: PushSubscriptionOptionsInit,
    ) {
      return {
        endpoint: subscription.endpoint,
        expirationTime: null,
        options: {
          applicationServerKey: options?.applicationServerKey ?? null,
          userVisibleOnly: true,
        },
        getKey: () => null,
        toJSON: () => ({
          endpoint: subscription.endpoint,
          expirationTime: null,
          keys: { p256dh: subscription.p256dh, auth: subscription.auth },
        }),
        unsubscribe: async () => true,
      } as unknown as PushSubscription;
    };
  }, fake);
  return fake;
}

export type PushScreenState =
  'push prompt' | 'push card, off' | 'push card, on' | 'offline indicator' | 'push card, blocked';

/**
 * Walks a player through every push and offline state (the join prompt, the profile's push
 * card off, on and blocked, the offline indicator) and calls `at(page, state)` in each: the
 * accessibility spec checks it with axe, the screenshot spec photographs it.
 */
export async function walkPushAndOfflineStates(
  { browser, baseURL, request }: { browser: Browser; baseURL: string; request: APIRequestContext },
  contextOptions: BrowserContextOptions,
  at: (page: Page, state: PushScreenState) => Promise<void>,
) {
  const context = await browser.newContext(contextOptions);
  await replacePushSubscribe(context, 'http://127.0.0.1:9');
  const page = await context.newPage();
  const owner = await registerPlayer(request);
  const inviteCode = `push-${randomBytes(4).toString('hex')}`;
  const group = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Friday Forecasters'),
    privacy: 'private',
    inviteCode,
  });
  const player = await registerPlayer(request);
  await page.goto('/login');
  await signIn(page, player.person);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/group/${group.id}?inviteCode=${inviteCode}`);
  await expect(page.getByRole('dialog', { name: 'Enable group updates' })).toBeVisible();
  await at(page, 'push prompt');
  await page.getByRole('button', { name: 'Not now' }).click();

  await context.grantPermissions(['notifications'], { origin: baseURL });
  await page.goto('/profile');
  const toggle = page.getByRole('switch', { name: 'Notifications on this device' });
  await expect(toggle).toBeEnabled();
  await at(page, 'push card, off');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await at(page, 'push card, on');

  await page.goto('/group');
  await context.setOffline(true);
  await expect(page.getByText("You're offline.")).toBeVisible();
  await at(page, 'offline indicator');
  await context.close();

  // A fresh browser profile asked for permission: Chromium answers "denied".
  const blockedContext = await browser.newContext(contextOptions);
  const blockedPage = await blockedContext.newPage();
  await blockedPage.goto('/login');
  await signIn(blockedPage, player.person);
  await expect(blockedPage).toHaveURL(/\/dashboard$/);
  await blockedPage.goto('/profile');
  await blockedPage.getByRole('switch', { name: 'Notifications on this device' }).click();
  await expect(blockedPage.getByText('Click the lock icon in the address bar.')).toBeVisible();
  await at(blockedPage, 'push card, blocked');
  await blockedContext.close();
}
