import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { waitForStillPage } from './axe.helpers';
import { createGroupViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { LOOKED_AT_SIZES } from './screens.helpers';

// Screenshots of the sign-in screens of issue #42 (opt-in, for looking: HUNCH_SCREENSHOTS=1):
// sign-in with "Remember me" ticked, sign-up with the unmet parts of the password rule and
// what the button still needs, forgot-password with the email carried over, and a cut-off
// invite link, at 390×844, 320×700 and 1280×800, in /tmp/shots-players-signin/.

const SIZES = LOOKED_AT_SIZES;
const DIR = '/tmp/shots-players-signin';

async function shot(page: Page, name: string) {
  mkdirSync(DIR, { recursive: true });
  await waitForStillPage(page);
  await page.screenshot({ path: `${DIR}/${name}.png`, fullPage: true });
}

for (const size of SIZES) {
  test(`sign-in screens at ${size.name}`, async ({ browser, request }) => {
    const page = await (await browser.newContext({ viewport: size })).newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('robin@example.com');
    await expect(page.getByLabel('Remember me')).toBeChecked();
    await shot(page, `signin-${size.name}`);

    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByLabel('Email')).toHaveValue('robin@example.com');
    await shot(page, `forgot-${size.name}`);

    await page.goto('/register');
    await page.getByLabel('First name').fill('Robin');
    await page.getByLabel('Last name').fill('Quill');
    await page.getByLabel('Password', { exact: true }).fill('sunny-tiger-42');
    await expect(page.getByText('An uppercase letter')).toBeVisible();
    await shot(page, `register-${size.name}`);

    const ana = await registerPlayer(request);
    const group = await createGroupViaApi(request, ana, {
      name: uniqueGroupName('Thursday Crew'),
      privacy: 'private',
    });
    await page.goto(`/group/${group.id}?inviteCode=${group.inviteCode!.slice(0, 4)}`);
    await expect(
      page.getByText('This invite link is incomplete — ask for a new one'),
    ).toBeVisible();
    await shot(page, `invite-cut-${size.name}`);
    await page.context().close();
  });
}
