import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import {
  authHeaders,
  createGroupViaApi,
  joinViaApi,
  registerPlayer,
  uniqueGroupName,
} from './groups.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots for a person to look at (not compared), in .tmp/screens/: the landing page's
// example bet, and a group's leaderboard and inbox after a friend deleted their account.
// Opt-in, as screens.spec.ts: HUNCH_SCREENSHOTS=1.

for (const size of SCREEN_SIZES) {
  test(`landing example and a group after a deletion at ${size.name}`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(size);
    const tag = `${size.name}-deleted-landing`;

    await page.goto('/landing');
    await expect(page.getByText(/If you win: about/)).toBeVisible();
    await shoot(page, `${tag}-landing`);

    const bo = await registerPlayer(request);
    const group = await createGroupViaApi(request, bo, { name: uniqueGroupName('Thursday Crew') });
    const cy = await registerPlayer(request);
    await joinViaApi(request, cy, group.name);
    const maya = await registerPlayer(request);
    await joinViaApi(request, maya, group.name);
    const bet = await createBetViaApi(request, bo, { groupId: group.id, title: 'Rain today?' });
    await wagerViaApi(request, maya, bet.id, 'yes', 3);
    await wagerViaApi(request, bo, bet.id, 'no', 1);
    await resolveViaApi(request, bo, bet.id, 'yes');
    const deleted = await request.delete('/auth/users/me', {
      headers: await authHeaders(request, maya),
      data: { currentPassword: maya.person.password },
    });
    expect(deleted.status()).toBe(200);

    await page.goto('/login?returnUrl=/leaderboard');
    await signIn(page, bo.person);
    await expect(page.getByRole('table', { name: `${group.name} standings` })).toBeVisible();
    await shoot(page, `${tag}-leaderboard`);
    await page.goto('/inbox');
    await expect(page.getByText(`${cy.person.displayName} joined ${group.name}`)).toBeVisible();
    await shoot(page, `${tag}-inbox`);
  });
}
