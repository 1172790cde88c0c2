import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { expectAccessible } from './axe.helpers';
import { signIn } from './accounts.helpers';
import { createBetViaApi } from './bets.helpers';
import { commentThread } from './comments.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
  type Player,
} from './groups.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Comments on a bet with two players in two browser contexts: a comment posted by
// one appears live for the other, reads offline after a reload (the mirror), is written offline
// through the outbox (pending, then sent once), and its author deletes it for everyone.

async function openAs(browser: Browser, player: Player, path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, player.person, { rememberMe: true });
  await page.waitForURL(/\/(dashboard|group)/);
  // Offline reloads are served by the service worker.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.goto(path);
  return page;
}

async function postInThread(page: Page, text: string) {
  const thread = commentThread(page);
  await thread.getByLabel('Add a comment').fill(text);
  await thread.getByRole('button', { name: 'Send' }).click();
}

const commentItem = (page: Page, text: string) =>
  commentThread(page).getByRole('listitem').filter({ hasText: text });

test('a comment appears live for the other player, reads offline, and is written offline once', async ({
  browser,
  request,
}) => {
  const [me, friend] = await Promise.all([registerPlayer(request), registerPlayer(request)]);
  const group = await createGroupViaApi(request, friend, { name: uniqueGroupName('Banter') });
  await joinViaApi(request, me, group.name);
  const bet = await createBetViaApi(request, friend, {
    groupId: group.id,
    title: 'Will the cake survive the party?',
  });
  const path = `/bets/${bet.id}`;
  const [mine, theirs] = await Promise.all([
    openAs(browser, me, path),
    openAs(browser, friend, path),
  ]);

  await expect(commentThread(mine).getByText('No comments yet. Start the banter.')).toBeVisible();
  await postInThread(theirs, 'No chance, I baked it myself');

  // Live: no reload on my side.
  await expect(commentItem(mine, 'No chance, I baked it myself')).toBeVisible();
  await expect(commentItem(mine, 'No chance')).toContainText(friend.person.displayName);
  await expect(mine.getByTestId('comment-count')).toContainText('1 comment');
  await expectAccessible(theirs, 'the thread with a comment');

  // Offline after a reload: read from the mirror.
  await mine.context().setOffline(true);
  await mine.reload();
  await expect(mine.getByText("You're offline.")).toBeVisible();
  await expect(commentItem(mine, 'No chance, I baked it myself')).toBeVisible();

  // Written offline: shows at once, pending; sent once the network returns.
  await postInThread(mine, 'Famous last words');
  await expect(commentItem(mine, 'Famous last words').getByTestId('pending-badge')).toBeVisible();
  await mine.context().setOffline(false);
  await expect(commentItem(theirs, 'Famous last words')).toBeVisible({ timeout: 20_000 });
  await expect(commentItem(mine, 'Famous last words').getByTestId('pending-badge')).toHaveCount(0, {
    timeout: 20_000,
  });
  const listed = await request.get(`/api/bets/${bet.id}/comments`, {
    headers: { Authorization: `Bearer ${friend.token}` },
  });
  const texts = ((await listed.json()) as Array<{ text: string }>).map((comment) => comment.text);
  expect(texts).toEqual(['No chance, I baked it myself', 'Famous last words']);

  // The author deletes theirs, behind a confirmation; it leaves both screens.
  await commentItem(theirs, 'No chance')
    .getByRole('button', { name: /^Delete comment by / })
    .click();
  const confirm = theirs.getByRole('dialog', { name: 'Delete this comment?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(theirs, 'the delete confirmation');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(commentItem(theirs, 'No chance')).toHaveCount(0);
  await expect(commentItem(mine, 'No chance')).toHaveCount(0);
  // My own comment is mine to delete; the friend created the group, so as its admin may too.
  await expect(
    commentItem(mine, 'Famous last words').getByRole('button', { name: /^Delete/ }),
  ).toBeVisible();
  await expect(commentItem(theirs, 'Famous last words').getByRole('button')).toHaveCount(1);

  await mine.context().close();
  await theirs.context().close();
});
