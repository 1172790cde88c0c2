import { expect } from '@playwright/test';
import { test } from './fixtures';
import { createBetViaApi } from './bets.helpers';
import { authHeaders, signInWithServiceWorker, twoInAGroup } from './groups.helpers';
import { serverPoints, wagerRefusedOffline } from './offline-refusals.helpers';
import { shootIfAsked } from './screens.helpers';

// This spec needs the service worker (offline play); the others block it.
test.use({ serviceWorkers: 'allow' });

// A write queued offline that the server refuses once the network is back names what it was
// and its bet, in words: "Your 2 points on 'Pizza Friday?' came back: betting had closed". A
// refusal a retry cannot change offers Dismiss only; once dismissed the warning bar goes, and
// the balance shown is the server's (the points really came back).

test('a wager refused after the network returns names its bet and points, offers Dismiss only, and the bar goes with it', async ({
  page,
  context,
}) => {
  const { member, group, before, header } = await wagerRefusedOffline(
    page,
    context,
    'Pizza Friday?',
  );
  const sentence = "Your 2 points on 'Pizza Friday?' came back: betting had closed";
  await expect(page.getByRole('alert').getByText(sentence)).toBeVisible({ timeout: 15_000 });
  const bar = page.getByText("1 change couldn't be sent.");
  await expect(bar).toBeVisible();
  await shootIfAsked(page, 'refused-offline-toast-390');
  await bar.getByRole('button', { name: 'Review' }).click();
  const sheet = page.getByRole('dialog', { name: 'Sync status' });
  const row = sheet.getByRole('listitem').filter({ hasText: sentence });
  await expect(row).toBeVisible();
  // Betting will not open again: a retry cannot succeed.
  await expect(row.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await shootIfAsked(page, 'refused-offline-sheet-390');
  await row.getByRole('button', { name: 'Dismiss', exact: true }).click();
  await expect(row).toHaveCount(0);
  await expect(sheet.getByText('Everything on this device has reached the server.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(bar).toHaveCount(0);
  // The points shown are the server's: the 2 came back for real.
  expect(await serverPoints(page, member, group.id)).toBe(before);
  await expect(header).toContainText(String(before));
  await page.reload();
  await expect(header).toContainText(String(before));
  await expect(page.getByText(/couldn't be sent/)).toHaveCount(0);
});

test('a comment refused on a bet this device no longer holds says "a bet"', async ({
  page,
  context,
  request,
}) => {
  const { owner, member, group } = await twoInAGroup(request, 'Comments');
  const bet = await createBetViaApi(request, owner, { groupId: group.id, title: 'Rain later?' });
  await signInWithServiceWorker(page, member);
  await page.goto(`/bets/${bet.id}`);
  await expect(page.getByRole('heading', { name: 'Rain later?' })).toBeVisible();

  await context.setOffline(true);
  await page.getByLabel('Add a comment').fill('Bringing an umbrella');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Bringing an umbrella')).toBeVisible();
  // The bet leaves this device's mirror and the player leaves the group meanwhile: the server
  // refuses the comment.
  await page.evaluate(
    (betId) =>
      new Promise<void>((resolve) => {
        const open = indexedDB.open('hunch');
        open.onsuccess = () => {
          const store = open.result.transaction('bets', 'readwrite').objectStore('bets');
          store.delete(betId).onsuccess = () => resolve();
        };
      }),
    bet.id,
  );
  const leave = await request.post(`/api/groups/${group.id}/leave`, {
    headers: await authHeaders(request, member),
  });
  expect(leave.status(), await leave.text()).toBe(200);
  await context.setOffline(false);
  await expect(page.getByText(/Your comment on a bet wasn't posted/).first()).toBeVisible({
    timeout: 15_000,
  });
});
