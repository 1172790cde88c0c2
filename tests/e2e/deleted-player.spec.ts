import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import {
  authHeaders,
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';

// A friend deletes their account: the group's standings, a bet's participation and the inbox
// of the others no longer carry a "Deleted player" as if still a member.

test('a deleted account leaves the leaderboards, the participation count and the inbox', async ({
  page,
  request,
}) => {
  const bo = await registerPlayer(request);
  const group = await createGroupViaApi(request, bo, { name: uniqueGroupName('Crew') });
  const cy = await registerPlayer(request);
  await joinViaApi(request, cy, group.name);
  const maya = await registerPlayer(request);
  await joinViaApi(request, maya, group.name);
  const settled = await createBetViaApi(request, bo, { groupId: group.id, title: 'Rain today?' });
  await wagerViaApi(request, maya, settled.id, 'yes', 3);
  await wagerViaApi(request, bo, settled.id, 'no', 1);
  await resolveViaApi(request, bo, settled.id, 'yes');
  const open = await createBetViaApi(request, bo, { groupId: group.id, title: 'Pizza tonight?' });
  await wagerViaApi(request, bo, open.id, 'yes', 1);

  await page.goto('/login?returnUrl=/leaderboard');
  await signIn(page, bo.person);
  const allTime = page.getByRole('table', { name: `${group.name} standings` });
  await expect(
    allTime.getByRole('row', { name: new RegExp(maya.person.displayName) }),
  ).toBeVisible();
  await page.goto('/inbox');
  await expect(page.getByText(`2 players joined ${group.name}`)).toBeVisible();

  const deleted = await request.delete('/auth/users/me', {
    headers: await authHeaders(request, maya),
    data: { currentPassword: maya.person.password },
  });
  expect(deleted.status(), await deleted.text()).toBe(200);

  // Bo's inbox says who is still there; nothing says a deleted player joined.
  await page.reload();
  await expect(page.getByText(`${cy.person.displayName} joined ${group.name}`)).toBeVisible();
  await expect(page.getByText(/Deleted player joined/)).toHaveCount(0);
  await expectAccessible(page, 'the inbox after a friend deleted their account');

  await page.goto('/leaderboard');
  await expect(allTime.getByRole('row')).toHaveCount(3);
  await expect(allTime).toContainText(cy.person.displayName);
  await expect(allTime).not.toContainText('Deleted player');
  await expect(allTime).not.toContainText(maya.person.displayName);
  const periods = page.getByRole('group', { name: 'Leaderboard period' });
  await periods.getByRole('button', { name: 'This week' }).click();
  const week = page.getByRole('table', { name: `${group.name} standings this week` });
  await expect(week.getByRole('row', { name: new RegExp(bo.person.displayName) })).toBeVisible();
  await expect(week).not.toContainText('Deleted player');
  await expect(week.getByRole('row')).toHaveCount(3);
  await expectAccessible(page, 'the leaderboard after a friend deleted their account');

  // A bet settled now counts the two members left: Bo took part, so 1 / 2.
  await resolveViaApi(request, bo, open.id, 'yes');
  await page.goto(`/bets/${open.id}`);
  await expect(page.getByText('1 / 2')).toBeVisible();
  // Her settled result stays on the bet she won.
  await page.goto(`/bets/${settled.id}`);
  await expect(page.getByText('2 / 3')).toBeVisible();
});
