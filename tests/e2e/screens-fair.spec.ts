import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { closeBettingNow, createBetViaApi, wagerViaApi } from './bets.helpers';
import { createGroupViaApi, joinViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots of fair resolution for a person to look at (not compared): "Who picked what", the
// undo window with its countdown, the dispute sheet, an open dispute as the admin reviews it,
// and the history, at the phone reference (390×844) and a desktop (1280×800), in .tmp/screens/.
// Opt-in like screens.spec.ts: HUNCH_SCREENSHOTS=1 npx playwright test screens-fair.

async function resolveOnPage(page: Page, answer: string) {
  const card = page.getByRole('article', { name: /^Resolve this bet/ });
  await closeBettingNow(card);
  await card.getByRole('button', { name: new RegExp(`^${answer}`) }).click();
  await card.getByRole('button', { name: 'Resolve Bet' }).click();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Bet resolved!')).toBeVisible();
}

for (const size of SCREEN_SIZES) {
  test(`fair resolution screens at ${size.name}`, async ({ browser, request }) => {
    const [host, sam, alex] = await Promise.all([
      registerPlayer(request),
      registerPlayer(request),
      registerPlayer(request),
    ]);
    const group = await createGroupViaApi(request, host, { name: uniqueGroupName('Quiz night') });
    await joinViaApi(request, sam, group.name);
    await joinViaApi(request, alex, group.name);
    const bet = await createBetViaApi(request, host, {
      groupId: group.id,
      title: 'Who wins the pub quiz tonight?',
      betType: 'multiple_choice',
      betTypeConfig: { options: ['The Quizzly Bears', 'Les Quizerables', 'Trivia Newton John'] },
      baseWagerAmount: 2,
    });
    // The host has no stake: whoever wagered may not judge the dispute below.
    await wagerViaApi(request, sam, bet.id, 'Les Quizerables', 6);
    await wagerViaApi(request, alex, bet.id, 'The Quizzly Bears', 2);

    const hostContext = await browser.newContext({ viewport: size });
    const hostPage = await hostContext.newPage();
    await hostPage.goto('/login');
    await signIn(hostPage, host.person);
    await hostPage.waitForURL(/\/(dashboard|group)/);
    await hostPage.goto(`/bets/${bet.id}`);
    await expect(hostPage.getByText('Picks are revealed when betting closes.')).toBeVisible();
    await resolveOnPage(hostPage, 'The Quizzly Bears');
    await expect(hostPage.getByText(/You can undo this result for/)).toBeVisible();
    await shoot(hostPage, `fair-${size.name}-undo-and-picks`);
    await shoot(hostPage, `fair-${size.name}-undo-and-picks-full`, true);

    const samContext = await browser.newContext({ viewport: size });
    const samPage = await samContext.newPage();
    await samPage.goto('/login');
    await signIn(samPage, sam.person);
    await samPage.waitForURL(/\/(dashboard|group)/);
    await samPage.goto(`/bets/${bet.id}`);
    await samPage.getByRole('button', { name: 'Dispute result' }).click();
    const sheet = samPage.getByRole('dialog', { name: 'Dispute this result' });
    await sheet
      .getByLabel("What's wrong?")
      .fill('The Quizerables won the tie-break on the last round!');
    await shoot(samPage, `fair-${size.name}-dispute-sheet`);
    await sheet.getByRole('button', { name: 'Send dispute' }).click();
    await expect(samPage.getByText('Result disputed')).toBeVisible();
    await shoot(samPage, `fair-${size.name}-disputed-as-participant-full`, true);

    await expect(hostPage.getByRole('button', { name: 'Correct the result' })).toBeVisible();
    await hostPage.getByRole('article', { name: 'About this result' }).scrollIntoViewIfNeeded();
    await shoot(hostPage, `fair-${size.name}-admin-review`);
    await hostPage.getByRole('button', { name: 'Correct the result' }).click();
    await hostPage.getByRole('button', { name: /^Les Quizerables/ }).click();
    await shoot(hostPage, `fair-${size.name}-admin-correcting`);
    await hostPage.getByRole('button', { name: /Re-resolve as/ }).click();
    await expect(
      hostPage.getByText('This result was reviewed by an admin and is final.'),
    ).toBeVisible();
    await hostPage.getByRole('region', { name: 'History' }).scrollIntoViewIfNeeded();
    await shoot(hostPage, `fair-${size.name}-history`);
    await shoot(hostPage, `fair-${size.name}-re-resolved-full`, true);
    await hostContext.close();
    await samContext.close();
  });
}
