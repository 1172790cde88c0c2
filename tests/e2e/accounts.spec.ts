import { expect } from '@playwright/test';
import { test } from './fixtures';
import {
  newPerson,
  openSignedIn,
  readMailedLink,
  readResetLink,
  registerViaApi,
  signIn,
  signInNewPlayer,
} from './accounts.helpers';

test('register → dashboard', async ({ page }) => {
  const person = newPerson();
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('First name').fill(person.firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  await page.getByLabel('Display name').fill(person.displayName);
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Confirm password').fill(person.password);
  await page.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Your Bet Queue' })).toBeVisible();
  await expect(page.getByText('No active bets in your groups')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your Resolve Queue' })).toBeVisible();
  await expect(page.getByText('No more bets to resolve for your groups.')).toBeVisible();
  // registration is always remembered: a window opened later (an app opened from a push)
  // is still signed in
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
  const later = await page.context().newPage();
  await later.goto('/profile');
  await expect(later.getByRole('heading', { name: 'Account Information' })).toBeVisible();
});

test('profile shows the account and Logout signs out', async ({ page, request }) => {
  const person = await signInNewPlayer(page, request);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible();
  await expect(page.getByText(person.email)).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // Nothing of the session is left once its forgetting is done (it may finish after the sign-in
  // screen shows; a start that finds it unfinished finishes it): the push device id is the
  // device's, not the user's (docs/groups-and-bets.md §3).
  const keysLeft = () =>
    page.evaluate(() =>
      [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter(
        (key) => !key.startsWith('push_device_id_'),
      ),
    );
  await expect.poll(keysLeft).toEqual([]);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fprofile$/);
});

test('edit profile saves and toasts "Profile Updated!"', async ({ page, request }) => {
  const person = await registerViaApi(request);
  await page.goto('/login?returnUrl=/profile');
  await signIn(page, person);
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  await dialog.getByLabel('Display name').fill('Robin the Bold');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile Updated!')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('main').getByText('Robin the Bold').first()).toBeVisible();
});

test('a new email waits for the link mailed to it, which the profile says', async ({
  page,
  request,
}) => {
  const person = await registerViaApi(request);
  const next = newPerson().email;
  await page.goto('/login?returnUrl=/profile');
  await signIn(page, person);
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  await dialog.getByLabel('Email', { exact: true }).fill(next);
  await dialog.getByLabel(/Current password/).fill(person.password);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile Updated!')).toBeVisible();
  await expect(
    page.getByText(`We sent a confirmation link to ${next}. Your email changes once you open it.`),
  ).toBeVisible();
  await expect(page.getByRole('main').getByText(person.email)).toBeVisible();

  await page.goto(await readMailedLink(next, 'confirm-email'));
  await expect(page.getByRole('heading', { name: 'Confirm your new email' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm New Email' }).click();
  await expect(page.getByText('Your email address has been changed.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to your profile' }).click();
  await expect(page.getByRole('main').getByText(next)).toBeVisible();
});

test('"Remember me" starts ticked and survives a new window; unticked, the session is the tab\'s', async ({
  browser,
  request,
}) => {
  const person = await registerViaApi(request);

  const remembered = await browser.newContext();
  const first = await remembered.newPage();
  await first.goto('/login');
  await expect(first.getByLabel('Remember me')).toBeChecked();
  await signIn(first, person);
  await expect(first).toHaveURL(/\/dashboard$/);
  // A window of its own, as an installed app's after the phone closed it: still signed in.
  const second = await remembered.newPage();
  await second.goto('/profile');
  await expect(second.getByRole('heading', { name: 'Account Information' })).toBeVisible();
  await remembered.close();

  const forgotten = await browser.newContext();
  const tab = await forgotten.newPage();
  await tab.goto('/login');
  await signIn(tab, person, { rememberMe: false });
  await expect(tab).toHaveURL(/\/dashboard$/);
  const other = await forgotten.newPage();
  await other.goto('/profile');
  await expect(other).toHaveURL(/\/login\?returnUrl=%2Fprofile$/);
  await forgotten.close();
});

test('an app opened from a push with only its refresh token left renews it instead of asking to sign in', async ({
  page,
  request,
}) => {
  const person = await registerViaApi(request);
  await openSignedIn(page, person, '/robots.txt');
  const refreshToken = await page.evaluate(() => {
    localStorage.removeItem('access_token');
    return localStorage.getItem('refresh_token');
  });
  const renewed = page.waitForResponse('**/auth/refresh-token');
  // The URL a push notification's click opens.
  await page.goto('/inbox');
  expect((await renewed).status()).toBe(200);
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('refresh_token')))
    .not.toBe(refreshToken);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
});

test('guest → warning icon → upgrade → icon gone', async ({ page }) => {
  const person = newPerson();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page).toHaveURL(/\/continue-as-guest$/);
  await expect(page.getByText('You can always create a full account later!')).toBeVisible();
  await page.getByLabel('Display name').fill('Sam the Oracle');
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const guestId = await page.evaluate(
    () => JSON.parse(localStorage.getItem('user_data')!).id as number,
  );

  const warning = page.getByRole('button', { name: 'Using Temporary Account' });
  await expect(warning).toBeVisible();
  await warning.click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade to a Full Account' });
  await expect(
    dialog.getByText('Save your progress, access all features, and keep your account secure.'),
  ).toBeVisible();
  await expect(dialog.getByRole('link', { name: /sign in|login/i })).toHaveCount(0);
  await expect(dialog.getByLabel('Display name')).toHaveValue('Sam the Oracle');
  await dialog.getByLabel('First name').fill(person.firstName);
  await dialog.getByLabel('Last name').fill(person.lastName);
  await dialog.getByLabel('Username').fill(person.username);
  await dialog.getByLabel('Email').fill(person.email);
  await dialog.getByLabel('Password', { exact: true }).fill(person.password);
  await dialog.getByLabel('Confirm password').fill(person.password);
  await dialog.getByRole('checkbox', { name: /I agree/ }).check();
  await dialog.getByRole('button', { name: 'Complete Registration' }).click();

  await expect(page.getByText('Account Upgraded!')).toBeVisible();
  await expect(warning).toHaveCount(0);
  // the same account (and so the same groups and points) carries on
  expect(
    await page.evaluate(() => JSON.parse(localStorage.getItem('user_data')!).id as number),
  ).toBe(guestId);
});

test('forgot password → the link from the outbox → reset → sign in with the new password', async ({
  page,
  request,
}) => {
  const person = await registerViaApi(request);
  await page.goto('/login');
  await page.getByLabel('Email').fill(person.email);
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  // The email typed on the sign-in form came along; it is not in the address.
  await expect(page.getByLabel('Email')).toHaveValue(person.email);
  expect(page.url()).not.toContain('example.com');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Password reset link has been sent to your email.')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('');

  const link = await readResetLink(person.email);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Create a new password' })).toBeVisible();
  const newPassword = 'Fresh-Start-99';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Your password has been reset successfully.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });

  await signIn(page, { email: person.email, password: newPassword });
  await expect(page).toHaveURL(/\/dashboard$/);
});
