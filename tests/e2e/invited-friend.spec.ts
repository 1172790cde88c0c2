import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { newPerson, openSignedIn, readResetLink, signIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import {
  activeGroupButton,
  createGroupViaApi,
  declinePushPrompt,
  registerPlayer,
  uniqueGroupName,
  type CreatedGroup,
  type Player,
} from './groups.helpers';
import { shootIfAsked } from './screens.helpers';

// Issue #24, "The invited friend", at phone size: (1) signed out, an invite link names the
// group and who invited, and every way in (sign up, sign in, a forgotten password and back,
// a password reset through the mail, guest) ends inside the group; (2) without opening the
// link, the "Private Group" form takes the pasted link, a code in the wrong case still works,
// and the share sheet shows the id and code as text beside copy, QR and the phone's own share
// sheet.

interface Invite {
  ana: Player;
  group: CreatedGroup;
  /** The path of the share link: /group/{id}?inviteCode=… */
  path: string;
}

async function anaInvites({ request }: { request: Page['request'] }): Promise<Invite> {
  const ana = await registerPlayer(request);
  const group = await createGroupViaApi(request, ana, {
    name: uniqueGroupName('Thursday Crew'),
    privacy: 'private',
  });
  return { ana, group, path: `/group/${group.id}?inviteCode=${group.inviteCode!}` };
}

function invitedNote(page: Page, { ana, group }: Invite) {
  return page.getByRole('heading', {
    name: `${ana.person.displayName} invited you to ${group.name}`,
  });
}

async function expectInsideGroup(page: Page, { ana, group }: Invite, me: string) {
  await expect(page.getByText('Group joined successfully!')).toBeVisible();
  await declinePushPrompt(page);
  await expect(page).toHaveURL(new RegExp(`/group/${group.id}$`));
  await expect(page.getByRole('heading', { name: group.name, level: 1 })).toBeVisible();
  await expect(activeGroupButton(page, group.name)).toBeVisible();
  const members = page.getByRole('list', { name: 'Members' });
  await expect(members.getByText(ana.person.displayName, { exact: true })).toBeVisible();
  await expect(members.getByText(me, { exact: true })).toBeVisible();
}

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test('the invited friend who signs up is told who invited them to what, and lands inside the group', async ({
  browser,
  request,
}) => {
  const invite = await anaInvites({ request });
  const page = await freshPage(browser);
  await page.goto(invite.path);
  await expect(page).toHaveURL(/\/login\?returnUrl=/);
  await expect(invitedNote(page, invite)).toBeVisible();
  await shootIfAsked(page, 'invite-login-phone');
  await expectAccessible(page, 'login with an invite');

  await page.getByRole('link', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(invitedNote(page, invite)).toBeVisible();
  await expectAccessible(page, 'register with an invite');
  // Name, email and password: display name and username follow the first name.
  const person = newPerson();
  const firstName = `Kit${person.username.slice(-6).replace(/\W/g, '')}`;
  await page.getByLabel('First name').fill(firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  await expect(page.getByLabel('Display name')).toHaveValue(firstName);
  await expect(page.getByLabel('Username')).toHaveValue(
    new RegExp(`^${firstName.toLowerCase()}\\d{2}$`),
  );
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Confirm password').fill(person.password);
  await page.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expectInsideGroup(page, invite, firstName);
  // Signed up, the friend stays signed in: a window opened later (from a push) is theirs.
  const later = await page.context().newPage();
  await later.goto(`/group/${invite.group.id}`);
  await expect(later.getByRole('heading', { name: invite.group.name, level: 1 })).toBeVisible();
  await page.context().close();
});

test('the invited friend who forgot their password goes back and signs in: inside the group', async ({
  browser,
  request,
}) => {
  const invite = await anaInvites({ request });
  const friend = await registerPlayer(request);
  const page = await freshPage(browser);
  await page.goto(invite.path);
  await expect(invitedNote(page, invite)).toBeVisible();

  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(invitedNote(page, invite)).toBeVisible();
  await expectAccessible(page, 'forgot password with an invite');
  await page.getByRole('link', { name: 'Back to Login' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(invitedNote(page, invite)).toBeVisible();

  // Sign up and back to sign in keeps it as well.
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(invitedNote(page, invite)).toBeVisible();

  await signIn(page, friend.person);
  await expectInsideGroup(page, invite, friend.person.displayName);
  await page.context().close();
});

test('the invited friend who resets a forgotten password by mail signs in inside the group', async ({
  browser,
  request,
}) => {
  const invite = await anaInvites({ request });
  const friend = await registerPlayer(request);
  const page = await freshPage(browser);
  await page.goto(invite.path);
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  // The sign-in form has an Email field too: fill the reset form's once it is drawn.
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill(friend.person.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Password reset link has been sent to your email.')).toBeVisible();

  // The mail carries no invite: this browser keeps it across the round trip.
  const link = await readResetLink(friend.person.email);
  expect(link).not.toContain(invite.group.inviteCode!);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Create a new password' })).toBeVisible();
  await expect(invitedNote(page, invite)).toBeVisible();
  await expectAccessible(page, 'reset password with an invite');
  await shootIfAsked(page, 'invite-reset-password-phone');
  const password = 'Fresh-Start-99';
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Your password has been reset successfully.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(invitedNote(page, invite)).toBeVisible();

  await signIn(page, { email: friend.person.email, password });
  await expectInsideGroup(page, invite, friend.person.displayName);
  await page.context().close();
});

test('the invited friend who plays as a guest, after a look at signing in, lands inside the group', async ({
  browser,
  request,
}) => {
  const invite = await anaInvites({ request });
  const page = await freshPage(browser);
  await page.goto(invite.path);
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page.getByRole('heading', { name: 'Play as a guest' })).toBeVisible();
  await expect(invitedNote(page, invite)).toBeVisible();
  await expectAccessible(page, 'guest with an invite');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(invitedNote(page, invite)).toBeVisible();
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await page.getByLabel('Display name').fill('Sam Guest');
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expectInsideGroup(page, invite, 'Sam Guest');
  await page.context().close();
});

const incomplete = (page: Page) =>
  page.getByRole('heading', { name: 'This invite link is incomplete — ask for a new one' });

test('a wrong invite code names nobody and nothing, and says the link is incomplete', async ({
  browser,
  request,
}) => {
  const invite = await anaInvites({ request });
  const page = await freshPage(browser);
  const lookup = page.waitForResponse('**/api/invites/preview');
  await page.goto(`/group/${invite.group.id}?inviteCode=not-the-code`);
  expect((await lookup).status()).toBe(403);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(incomplete(page)).toBeVisible();
  await expect(page.getByText(/invited you to/)).toHaveCount(0);
  await expect(page.getByText(invite.group.name)).toHaveCount(0);
  await page.context().close();
});

test('a cut-off invite link says so on the way to an account, before any is made', async ({
  browser,
  request,
}) => {
  const invite = await anaInvites({ request });
  const page = await freshPage(browser);
  // The code lost its last characters: the server refuses it.
  await page.goto(invite.path.slice(0, -3));
  await expect(incomplete(page)).toBeVisible();
  await page.getByRole('link', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(incomplete(page)).toBeVisible();
  await expect(page.getByText(/invited you to/)).toHaveCount(0);
  // Cut inside "inviteCode=": no code to ask about, and still said at once.
  await page.goto(`/group/${invite.group.id}?inviteCo`);
  await expect(page).toHaveURL(/\/login\?returnUrl=/);
  await expect(incomplete(page)).toBeVisible();
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page.getByRole('heading', { name: 'Play as a guest' })).toBeVisible();
  await expect(incomplete(page)).toBeVisible();
  await page.context().close();
});

test('the share sheet shows the id and code; a pasted link or a code in the wrong case joins', async ({
  browser,
  request,
}) => {
  const invite = await anaInvites({ request });
  const { ana, group } = invite;

  // Ana opens Share: the id and code as text, copy, QR and the phone's own share sheet.
  const anaPage = await freshPage(browser);
  await anaPage.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.defineProperty(window, '__shared', { value: shared });
    Object.defineProperty(navigator, 'share', {
      value: (data: ShareData) => {
        shared.push(data);
        return Promise.resolve();
      },
    });
  });
  await openSignedIn(anaPage, ana.person, `/group/${group.id}`);
  await anaPage.getByRole('button', { name: 'Share' }).click();
  const share = anaPage.getByRole('dialog', { name: `Share ${group.name}` });
  await expect(share.getByText('Scan the QR code to join the group')).toBeVisible();
  await expect(share.getByRole('term').filter({ hasText: 'Group ID' })).toBeVisible();
  await expect(share.getByRole('definition').first()).toHaveText(String(group.id));
  await expect(share.getByRole('definition').nth(1)).toHaveText(group.inviteCode!);
  await expect(share.getByRole('button', { name: 'Copy link' })).toBeVisible();
  const link = await share.getByLabel('Invite link').inputValue();
  await shootIfAsked(anaPage, 'invite-share-phone');
  await expectAccessible(anaPage, 'share sheet');
  await share.getByRole('button', { name: 'Share…' }).click();
  await expect
    .poll(() => anaPage.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared))
    .toEqual([{ title: `Join ${group.name} on Hunch`, url: link }]);
  await anaPage.context().close();

  // Bo pastes the whole link into the Private Group form.
  const bo = await registerPlayer(request);
  const boPage = await freshPage(browser);
  await openSignedIn(boPage, bo.person);
  await boPage.getByRole('banner').getByRole('button', { name: 'Join Group' }).click();
  const join = boPage.getByRole('dialog', { name: 'Join a Group' });
  await join.getByRole('tab', { name: 'Private Group' }).click();
  await join.getByLabel('Group ID').fill(link);
  await expect(join.getByLabel('Group ID')).toHaveValue(String(group.id));
  await expect(join.getByLabel('Invite code')).toHaveValue(group.inviteCode!);
  await expectAccessible(boPage, 'join form with a pasted link');
  await join.getByRole('button', { name: 'Join Group' }).click();
  await expect(boPage.getByText('Group joined successfully!')).toBeVisible();
  await declinePushPrompt(boPage);
  await expect(activeGroupButton(boPage, group.name)).toBeVisible();
  await boPage.context().close();

  // Cy types the id and the code read out, in the wrong case.
  const cy = await registerPlayer(request);
  const cyPage = await freshPage(browser);
  await openSignedIn(cyPage, cy.person);
  await cyPage.getByRole('banner').getByRole('button', { name: 'Join Group' }).click();
  const cyJoin = cyPage.getByRole('dialog', { name: 'Join a Group' });
  await cyJoin.getByRole('tab', { name: 'Private Group' }).click();
  await cyJoin.getByLabel('Group ID').fill(String(group.id));
  const swapped = [...group.inviteCode!]
    .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
    .join('');
  await cyJoin.getByLabel('Invite code').fill(swapped);
  await cyJoin.getByRole('button', { name: 'Join Group' }).click();
  await expect(cyPage.getByText('Group joined successfully!')).toBeVisible();
  await declinePushPrompt(cyPage);
  await expect(activeGroupButton(cyPage, group.name)).toBeVisible();
  await cyPage.context().close();
});
