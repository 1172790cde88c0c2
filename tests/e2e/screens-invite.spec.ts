import { expect } from '@playwright/test';
import { test } from './fixtures';
import { signIn } from './accounts.helpers';
import { createGroupViaApi, registerPlayer, uniqueGroupName } from './groups.helpers';
import { SCREEN_SIZES, shoot } from './screens.helpers';

// This spec needs the service worker (offline, push or its cache); the others block it.
test.use({ serviceWorkers: 'allow' });

// Screenshots of the invited friend's screens (opt-in, for looking: HUNCH_SCREENSHOTS=1):
// sign-in and sign-up naming who invited to what, the share sheet with the group id and
// invite code, and the Private Group form filled from a pasted link, at 390×844 and
// 1280×800, in .tmp/screens/.

for (const size of SCREEN_SIZES) {
  test(`invite screens at ${size.name}`, async ({ browser, request }) => {
    const ana = await registerPlayer(request);
    const group = await createGroupViaApi(request, ana, {
      name: uniqueGroupName('Thursday Crew'),
      privacy: 'private',
    });
    const path = `/group/${group.id}?inviteCode=${group.inviteCode!}`;

    const friend = await (await browser.newContext({ viewport: size })).newPage();
    await friend.goto(path);
    await expect(friend.getByText(/invited you to/)).toBeVisible();
    await shoot(friend, `invite-${size.name}-login`);
    await friend.getByRole('link', { name: 'Sign up' }).click();
    await expect(friend.getByText(/invited you to/)).toBeVisible();
    await shoot(friend, `invite-${size.name}-register`);

    const owner = await (
      await browser.newContext({ viewport: size, hasTouch: size.name === 'phone' })
    ).newPage();
    // The phone's own share sheet, as a phone's browser offers it.
    await owner.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: () => Promise.resolve() });
    });
    await owner.goto('/login');
    await signIn(owner, ana.person);
    await expect(owner).toHaveURL(/\/dashboard$/);
    await owner.goto(`/group/${group.id}`);
    await owner.getByRole('button', { name: 'Share' }).click();
    const share = owner.getByRole('dialog', { name: `Share ${group.name}` });
    await expect(share.getByRole('button', { name: 'Share…' })).toBeVisible();
    await shoot(owner, `invite-${size.name}-share`);
    const link = await share.getByLabel('Invite link').inputValue();

    const bo = await registerPlayer(request);
    const boPage = await (await browser.newContext({ viewport: size })).newPage();
    await boPage.goto('/login');
    await signIn(boPage, bo.person);
    await boPage.getByRole('banner').getByRole('button', { name: 'Join Group' }).click();
    const join = boPage.getByRole('dialog', { name: 'Join a Group' });
    await join.getByRole('tab', { name: 'Private Group' }).click();
    await join.getByLabel('Group ID').fill(link);
    await expect(join.getByLabel('Invite code')).toHaveValue(group.inviteCode!);
    await shoot(boPage, `invite-${size.name}-join-pasted`);
  });
}
