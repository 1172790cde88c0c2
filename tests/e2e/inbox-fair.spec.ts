import { expect } from '@playwright/test';
import { test } from './fixtures';
import { openSignedIn } from './accounts.helpers';
import { createBetViaApi, fairStepViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';

// What happens to a result after it is given reaches the inbox (undone, disputed, reviewed),
// and a group's admin switches the weekly top-up off and on (written through the outbox, kept
// across a reload).

test('a result undone, a dispute to review and a dispute dismissed land in the inbox', async ({
  page,
  request,
}) => {
  const me = await registerPlayer(request);
  const owner = await registerPlayer(request);
  const friend = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, { name: uniqueGroupName('Fair') });
  await joinViaApi(request, me, group.name);
  await joinViaApi(request, friend, group.name);

  const undone = await createBetViaApi(request, friend, { groupId: group.id, title: 'Rain?' });
  await wagerViaApi(request, me, undone.id, 'yes', 2);
  await resolveViaApi(request, friend, undone.id, 'yes');
  await fairStepViaApi(request, friend, undone.id, 'undo-resolution');

  const mine = await createBetViaApi(request, me, { groupId: group.id, title: 'Snow?' });
  await wagerViaApi(request, friend, mine.id, 'yes', 1);
  await resolveViaApi(request, me, mine.id, 'no');
  await fairStepViaApi(request, friend, mine.id, 'dispute', 'It snowed all morning.');

  const dismissed = await createBetViaApi(request, friend, { groupId: group.id, title: 'Hail?' });
  await wagerViaApi(request, me, dismissed.id, 'yes', 1);
  await resolveViaApi(request, friend, dismissed.id, 'no');
  await fairStepViaApi(request, me, dismissed.id, 'dispute', 'There was hail at noon.');
  await fairStepViaApi(request, owner, dismissed.id, 'dispute/dismiss');

  await openSignedIn(page, me.person, '/inbox');
  await expect(page.getByRole('link', { name: /undid the result of “Rain\?”/ })).toBeVisible();
  await expect(
    page.getByRole('link', { name: /disputes “Snow\?”.*It snowed all morning/ }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: /The result of “Hail\?” stands/ })).toBeVisible();
  // The undone result no longer claims a win.
  await expect(page.getByRole('link', { name: /Undone: Rain\?/ })).toBeVisible();
});

test('an admin turns the weekly top-up off and on, and it stays so after a reload', async ({
  page,
  request,
}) => {
  const admin = await registerPlayer(request);
  const group = await createGroupViaApi(request, admin, { name: uniqueGroupName('Top') });
  await openSignedIn(page, admin.person, `/group/${group.id}`);
  const topUps = page.getByRole('switch', { name: 'Top-ups' });
  // The switch writes through the outbox: the server has it once the outbox sent it, which a
  // quiet network does not prove (a reload before the send would show the old mirror).
  const serverSetting = async () =>
    (
      await request.get(`/api/groups/${group.id}/settings`, {
        headers: { Authorization: `Bearer ${admin.token}` },
      })
    ).json();
  await expect(topUps).toHaveAttribute('aria-checked', 'true');
  await topUps.click();
  await expect(topUps).toHaveAttribute('aria-checked', 'false');
  await expect.poll(serverSetting).toEqual({ floorTopUp: false });
  await page.reload();
  await expect(topUps).toHaveAttribute('aria-checked', 'false');
  await topUps.click();
  await expect(topUps).toHaveAttribute('aria-checked', 'true');
  await expect.poll(serverSetting).toEqual({ floorTopUp: true });
  await page.reload();
  await expect(topUps).toHaveAttribute('aria-checked', 'true');
});

test('a member left below the base wager is topped up and sees it in the inbox', async ({
  page,
  request,
}) => {
  const owner = await registerPlayer(request);
  const member = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Broke'),
    defaultPoints: 10,
  });
  await joinViaApi(request, member, group.name);
  const bet = await createBetViaApi(request, owner, {
    groupId: group.id,
    title: 'All in?',
    baseWagerAmount: 3,
  });
  // 9 of 10 points in a wager: 1 available, below the base wager of 3.
  await wagerViaApi(request, member, bet.id, 'yes', 9);

  await openSignedIn(page, member.person, '/inbox');
  await expect(
    page.getByRole('link', { name: new RegExp(`You were topped up to 9 points in ${group.name}`) }),
  ).toBeVisible({ timeout: 15_000 });
});
