import { expect } from '@playwright/test';
import { test } from './fixtures';
import { mkdirSync } from 'node:fs';
import { waitForStillPage } from './axe.helpers';
import { createBetViaApi, fairStepViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import {
  createGroupViaApi,
  joinViaApi,
  openAs,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';
import { LOOKED_AT_SIZES } from './screens.helpers';

// This spec needs the service worker (the push prompt after a join); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots for a person to look at (never compared) of the screens the "messages that tell
// the truth" work touched: a bet page's header with its group's points and a number input
// saying "use 2.5", the dispute naming who decides, and a toast over the push prompt. At 390,
// 320 and 1280 px. Opt-in: HUNCH_SCREENSHOTS=1 npx playwright test screens-players-truth.

const DIR = process.env.HUNCH_SHOTS_DIR ?? '.tmp/screens/players-truth';
const SIZES = LOOKED_AT_SIZES;

for (const size of SIZES) {
  test(`players' truth screens at ${size.name}`, async ({ browser, request }) => {
    mkdirSync(DIR, { recursive: true });
    const [ana, ben, cleo] = await Promise.all([
      registerPlayer(request),
      registerPlayer(request),
      registerPlayer(request),
    ]);
    const group = await createGroupViaApi(request, ana, { name: uniqueGroupName('Ferry Crew') });
    const other = await createGroupViaApi(request, ana, { name: uniqueGroupName('Office') });
    await joinViaApi(request, ben, group.name);
    await joinViaApi(request, cleo, group.name);
    await joinViaApi(request, ben, other.name);
    const guess = await createBetViaApi(request, ana, {
      groupId: other.id,
      title: 'How many goals tonight?',
      betType: 'numeric',
    });
    const disputed = await createBetViaApi(request, ana, { groupId: group.id, title: 'Rain?' });
    await wagerViaApi(request, ben, disputed.id, 'no', 3);
    await wagerViaApi(request, ana, disputed.id, 'yes', 2);
    await resolveViaApi(request, ana, disputed.id, 'yes');
    await fairStepViaApi(request, ben, disputed.id, 'dispute', 'It only drizzled.');

    const page = await openAs(browser, ben, `/bets/${guess.id}`);
    await page.setViewportSize(size);
    const input = page.getByLabel('Your prediction');
    await input.fill('1,000');
    await input.blur();
    await expect(page.getByText('Please enter a valid number (use 2.5)')).toBeVisible();
    await waitForStillPage(page);
    await page.screenshot({ path: `${DIR}/bet-header-number-${size.name}.png` });

    await page.goto(`/bets/${disputed.id}`);
    await expect(page.getByTestId('dispute-judges')).toBeVisible();
    await waitForStillPage(page);
    await page.screenshot({ path: `${DIR}/dispute-${size.name}.png`, fullPage: true });

    const joinable = await createGroupViaApi(request, ana, {
      name: uniqueGroupName('Prompted'),
      privacy: 'private',
      inviteCode: `shots-${size.name}`,
    });
    await page.goto(`/group/${joinable.id}?inviteCode=shots-${size.name}`);
    await expect(page.getByRole('dialog', { name: 'Enable group updates' })).toBeVisible();
    await expect(page.getByText('Group joined successfully!')).toBeVisible();
    await page.screenshot({ path: `${DIR}/toast-over-prompt-${size.name}.png` });
    await page.context().close();
  });
}
