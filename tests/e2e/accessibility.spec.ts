import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, signIn } from './accounts.helpers';

// axe-core finds no violation on any public or account page (CONVENTIONS.md, Accessible).

async function expectNoViolations(page: Page, name: string) {
  // Let the lazy page and its entry animations settle before judging contrast.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe violations on ${name}`).toEqual([]);
}

const PUBLIC_PAGES = [
  '/landing',
  '/how-it-works',
  '/about',
  '/blog',
  '/terms-conditions',
  '/privacy-policy',
  '/login',
  '/register',
  '/continue-as-guest',
  '/forgot-password',
  '/reset-password',
  '/reset-password/some-token',
];

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    for (const path of PUBLIC_PAGES) {
      test(`no axe violations on ${path}`, async ({ page }) => {
        await page.goto(path);
        await expect(page.locator('h1').first()).toBeVisible();
        await expectNoViolations(page, path);
      });
    }

    test('no axe violations on the signed-in screens and the account modals', async ({ page, request }) => {
      test.setTimeout(90_000); // five screens and a modal, each analysed
      const person = await registerViaApi(request);
      await page.goto('/login');
      await signIn(page, person);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expectNoViolations(page, '/dashboard');
      for (const path of ['/profile', '/leaderboard', '/group']) {
        await page.goto(path);
        await expect(page.locator('h1').first()).toBeAttached();
        await expectNoViolations(page, path);
      }
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Edit' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit Profile' })).toBeVisible();
      await expectNoViolations(page, 'edit-account modal');
    });

    test('no axe violations for a guest and the upgrade modal', async ({ page }) => {
      await page.goto('/continue-as-guest');
      await page.getByLabel('Display name').fill('Axe Guest');
      await page.getByRole('button', { name: 'Continue as Guest' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: "You're playing as a guest" })).toBeVisible();
      await expectNoViolations(page, 'guest profile');
      await page.getByRole('button', { name: 'Using Temporary Account' }).click();
      await expect(page.getByRole('dialog', { name: 'Upgrade to a Full Account' })).toBeVisible();
      await expectNoViolations(page, 'upgrade modal');
    });
  });
}
