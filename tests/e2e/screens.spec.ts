import { expect } from '@playwright/test';
import { test } from './fixtures';
import { newPerson, registerViaApi, signIn } from './accounts.helpers';
import { waitForStillPage } from './axe.helpers';
import {
  activeGroupButton,
  createGroupViaApi,
  joinPrivateViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';
import { closeBettingNow, createBetViaApi, seedBetTable, wagerViaApi } from './bets.helpers';
import { commentThread, commentViaApi } from './comments.helpers';
import { walkPushAndOfflineStates, type PushScreenState } from './push.helpers';
import { SCREEN_SIZES, SCREENS_DIR, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots for a person to look at (not compared): every account screen and a few public
// ones at the phone reference (390×844) and a desktop (1280×800), light and dark, in
// .tmp/screens/. Opt-in, as it is for looking, not for testing: HUNCH_SCREENSHOTS=1.

for (const size of SCREEN_SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`screens at ${size.name} ${colorScheme}`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const tag = `${size.name}-${colorScheme}`;
      for (const path of [
        '/landing',
        '/login',
        '/register',
        '/continue-as-guest',
        '/forgot-password',
        '/reset-password/abc',
        '/reset-password',
      ]) {
        await page.goto(path);
        await shoot(page, `${tag}${path.replaceAll('/', '-')}`);
      }
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await shoot(page, `${tag}-login-errors`);

      const person = await registerViaApi(request);
      await signIn(page, person);
      await expect(page).toHaveURL(/\/dashboard$/);
      await shoot(page, `${tag}-dashboard`);
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible();
      await shoot(page, `${tag}-profile`);
      await page.getByRole('button', { name: 'Edit' }).click();
      await shoot(page, `${tag}-edit-modal`);
      await page.keyboard.press('Escape');
      await page
        .getByRole('heading', { name: 'Your data' })
        .evaluate((heading) => heading.scrollIntoView({ block: 'center' }));
      await shoot(page, `${tag}-profile-your-data`);
      await page.getByRole('button', { name: 'Delete account' }).click();
      const deleteDialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await shoot(page, `${tag}-delete-account-modal`);
      await deleteDialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect(deleteDialog.getByText('Enter your current password')).toBeVisible();
      await shoot(page, `${tag}-delete-account-modal-error`);
      await page.keyboard.press('Escape');
      await page.goto('/group');
      await shoot(page, `${tag}-group`);

      await page.goto('/profile');
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.goto('/continue-as-guest');
      await page.getByLabel('Display name').fill('Sam the Oracle');
      await page.getByRole('button', { name: 'Continue as Guest' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: "You're playing as a guest" })).toBeVisible();
      await shoot(page, `${tag}-guest-profile`);
      await page.getByRole('button', { name: 'Delete account' }).click();
      await shoot(page, `${tag}-guest-delete-account-modal`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Using Temporary Account' }).click();
      await shoot(page, `${tag}-upgrade-modal`);
    });
  }
}

for (const size of SCREEN_SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`group screens at ${size.name} ${colorScheme}`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const tag = `${size.name}-${colorScheme}`;
      const player = await registerPlayer(request);
      await page.goto('/login');
      await signIn(page, player.person);
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto('/group');
      await expect(page.getByRole('heading', { name: 'Join Your First Group!' })).toBeVisible();
      await shoot(page, `${tag}-group-none`);
      await page.getByRole('banner').getByRole('button', { name: 'Join Group' }).click();
      await shoot(page, `${tag}-join-modal`);
      await page.getByRole('dialog').getByRole('tab', { name: 'Private Group' }).click();
      await shoot(page, `${tag}-join-modal-private`);
      await page.keyboard.press('Escape');
      await page.goto('/group/create');
      await page.getByRole('radio', { name: /Private/ }).check();
      await page.getByRole('button', { name: 'Create Group' }).click();
      await shoot(page, `${tag}-group-create`, true);

      const group = await createGroupViaApi(request, player, {
        name: uniqueGroupName('Friday Forecasters'),
        privacy: 'private',
        description: 'Our weekly calls on sport, weather and who is late again.',
      });
      await createGroupViaApi(request, player, {
        name: uniqueGroupName('Book Club'),
        privacy: 'public',
      });
      for (const name of ['Sam Guest', 'Alex Rivera']) {
        const friend = await registerPlayer(request, { ...newPerson(), displayName: name });
        await joinPrivateViaApi(request, friend, group.id, group.inviteCode!);
      }
      await page.goto(`/group/${group.id}`);
      await expect(page.getByRole('list', { name: 'Members' })).toBeVisible();
      await shoot(page, `${tag}-group-details`, true);
      await page.getByRole('button', { name: 'Share' }).click();
      await shoot(page, `${tag}-share-modal`);
      await page.keyboard.press('Escape');
      await page.goto('/group');
      await shoot(page, `${tag}-group-active`);
      await activeGroupButton(page, group.name).click();
      await shoot(page, `${tag}-group-selector`);
      await page.keyboard.press('Escape');
      await page.goto('/leaderboard');
      await expect(page.getByRole('table')).toBeVisible();
      await shoot(page, `${tag}-leaderboard`);
    });
  }
}

// Bets: the dashboard's queues, the creation steps, the bet card with odds, the
// resolve confirmation, the results panel and the group's bet list.
for (const size of SCREEN_SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`bet screens at ${size.name} ${colorScheme}`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const tag = `${size.name}-${colorScheme}`;
      const me = await registerPlayer(request);
      const friend = await registerPlayer(request, { ...newPerson(), displayName: 'Sam Guest' });
      const other = await registerPlayer(request, { ...newPerson(), displayName: 'Alex Rivera' });
      const group = await createGroupViaApi(request, me, {
        name: uniqueGroupName('Friday Forecasters'),
        privacy: 'private',
      });
      for (const player of [friend, other])
        await joinPrivateViaApi(request, player, group.id, group.inviteCode!);
      const bets = await seedBetTable(request, { me, friend, other }, group.id);

      await page.goto('/login');
      await signIn(page, me.person);
      // The soonest to close leads both queues.
      await expect(page.getByRole('heading', { name: 'Who wins the quiz?' }).first()).toBeVisible();
      await shoot(page, `${tag}-dashboard-queues`, true);

      await page.goto(`/bets/${bets.open.id}`);
      await page.getByRole('button', { name: /^Rain/ }).click();
      await page.getByRole('button', { name: '2x', exact: true }).click();
      await expect(page.getByText(/If you win: about/)).toBeVisible();
      await shoot(page, `${tag}-bet-card-odds`, true);

      await page.goto(`/bets/${bets.toResolve.id}`);
      const resolveCard = page.getByRole('article', { name: /^Resolve this bet/ });
      await closeBettingNow(resolveCard);
      await resolveCard.getByRole('button', { name: /^Alex/ }).click();
      await resolveCard.getByRole('button', { name: 'Resolve Bet' }).click();
      await expect(resolveCard.getByText('This action cannot be undone.')).toBeVisible();
      await shoot(page, `${tag}-resolve-confirm`, true);

      await page.goto(`/bets/${bets.resolved.id}`);
      await expect(page.getByRole('heading', { name: 'Answer Distribution' })).toBeVisible();
      await shoot(page, `${tag}-results-panel`, true);

      await page.goto(`/group/${group.id}/bets`);
      await expect(page.getByRole('link', { name: /Place Bet/ }).first()).toBeVisible();
      await shoot(page, `${tag}-group-bets`, true);
      await page.getByRole('tab', { name: 'Resolved' }).click();
      await shoot(page, `${tag}-group-bets-resolved`);

      await page.goto('/dashboard');
      await (
        size.width < 700 ? page.getByRole('navigation', { name: 'Main' }) : page.getByRole('banner')
      )
        .getByRole('button', { name: 'Bet' })
        .click();
      const modal = page.getByRole('dialog', { name: 'Create a Bet' });
      await modal.getByLabel('Title').fill('How many goals on Sunday?');
      await shoot(page, `${tag}-create-bet-details`);
      await modal.getByRole('button', { name: 'Next' }).click();
      await modal.getByText('Multiple choice', { exact: true }).click();
      await modal.getByLabel('Option 1', { exact: true }).fill('None');
      await modal.getByLabel('Option 2', { exact: true }).fill('One or two');
      await modal.getByRole('button', { name: 'Add option' }).click();
      await shoot(page, `${tag}-create-bet-type`);
      await page.keyboard.press('Escape');

      // Offline: a wager and a bet made with no network show at once, pending.
      await page.goto(`/bets/${bets.open.id}`);
      await page.context().setOffline(true);
      const card = page.getByRole('article', { name: 'Place your wager' });
      await card.getByRole('button', { name: /^Rain/ }).click();
      await card.getByRole('button', { name: 'Submit Prediction' }).click();
      await expect(card.getByTestId('pending-badge')).toBeVisible();
      await shoot(page, `${tag}-wager-pending`, true);
      await activeGroupButton(page, group.name).click();
      await shoot(page, `${tag}-group-selector-pending`);
      await page.keyboard.press('Escape');
      await (
        size.width < 700 ? page.getByRole('navigation', { name: 'Main' }) : page.getByRole('banner')
      )
        .getByRole('button', { name: 'Bet' })
        .click();
      await modal.getByLabel('Title').fill('Pizza or tacos tonight?');
      await modal.getByRole('button', { name: 'Next' }).click();
      await modal.getByRole('button', { name: 'Create Bet' }).click();
      await expect(page).toHaveURL(new RegExp(`/group/${group.id}/bets$`));
      await expect(page.getByRole('heading', { name: /Pizza or tacos tonight/ })).toBeVisible();
      await shoot(page, `${tag}-group-bets-pending`, true);
      // The sync status sheet: both writes waiting, and when data was last updated.
      await page.getByRole('button', { name: 'Details' }).click();
      await expect(page.getByRole('dialog', { name: 'Sync status' })).toBeVisible();
      await shoot(page, `${tag}-sync-status`);
      await page.keyboard.press('Escape');
      await page.context().setOffline(false);
    });
  }
}

// Push and offline: the join prompt, the profile's push card off, on and
// blocked, and the offline indicator.
for (const size of SCREEN_SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`push and offline screens at ${size.name} ${colorScheme}`, async ({
      browser,
      baseURL,
      request,
    }) => {
      const tag = `${size.name}-${colorScheme}`;
      const names: Record<PushScreenState, [string, boolean]> = {
        'push prompt': ['push-prompt', false],
        'push card, off': ['profile-push-off', true],
        'push card, on': ['profile-push-on', true],
        // Offline there is no network to wait for: a plain screenshot.
        'offline indicator': ['offline', false],
        'push card, blocked': ['profile-push-blocked', true],
      };
      await walkPushAndOfflineStates(
        { browser, baseURL: baseURL!, request },
        { colorScheme, viewport: size },
        async (page, state) => {
          const [name, fullPage] = names[state];
          if (state === 'offline indicator') {
            await waitForStillPage(page);
            await page.screenshot({ path: `${SCREENS_DIR}/${tag}-${name}.png` });
          } else await shoot(page, `${tag}-${name}`, fullPage);
        },
      );
    });
  }
}

// Comments: the thread on a bet's page (empty, then a conversation with a pending
// comment written offline), the delete confirmation, and the count on the bet cards.
for (const size of SCREEN_SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`comment screens at ${size.name} ${colorScheme}`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(size);
      const tag = `${size.name}-${colorScheme}`;
      const me = await registerPlayer(request);
      const friend = await registerPlayer(request, { ...newPerson(), displayName: 'Sam Guest' });
      const other = await registerPlayer(request, { ...newPerson(), displayName: 'Alex Rivera' });
      const group = await createGroupViaApi(request, me, {
        name: uniqueGroupName('Friday Forecasters'),
      });
      for (const player of [friend, other]) await joinViaApi(request, player, group.name);
      const quiet = await createBetViaApi(request, friend, {
        groupId: group.id,
        title: 'Will the quiz start on time?',
      });
      const bet = await createBetViaApi(request, friend, {
        groupId: group.id,
        title: 'Will Alex be late again on Friday?',
        description: 'Doors at 8. Late means after the first round starts.',
      });
      await wagerViaApi(request, friend, bet.id, 'yes', 2);
      await commentViaApi(
        request,
        friend,
        bet.id,
        'Free points, honestly. Has he ever been on time?',
      );
      await commentViaApi(request, other, bet.id, 'Excuse me. I was early in March.');
      await commentViaApi(
        request,
        friend,
        bet.id,
        'Once. And you brought the wrong quiz sheets.\nStill counts as late in my book.',
      );

      await page.goto('/login');
      await signIn(page, me.person);
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto(`/bets/${quiet.id}`);
      await expect(commentThread(page).getByText('No comments yet.')).toBeVisible();
      await shoot(page, `${tag}-comments-empty`, true);

      await page.goto(`/bets/${bet.id}`);
      await expect(commentThread(page).getByRole('listitem')).toHaveCount(3);
      await page.context().setOffline(true);
      await commentThread(page)
        .getByLabel('Add a comment')
        .fill('Bold of you both. Pasta says he shows up with cake.');
      await commentThread(page).getByRole('button', { name: 'Send' }).click();
      await expect(commentThread(page).getByTestId('pending-badge')).toBeVisible();
      await shoot(page, `${tag}-comments-thread`, true);
      await page.context().setOffline(false);
      await expect(commentThread(page).getByTestId('pending-badge')).toHaveCount(0);

      await commentThread(page)
        .getByRole('button', { name: 'Delete comment by Alex Rivera' })
        .click();
      await expect(page.getByRole('dialog', { name: 'Delete this comment?' })).toBeVisible();
      await shoot(page, `${tag}-comments-delete-confirm`);
      await page.keyboard.press('Escape');

      await page.goto(`/group/${group.id}/bets`);
      await expect(page.getByTestId('comment-count').first()).toBeVisible();
      await shoot(page, `${tag}-group-bets-comment-count`, true);
      await page.goto('/dashboard');
      await expect(page.getByTestId('comment-count').first()).toBeVisible();
      await shoot(page, `${tag}-dashboard-comment-count`, true);
    });
  }
}
