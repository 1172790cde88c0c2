import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { registerViaApi, signIn } from './accounts.helpers';

// Every validation message of docs/accounts-and-shell.md §5 appears under its field, once the field is touched.

const errorOf = (page: Page, label: string, exact = true) =>
  page.getByLabel(label, { exact }).locator('xpath=ancestor::div[.//label][1]').locator('p');

async function touch(page: Page, label: string, value?: string) {
  const field = page.getByLabel(label, { exact: true });
  if (value === undefined) {
    await field.focus();
  } else {
    await field.fill(value);
  }
  await field.blur();
}

test.describe('login form', () => {
  test('an invalid submit marks every field touched and sends nothing', async ({ page }) => {
    await page.goto('/login');
    let sent = false;
    page.on('request', (r) => {
      if (r.url().includes('/auth/login')) sent = true;
    });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    expect(sent).toBe(false);
  });

  test('format and length messages', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByLabel('Email')).toHaveAttribute('placeholder', /@example\.com/);
    await touch(page, 'Email', 'not-an-email');
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await touch(page, 'Password', 'abc');
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  });

  test('a wrong password shows the server message, and the password can be shown', async ({
    page,
    request,
  }) => {
    const person = await registerViaApi(request);
    await page.goto('/login');
    await page.getByLabel('Password', { exact: true }).fill('secret1');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await signIn(page, { email: person.email, password: 'Wrong-password-1' });
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('register form', () => {
  test('required messages appear as each field is touched, and the button says what is still needed', async ({
    page,
  }) => {
    await page.goto('/register');
    const submit = page.getByRole('button', { name: 'Create Account' });
    // Never greyed out without a word: the note under the button describes it.
    await expect(submit).toBeEnabled();
    await expect(submit).toHaveAccessibleDescription(
      'Still needed: first name, last name, display name, username, email, password, password confirmation, accepting the terms',
    );
    for (const label of [
      'First name',
      'Last name',
      'Display name',
      'Username',
      'Email',
      'Password',
      'Confirm password',
    ]) {
      await touch(page, label);
    }
    await page.getByRole('checkbox', { name: /I agree/ }).focus();
    await page.getByRole('checkbox', { name: /I agree/ }).blur();
    for (const message of [
      'First name is required',
      'Last name is required',
      'Display name is required',
      'Username is required',
      'Email is required',
      'Password is required',
      'Please confirm your password',
      'You must agree to the terms and conditions',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }

    // The note shrinks as the form fills, and goes once nothing is missing.
    await page.getByLabel('First name').fill('Robin');
    await page.getByLabel('Last name').fill('Quill');
    await page.getByLabel('Email').fill('robin@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Hunchy2024!');
    await expect(submit).toHaveAccessibleDescription(
      'Still needed: password confirmation, accepting the terms',
    );
    await page.getByLabel('Confirm password').fill('Hunchy2024!');
    await page.getByRole('checkbox', { name: /I agree/ }).check();
    await expect(page.getByText(/^Still needed:/)).toHaveCount(0);
  });

  test('an early press of the button sends nothing, marks every field and goes to the first', async ({
    page,
  }) => {
    await page.goto('/register');
    let sent = false;
    page.on('request', (r) => {
      if (r.url().includes('/auth/register')) sent = true;
    });
    await page.getByLabel('Email').fill('robin@example.com');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();
    await expect(page.getByLabel('First name')).toBeFocused();
    await expect(page.getByText('You must agree to the terms and conditions')).toBeVisible();
    expect(sent).toBe(false);
  });

  test('display name and username follow the first name until the player edits them', async ({
    page,
  }) => {
    await page.goto('/register');
    const displayName = page.getByLabel('Display name');
    const username = page.getByLabel('Username');
    await page.getByLabel('First name').fill('Zoë');
    await expect(displayName).toHaveValue('Zoë');
    await expect(username).toHaveValue(/^zoe\d{2}$/);
    await page.getByLabel('First name').fill('Zoëlla');
    await expect(displayName).toHaveValue('Zoëlla');
    await expect(username).toHaveValue(/^zoella\d{2}$/);
    // No message on a field the player has not touched.
    await expect(page.getByText('Display name must be 2–50 chars')).toHaveCount(0);

    await username.fill('zz_top');
    await displayName.fill('Zed');
    await page.getByLabel('First name').fill('Zoë');
    await expect(username).toHaveValue('zz_top');
    await expect(displayName).toHaveValue('Zed');
  });

  test('the meter never says "Strong" for a password the form refuses, and lists what is missing', async ({
    page,
  }) => {
    await page.goto('/register');
    await touch(page, 'Username', 'ab');
    await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
    await touch(page, 'Email', 'robin@');
    await expect(errorOf(page, 'Email')).toHaveText('Please enter a valid email address');

    const meter = page.getByRole('meter', { name: 'Password strength' });
    const password = page.getByLabel('Password', { exact: true });
    // What the meter lists is what the password field tells a screen reader.
    const unmet = page.getByRole('list');
    await touch(page, 'Password', 'abc');
    await expect(meter).toHaveAttribute('aria-valuetext', /Weak/);
    await expect(unmet.getByRole('listitem')).toHaveText([
      'At least 8 characters',
      'An uppercase letter',
      'A number or a symbol',
    ]);
    await expect(password).toHaveAccessibleDescription(
      'Still needed: At least 8 characters An uppercase letter A number or a symbol',
    );

    // The password: the spec's count alone said "Strong" in green.
    await password.fill('sunny-tiger-42');
    await expect(meter).toHaveAttribute('aria-valuetext', 'Fair (59 of 100)');
    await expect(unmet.getByRole('listitem')).toHaveText(['An uppercase letter']);

    await password.fill('Sunny-tiger-42');
    await expect(meter).toHaveAttribute('aria-valuetext', /Strong/);
    await expect(unmet).toHaveCount(0);
    await password.fill('Abcdefgh1!xy');
    await expect(meter).toHaveAttribute('aria-valuenow', '100');
    await touch(page, 'Confirm password', 'Abcdefgh1!xz');
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await password.fill('');
    await expect(page.getByText('Password is required')).toBeVisible();
  });

  test('links to the terms, the privacy policy and sign in', async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute(
      'href',
      '/terms-conditions',
    );
    await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    await expect(page.getByText('Already have an account?')).toBeVisible();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a taken email shows the server message', async ({ page, request }) => {
    const person = await registerViaApi(request);
    await page.goto('/register');
    await page.getByLabel('First name').fill('Other');
    await page.getByLabel('Last name').fill('Person');
    await page.getByLabel('Display name').fill('Other');
    await page.getByLabel('Username').fill(`${person.username}_2`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByLabel('Confirm password').fill(person.password);
    await page.getByRole('checkbox', { name: /I agree/ }).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('alert')).toContainText('already exists');
  });
});

test.describe('reset password form', () => {
  test('without a token it says so', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(
      page.getByText('Invalid or missing reset token. Please request a new password reset link.'),
    ).toBeVisible();
  });

  test('takes the token from the query too, and shows every password message', async ({ page }) => {
    await page.goto('/reset-password?token=abc');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Password is required')).toBeVisible();
    // Once typed, the parts of the rule still unmet say what the message would.
    const unmet = page.getByRole('list');
    await touch(page, 'New password', 'short');
    await expect(unmet.getByRole('listitem')).toHaveText([
      'At least 8 characters',
      'An uppercase letter',
      'A number or a symbol',
    ]);
    await page.getByLabel('New password', { exact: true }).fill('alllowercase');
    await expect(unmet.getByRole('listitem')).toHaveText([
      'An uppercase letter',
      'A number or a symbol',
    ]);
    await page.getByLabel('New password', { exact: true }).fill('Good-password-1');
    await touch(page, 'Confirm new password', 'Other-password-1');
    await expect(page.getByText('Passwords do not match')).toBeVisible();
  });

  test('an unknown token shows the server message', async ({ page }) => {
    await page.goto('/reset-password/not-a-real-token');
    await page.getByLabel('New password', { exact: true }).fill('Good-password-1');
    await page.getByLabel('Confirm new password').fill('Good-password-1');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert')).toContainText(/invalid|expired/i);
  });
});

test.describe('other forms', () => {
  test('forgot password and guest forms require their field', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByLabel('Email').fill('nope');
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Login' })).toHaveAttribute(
      'href',
      '/login',
    );

    await page.goto('/continue-as-guest');
    await page.getByRole('button', { name: 'Continue as Guest' }).click();
    await expect(page.getByText('Display name is required')).toBeVisible();
  });
});
