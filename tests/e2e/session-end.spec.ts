import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi } from './bets.helpers';
import { commentThread, commentViaApi } from './comments.helpers';
import {
  authHeaders,
  createGroupViaApi,
  joinPrivateViaApi,
  registerPlayer,
  uniqueGroupName,
  type Player,
} from './groups.helpers';
import { SCREEN_SIZES, shootIfAsked } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// A browser may be shared. Once a session ends (the tab of a session without "Remember me"
// closed, or the player signed out), nothing of a private group stays on the device: not in
// IndexedDB, not in localStorage, not in the service worker's queue or caches. A comment
// still waiting when the session ended is kept for its own player only, who decides at the
// next sign-in whether it goes; anyone else signing in drops it.

/** A private group with a bet and a friend's comment, which I belong to. */
async function privateGroup(request: APIRequestContext) {
  const [me, friend] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
  const group = await createGroupViaApi(request, friend, {
    name: uniqueGroupName('Secret club'),
    privacy: 'private',
    inviteCode: 'SECRET42',
  });
  await joinPrivateViaApi(request, me, group.id, 'SECRET42');
  const title = `Secret bet ${group.name.slice(-6)}`;
  const bet = await createBetViaApi(request, friend, { groupId: group.id, title });
  const comment = `Secret comment ${group.name.slice(-6)}`;
  await commentViaApi(request, friend, bet.id, comment);
  return { me, friend, group, bet, secrets: [group.name, title, comment] };
}

async function signInAs(page: Page, player: Player, { rememberMe }: { rememberMe: boolean }) {
  await page.goto('/login');
  await signIn(page, player.person, { rememberMe });
  await page.waitForURL(/\/(dashboard|group)/);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Every row of every store of an IndexedDB database of the page, as one text. */
function storedText(page: Page, name = 'hunch'): Promise<string> {
  return page.evaluate(
    (dbName) =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open(dbName);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const stores = [...db.objectStoreNames];
          if (stores.length === 0) {
            db.close();
            resolve('{}');
            return;
          }
          const rows: Record<string, unknown[]> = {};
          const tx = db.transaction(stores, 'readonly');
          for (const store of stores) {
            const all = tx.objectStore(store).getAll();
            all.onsuccess = () => (rows[store] = all.result);
          }
          tx.oncomplete = () => {
            db.close();
            resolve(JSON.stringify(rows));
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    name,
  );
}

/** Requests waiting in the service worker's background-sync queue (workbox-background-sync). */
function queuedInWorker(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('workbox-background-sync');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('requests')) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction('requests').objectStore('requests').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
        };
      }),
  );
}

/** The URLs the page's caches hold other than the precached app shell. */
function cachedOutsideTheShell(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        if (path.startsWith('/api') || path.startsWith('/auth')) urls.push(request.url);
      }
    }
    return urls;
  });
}

function localStorageKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(localStorage).sort());
}

async function commentOffline(page: Page, betId: number, text: string) {
  await page.goto(`/bets/${betId}`);
  await expect(commentThread(page).getByRole('listitem')).toHaveCount(1);
  await page.context().setOffline(true);
  await commentThread(page).getByLabel('Add a comment').fill(text);
  await commentThread(page).getByRole('button', { name: 'Send' }).click();
  await expect(
    page.getByText("You're offline. Your comment will be sent when you're back."),
  ).toBeVisible();
}

/** Ends the tab's renderer on the spot: no more script, no event, no request from it. */
async function endTabAtOnce(page: Page) {
  const devtools = await page.context().newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  // The renderer dies before it can answer.
  devtools.send('Page.crash').catch(() => undefined);
  await crashed;
  await page.close();
}

async function signOut(page: Page) {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function commentsOnServer(request: APIRequestContext, player: Player, betId: number) {
  const response = await request.get(`/api/bets/${betId}/comments`, {
    headers: await authHeaders(request, player),
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as Array<{ text: string }>).map((comment) => comment.text);
}

test('a session without Remember me leaves nothing of a private group once its tab is closed', async ({
  context,
  page,
  request,
}) => {
  const { me, friend, bet, secrets } = await privateGroup(request);
  await signInAs(page, me, { rememberMe: false });
  await expect.poll(() => storedText(page)).toContain(secrets[2]);
  for (const secret of secrets) expect(await storedText(page)).toContain(secret);
  // Written offline: the page's outbox holds it; the worker keeps nothing of a tab-only session.
  await commentOffline(page, bet.id, 'Typed just before closing the tab');
  expect(await queuedInWorker(page)).toBe(0);

  // Closing a tab ends its script at once on a phone. Under Playwright neither page.close() nor
  // leaving for about:blank does: each takes the tab's renderer out of the offline emulation
  // while the app still runs in it, and its `online` event sends the write with the session it
  // holds (caught by a fetch log: navigator.onLine true during the goto, 3 runs in 12). Crashing
  // the renderer ends the app's script where it stands, as the phone does.
  await endTabAtOnce(page);
  const reopened = await context.newPage();
  await reopened.goto('/');
  await expect(reopened).toHaveURL(/\/landing$/);
  await context.setOffline(false);
  expect(await reopened.evaluate(() => sessionStorage.length)).toBe(0);
  const stored = await storedText(reopened);
  for (const secret of secrets) expect(stored).not.toContain(secret);
  // The push device id is the browser's, not the player's; the client group (a random id,
  // src/client/data/sync-client.ts) stays only because a write is held for its player.
  expect(
    (await localStorageKeys(reopened)).filter(
      (key) => !key.startsWith('push_device_id_') && !key.startsWith('hunch_sync_client_group_'),
    ),
  ).toEqual([]);
  expect(await queuedInWorker(reopened)).toBe(0);
  expect(await cachedOutsideTheShell(reopened)).toEqual([]);
  // Held for its own player, never sent by itself.
  expect(stored).toContain('Typed just before closing the tab');
  expect(await commentsOnServer(request, friend, bet.id)).toEqual([secrets[2]]);
});

test('a comment written offline before signing out waits for the same player’s last decision', async ({
  page,
  request,
}) => {
  const { me, friend, bet, secrets } = await privateGroup(request);
  await signInAs(page, me, { rememberMe: true });
  await commentOffline(page, bet.id, 'Sent after all');

  await signOut(page);

  const stored = await storedText(page);
  for (const secret of secrets) expect(stored).not.toContain(secret);
  expect(await queuedInWorker(page)).toBe(0);
  await page.context().setOffline(false);
  await signInAs(page, me, { rememberMe: true });
  const strip = page.getByText("1 change from last time wasn't sent.");
  await expect(strip).toBeVisible();
  // Nothing goes by itself.
  expect(await commentsOnServer(request, friend, bet.id)).toEqual([secrets[2]]);
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await shootIfAsked(page, `held-writes-strip-${size.name}`);
  }
  await expectAccessible(page, 'the held writes strip');

  await page.getByRole('button', { name: 'Review' }).click();
  const sheet = page.getByRole('dialog', { name: 'Not sent yet' });
  await expect(sheet.getByText('Comment · Sent after all')).toBeVisible();
  for (const size of [...SCREEN_SIZES].reverse()) {
    await page.setViewportSize(size);
    await shootIfAsked(page, `held-writes-sheet-${size.name}`);
  }
  await expectAccessible(page, 'the held writes sheet');
  await sheet.getByRole('button', { name: 'Send' }).click();

  await expect(sheet).toHaveCount(0);
  await expect(strip).toHaveCount(0);
  await expect
    .poll(() => commentsOnServer(request, friend, bet.id))
    .toEqual([secrets[2], 'Sent after all']);
});

test('a comment left by one player is dropped when another signs in on the device', async ({
  page,
  request,
}) => {
  const { me, friend, bet, secrets } = await privateGroup(request);
  await signInAs(page, me, { rememberMe: true });
  await commentOffline(page, bet.id, 'Not for the next person');
  await signOut(page);
  expect(await storedText(page)).toContain('Not for the next person');
  await page.context().setOffline(false);

  await signInAs(page, friend, { rememberMe: true });

  await expect.poll(() => storedText(page)).not.toContain('Not for the next person');
  await expect(page.getByText(/from last time/)).toHaveCount(0);
  expect(await commentsOnServer(request, friend, bet.id)).toEqual([secrets[2]]);
});
