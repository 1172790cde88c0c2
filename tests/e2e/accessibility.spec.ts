import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { openSignedIn, signInNewPlayer } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { closeBettingNow, seedBetTable } from './bets.helpers';
import {
  activeGroupButton,
  authHeaders,
  createGroupViaApi,
  joinPrivateViaApi,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';
import { walkPushAndOfflineStates } from './push.helpers';

// axe-core finds no violation on any screen, each visited once and checked in the light theme
// and then the dark one (expectAccessible; docs/conventions.md, Accessible).

// The pages drawn at build time: each a small static file, visited in turn in one page.
const STATIC_PAGES = [
  '/landing',
  '/how-it-works',
  '/about',
  '/blog',
  '/terms-conditions',
  '/privacy-policy',
];

test('no axe violations on the public pages', async ({ page }) => {
  for (const path of STATIC_PAGES) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    await expectAccessible(page, path);
  }
});

/** Follows an in-app link or button to the screen at `path`, without a reload. */
async function followTo(page: Page, role: 'link' | 'button', name: string, path: string) {
  await page.getByRole(role, { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.locator('h1').first()).toBeVisible();
}

/** Opens a tab of the app's navigation (client-side, no reload). */
async function openTab(page: Page, label: 'Leaderboard' | 'Group' | 'Profile', path: string) {
  await page.getByRole('link', { name: label, exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.locator('h1').first()).toBeAttached();
}

// The signed-out screens of the app, then a guest's: two full loads, the others reached as a
// visitor does, through the app's own links (no reload of the app between them).
test('no axe violations on the signed-out screens, a guest profile and the upgrade modal', async ({
  page,
}) => {
  await page.goto('/reset-password');
  await expect(page.locator('h1').first()).toBeVisible();
  await expectAccessible(page, '/reset-password');
  await page.goto('/reset-password/some-token');
  await expect(page.locator('h1').first()).toBeVisible();
  await expectAccessible(page, '/reset-password/some-token');
  await followTo(page, 'link', 'Back to Login', '/login');
  await expectAccessible(page, '/login');
  await followTo(page, 'button', 'Forgot your password?', '/forgot-password');
  await expectAccessible(page, '/forgot-password');
  await followTo(page, 'link', 'Back to Login', '/login');
  await followTo(page, 'link', 'Sign up', '/register');
  await expectAccessible(page, '/register');
  await followTo(page, 'link', 'Sign in', '/login');
  await followTo(page, 'button', 'Continue as Guest', '/continue-as-guest');
  await expectAccessible(page, '/continue-as-guest');
  await page.getByLabel('Display name').fill('Axe Guest');
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await openTab(page, 'Profile', '/profile');
  await expect(page.getByRole('heading', { name: "You're playing as a guest" })).toBeVisible();
  await expectAccessible(page, 'guest profile');
  await page.getByRole('button', { name: 'Using Temporary Account' }).click();
  await expect(page.getByRole('dialog', { name: 'Upgrade to a Full Account' })).toBeVisible();
  await expectAccessible(page, 'upgrade modal');
});

// /group without a group is checked by the group screens' test below.
test('no axe violations on the signed-in screens and the account modals', async ({
  page,
  request,
}) => {
  await signInNewPlayer(page, request);
  await expectAccessible(page, '/dashboard');
  await openTab(page, 'Profile', '/profile');
  await expectAccessible(page, '/profile');
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit Profile' })).toBeVisible();
  await expectAccessible(page, 'edit-account modal');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('dialog', { name: 'Delete your account?' })).toBeVisible();
  await expectAccessible(page, 'delete-account modal');
  await page.keyboard.press('Escape');
  await openTab(page, 'Leaderboard', '/leaderboard');
  await expectAccessible(page, '/leaderboard');
});

test('no axe violations on the group screens and modals', async ({ page, request }) => {
  const player = await registerPlayer(request);
  await openSignedIn(page, player.person, '/group');
  await expect(page.getByRole('heading', { name: 'Join Your First Group!' })).toBeVisible();
  await expectAccessible(page, '/group without a group');
  await page.getByRole('banner').getByRole('button', { name: 'Join Group' }).click();
  const join = page.getByRole('dialog', { name: 'Join a Group' });
  await join.getByRole('button', { name: 'Join Group' }).click();
  await expect(join.getByText('Please select a public group.')).toBeVisible();
  await expectAccessible(page, 'join modal, public tab');
  await join.getByRole('tab', { name: 'Private Group' }).click();
  await expectAccessible(page, 'join modal, private tab');
  await page.keyboard.press('Escape');

  const group = await createGroupViaApi(request, player, {
    name: uniqueGroupName('Axe Club'),
    privacy: 'private',
    description: 'Checked by axe.',
  });
  await page.goto(`/group/${group.id}`);
  await expect(page.getByRole('heading', { name: group.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Members' })).toBeVisible();
  await expectAccessible(page, '/group/{id}');
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(
    page.getByRole('dialog', { name: `Share ${group.name}` }).locator('svg[height="250"]'),
  ).toBeVisible();
  await expectAccessible(page, 'share modal');
  await page.keyboard.press('Escape');
  await activeGroupButton(page, group.name).click();
  await expect(page.getByRole('list', { name: 'My groups' })).toBeVisible();
  await expectAccessible(page, 'group selector');
  await page.keyboard.press('Escape');
  await openTab(page, 'Group', '/group');
  await expectAccessible(page, '/group');
  await openTab(page, 'Leaderboard', '/leaderboard');
  await expectAccessible(page, '/leaderboard');
  for (const path of ['/group/create', '/group/999999']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeAttached();
    await expectAccessible(page, path);
  }
});

test('no axe violations on the bet screens and the bet modal', async ({ page, request }) => {
  const me = await registerPlayer(request);
  const friend = await registerPlayer(request);
  const other = await registerPlayer(request);
  const group = await createGroupViaApi(request, me, {
    name: uniqueGroupName('Axe Bets'),
    privacy: 'private',
  });
  for (const player of [friend, other])
    await joinPrivateViaApi(request, player, group.id, group.inviteCode!);
  const bets = await seedBetTable(request, { me, friend, other }, group.id);
  await openSignedIn(page, me.person);
  await expect(page.getByRole('heading', { name: 'Who wins the quiz?' }).first()).toBeVisible();
  await expectAccessible(page, 'dashboard with queues');
  await page.goto(`/bets/${bets.open.id}`);
  await page.getByRole('button', { name: /^Rain/ }).click();
  await page.getByRole('button', { name: '3x', exact: true }).click();
  await expect(page.getByText(/If you win: about/)).toBeVisible();
  await expectAccessible(page, 'bet card');
  await page.goto(`/bets/${bets.toResolve.id}`);
  const resolveCard = page.getByRole('article', { name: /^Resolve this bet/ });
  await closeBettingNow(resolveCard);
  await resolveCard.getByRole('button', { name: /^Alex/ }).click();
  await resolveCard.getByRole('button', { name: 'Resolve Bet' }).click();
  await expectAccessible(page, 'resolve confirmation');
  await page.goto(`/bets/${bets.resolved.id}`);
  await expect(page.getByRole('heading', { name: 'Answer Distribution' })).toBeVisible();
  await expectAccessible(page, 'results panel');
  await page.goto(`/group/${group.id}/bets`);
  await expect(page.getByRole('link', { name: /Place Bet/ }).first()).toBeVisible();
  await expectAccessible(page, '/group/{id}/bets');
  await page.getByRole('button', { name: 'Bet', exact: true }).first().click();
  const modal = page.getByRole('dialog', { name: 'Create a Bet' });
  await modal.getByRole('button', { name: 'Next' }).click({ force: true });
  await expect(modal.getByText('Title is required')).toBeVisible();
  await expectAccessible(page, 'bet modal, details');
  await modal.getByLabel('Title').fill('Axe bet');
  await modal.getByRole('button', { name: 'Next' }).click();
  await modal.getByText('Multiple choice', { exact: true }).click();
  await expectAccessible(page, 'bet modal, type');
});

test('no axe violations on the tipping round screens and sheets', async ({ page, request }) => {
  const admin = await registerPlayer(request);
  const group = await createGroupViaApi(request, admin, { name: uniqueGroupName('Axe rounds') });
  const kickoff = new Date(Date.now() + 24 * 3_600_000).toISOString();
  const created = await request.post(`/api/groups/${group.id}/rounds`, {
    headers: await authHeaders(request, admin),
    data: { name: 'Matchday 1', matches: [{ home: 'Ajax', away: 'PSV', kickoff }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const round = (await created.json()) as { id: number };

  await openSignedIn(page, admin.person, `/group/${group.id}/rounds`);
  await expect(page.getByRole('table', { name: 'Season total' })).toBeVisible();
  await expectAccessible(page, 'rounds list');
  await page.getByRole('button', { name: 'New round' }).click();
  await expect(page.getByRole('dialog', { name: 'New round' })).toBeVisible();
  await expectAccessible(page, 'new round sheet');
  await page.keyboard.press('Escape');
  await page.goto(`/group/${group.id}/rounds/${round.id}`);
  await expect(page.getByLabel('Ajax goals', { exact: true })).toBeVisible();
  await expectAccessible(page, 'round page');
  await page.getByRole('button', { name: 'Edit points' }).click();
  await expect(page.getByRole('dialog', { name: 'Round points' })).toBeVisible();
  await expectAccessible(page, 'round points sheet');
});

// Push and offline: the join prompt, the profile's push card on, off and
// blocked, and the offline indicator. The push service is a stand-in (push.helpers.ts).
test.describe('push and offline states', () => {
  test.use({ serviceWorkers: 'allow' });
  test('no axe violations on the push prompt, the push card and the offline indicator', async ({
    browser,
    baseURL,
    request,
  }) => {
    await walkPushAndOfflineStates({ browser, baseURL: baseURL!, request }, {}, (page, state) =>
      expectAccessible(page, state),
    );
  });
});
