import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { openSignedIn } from './accounts.helpers';
import { LOOKED_AT_SIZES, shootIfAsked } from './screens.helpers';
import {
  activeGroupButton,
  authHeaders,
  declinePushPrompt,
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';

// docs/groups-and-bets.md §2 and §4 end to end, against the real server: create, share, join by link (as a
// brand-new guest), by name and by code; members and the leaderboard on both sides.

async function expectMembers(page: Page, names: string[]) {
  const members = page.getByRole('list', { name: 'Members' });
  for (const name of names) await expect(members.getByText(name, { exact: true })).toBeVisible();
}

test('a private group shared by link: a signed-out friend continues as a guest, joins, and both see each other', async ({
  browser,
  request,
}) => {
  const owner = await registerPlayer(request);
  const groupName = uniqueGroupName('Poker Night');

  const ownerContext = await browser.newContext({
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const ownerPage = await ownerContext.newPage();
  await openSignedIn(ownerPage, owner.person);
  await expect(ownerPage).toHaveURL(/\/dashboard$/);
  // No group yet: the header offers Join Group.
  await expect(
    ownerPage.getByRole('banner').getByRole('button', { name: 'Join Group' }),
  ).toBeVisible();

  await ownerPage.goto('/group/create');
  await expect(
    ownerPage.getByRole('heading', { name: 'Create Your Group', level: 1 }),
  ).toBeVisible();
  await ownerPage.getByLabel('Group name').fill(groupName);
  await ownerPage.getByLabel('Description (optional)').fill('Friday calls only.');
  await ownerPage.getByRole('radio', { name: /Private/ }).check();
  await expect(ownerPage.getByLabel('Starting points')).toHaveValue('100');
  await ownerPage.getByRole('button', { name: 'Create Group' }).click();

  await expect(ownerPage.getByText(`Group "${groupName}" created successfully!`)).toBeVisible();
  await expect(ownerPage).toHaveURL(/\/group$/);
  await expect(ownerPage.getByRole('heading', { name: groupName, level: 1 })).toBeVisible();
  await expect(activeGroupButton(ownerPage, groupName)).toBeVisible();
  await expect(ownerPage.getByRole('banner').getByText('100', { exact: true })).toBeVisible();
  await expect(ownerPage.getByRole('heading', { name: 'No Bets' })).toBeVisible();
  await expect(ownerPage.getByRole('link', { name: 'View All Bets' })).toHaveAttribute(
    'href',
    /\/group\/\d+\/bets$/,
  );

  await ownerPage.getByRole('button', { name: 'Share' }).click();
  const share = ownerPage.getByRole('dialog', { name: `Share ${groupName}` });
  await expect(share.getByText('Scan the QR code to join the group')).toBeVisible();
  await expect(share.locator('svg[height="250"]')).toBeVisible();
  const link = await share.getByLabel('Invite link').inputValue();
  expect(link).toMatch(/\/group\/\d+\?inviteCode=[A-Za-z0-9_-]{6,20}$/);
  await share.getByRole('button', { name: 'Copy link' }).click();
  await expect(share.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await ownerPage.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // The confirmation lasts 2 s.
  await expect(share.getByRole('button', { name: 'Copy link' })).toBeVisible({ timeout: 4_000 });
  await ownerPage.keyboard.press('Escape');

  // A friend who has never signed in opens the link.
  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  const path = new URL(link).pathname + new URL(link).search;
  await friendPage.goto(path);
  await expect(friendPage).toHaveURL(/\/login\?returnUrl=/);
  await friendPage.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(friendPage).toHaveURL(/\/continue-as-guest\?returnUrl=/);
  await friendPage.getByLabel('Display name').fill('Sam Guest');
  await friendPage.getByRole('button', { name: 'Continue as Guest' }).click();

  await expect(friendPage.getByText('Group joined successfully!')).toBeVisible();
  await declinePushPrompt(friendPage);
  await expect(friendPage).toHaveURL(/\/group\/\d+$/);
  await expect(friendPage.getByRole('heading', { name: groupName, level: 1 })).toBeVisible();
  await expect(activeGroupButton(friendPage, groupName)).toBeVisible();
  await expectMembers(friendPage, [owner.person.displayName, 'Sam Guest']);

  await friendPage.getByRole('link', { name: 'Leaderboard' }).first().click();
  const friendTable = friendPage.getByRole('table', { name: `${groupName} standings` });
  await expect(friendTable.getByRole('row')).toHaveCount(3);
  await expect(friendTable.getByRole('rowheader', { name: /Sam Guest/ })).toContainText('You');
  await expect(
    friendTable.getByRole('rowheader', { name: owner.person.displayName }),
  ).toBeVisible();

  // The owner sees the friend too.
  await ownerPage.reload();
  await expectMembers(ownerPage, [owner.person.displayName, 'Sam Guest']);
  await ownerPage.goto('/leaderboard');
  const ownerTable = ownerPage.getByRole('table', { name: `${groupName} standings` });
  await expect(ownerTable.getByRole('rowheader', { name: 'Sam Guest' })).toBeVisible();
  await expect(
    ownerTable.getByRole('rowheader', { name: new RegExp(owner.person.displayName) }),
  ).toContainText('You');

  await ownerContext.close();
  await friendContext.close();
});

test('joining a public group by typing part of its name, then switching groups in the selector', async ({
  page,
  request,
}) => {
  const owner = await registerPlayer(request);
  const tag = Math.random().toString(36).slice(2, 7);
  const groupName = `Weather Watchers ${tag}`;
  await createGroupViaApi(request, owner, { name: groupName, privacy: 'public' });
  const other = await createGroupViaApi(request, owner, {
    name: `Derby Days ${tag}`,
    privacy: 'public',
  });
  const player = await registerPlayer(request);
  await joinViaApi(request, player, other.name);

  await openSignedIn(page, player.person);
  await expect(activeGroupButton(page, other.name)).toBeVisible();

  await activeGroupButton(page, other.name).click();
  const selector = page.getByRole('dialog', { name: 'Your groups' });
  await selector.getByRole('button', { name: 'Join', exact: true }).click();
  // Nothing chosen yet: the form says so.
  await selector.getByRole('button', { name: 'Join Group' }).click();
  await expect(selector.getByText('Please select a public group.')).toBeVisible();

  await selector.getByRole('combobox', { name: 'Group name' }).fill(`watchers ${tag}`);
  await selector.getByRole('option', { name: new RegExp(groupName) }).click();
  await selector.getByRole('button', { name: 'Join Group' }).click();
  await expect(page.getByText('Group joined successfully!')).toBeVisible();
  await declinePushPrompt(page);
  await expect(selector).toHaveCount(0);
  await expect(activeGroupButton(page, groupName)).toBeVisible();

  // The selector lists both; searching narrows it; choosing makes a group active.
  await activeGroupButton(page, groupName).click();
  const list = page
    .getByRole('dialog', { name: 'Your groups' })
    .getByRole('list', { name: 'My groups' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await page
    .getByRole('dialog', { name: 'Your groups' })
    .getByLabel('Search my groups')
    .fill('DERBY');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await list.getByRole('button', { name: new RegExp(other.name) }).click();
  await expect(activeGroupButton(page, other.name)).toBeVisible();
});

test('a wrong invite code shows the server’s error; a private group without a code opens the join dialog', async ({
  page,
  request,
}) => {
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Secret Club'),
    privacy: 'private',
    inviteCode: 'right-code-1',
  });
  const player = await registerPlayer(request);
  await openSignedIn(page, player.person);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Join Group' })).toBeVisible();

  // A link with a stale code: the dialog opens prefilled and says why.
  await page.goto(`/group/${group.id}?inviteCode=wrong-code-1`);
  const dialog = page.getByRole('dialog', { name: 'Join a Group' });
  await expect(dialog.getByRole('alert')).toContainText('Invalid invite code');
  await expect(dialog.getByRole('tab', { name: 'Private Group' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(dialog.getByLabel('Group ID')).toHaveValue(String(group.id));
  await expect(dialog.getByLabel('Invite code')).toHaveValue('wrong-code-1');
  await expect(
    page.getByRole('heading', { name: 'Group not found or inaccessible' }),
  ).toBeVisible();

  // Switching tabs clears the forms and the message.
  await dialog.getByRole('tab', { name: 'Public Group' }).click();
  await dialog.getByRole('tab', { name: 'Private Group' }).click();
  await expect(dialog.getByLabel('Group ID')).toHaveValue('');
  await expect(dialog.getByRole('alert')).toHaveCount(0);

  await dialog.getByLabel('Group ID').fill(String(group.id));
  await dialog.getByLabel('Invite code').fill('still-wrong');
  await dialog.getByRole('button', { name: 'Join Group' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Invalid invite code');

  await dialog.getByLabel('Invite code').fill('right-code-1');
  await dialog.getByRole('button', { name: 'Join Group' }).click();
  await expect(page.getByText('Group joined successfully!')).toBeVisible();
  await declinePushPrompt(page);
  await expect(page.getByRole('heading', { name: group.name, level: 1 })).toBeVisible();
});

test('an admin gives a private group a new invite code: the old code stops working, the new one joins', async ({
  page,
  request,
}) => {
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Back Room'),
    privacy: 'private',
    inviteCode: 'leaked-code-1',
  });
  await openSignedIn(page, owner.person, `/group/${group.id}`);
  const settings = page.getByRole('region', { name: 'Settings' });
  await expect(settings.getByText('leaked-code-1')).toBeVisible();
  await settings.getByRole('button', { name: 'New invite code' }).click();
  const confirm = page.getByRole('dialog', { name: 'Change the invite code?' });
  await confirm.getByRole('button', { name: 'New invite code' }).click();
  await expect(page.getByText('New invite code ready. Share the new link.')).toBeVisible();
  await expect(settings.getByText('leaked-code-1')).toHaveCount(0);
  const newCode = (await settings.locator('code').textContent()) ?? '';
  expect(newCode).toMatch(/^[A-Za-z0-9_-]{6,20}$/);

  const player = await registerPlayer(request);
  const join = async (inviteCode: string) =>
    request.post('/api/groups/join-private', {
      headers: await authHeaders(request, player),
      data: { groupId: group.id, inviteCode },
    });
  expect((await join('leaked-code-1')).status()).toBe(403);
  expect((await join(newCode)).status()).toBe(200);
});

test('a public group seen from outside offers Join group; leaving asks first', async ({
  page,
  request,
}) => {
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Open Table'),
    privacy: 'public',
    description: 'Anyone welcome.',
  });
  const player = await registerPlayer(request);
  await openSignedIn(page, player.person, `/group/${group.id}`);

  await expect(
    page.getByRole('heading', { name: "You're not a member of this group" }),
  ).toBeVisible();
  await expect(page.getByText('Join to participate and access member features.')).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Join group', exact: true }).click();
  await expect(page.getByText('Group joined successfully!')).toBeVisible();
  await declinePushPrompt(page);
  await expect(page.getByRole('heading', { name: group.name, level: 1 })).toBeVisible();
  await expect(activeGroupButton(page, group.name)).toBeVisible();

  await page.getByRole('button', { name: 'Leave group' }).click();
  const confirm = page.getByRole('dialog', { name: `Leave ${group.name}?` });
  await confirm.getByRole('button', { name: 'Leave group' }).click();
  await expect(page).toHaveURL(/\/group$/);
  await expect(page.getByRole('heading', { name: 'Join Your First Group!' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Join Group' })).toBeVisible();

  await page.goto('/group/999999');
  await expect(
    page.getByRole('heading', { name: 'Group not found or inaccessible' }),
  ).toBeVisible();
  await expect(page.getByText('You may need an invite code or membership.')).toBeVisible();
});

test('the creator is not offered Leave group: they stay in it', async ({ page, request }) => {
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, { name: uniqueGroupName('Home Team') });
  await openSignedIn(page, owner.person, `/group/${group.id}`);
  await expect(page.getByRole('heading', { name: group.name, level: 1 })).toBeVisible();
  await expect(page.getByText('You created this group, so you stay in it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Leave group' })).toHaveCount(0);
  for (const size of LOOKED_AT_SIZES) {
    await page.setViewportSize(size);
    await shootIfAsked(page, `group-creator-stays-${size.name}`, true);
  }
});

test('the leaderboard sorts Rank and Points ascending, descending, then back; search filters', async ({
  page,
  request,
}) => {
  const owner = await registerPlayer(request);
  const group = await createGroupViaApi(request, owner, {
    name: uniqueGroupName('Table Talk'),
    privacy: 'public',
  });
  const friend = await registerPlayer(request);
  await joinViaApi(request, friend, group.name);
  await openSignedIn(page, owner.person, '/leaderboard');
  const table = page.getByRole('table', { name: `${group.name} standings` });
  await expect(table.getByRole('row')).toHaveCount(3);
  const rank = table.getByRole('columnheader', { name: 'Rank' });
  await expect(rank).toHaveAttribute('aria-sort', 'none');
  await rank.getByRole('button').click();
  await expect(rank).toHaveAttribute('aria-sort', 'ascending');
  await rank.getByRole('button').click();
  await expect(rank).toHaveAttribute('aria-sort', 'descending');
  await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('2');
  await rank.getByRole('button').click();
  await expect(rank).toHaveAttribute('aria-sort', 'none');

  await page.getByPlaceholder('Search...').fill('zzz-nobody');
  await expect(table.getByText('No data to show')).toBeVisible();
  await page.getByPlaceholder('Search...').fill(friend.person.displayName);
  await expect(table.getByRole('row')).toHaveCount(2);
});
