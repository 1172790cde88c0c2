import { copyFileSync, mkdirSync } from 'node:fs';
import { expect as baseExpect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { isSignedBy, startWebhookReceiver, type Arrival } from '../webhook-receiver';
import { openSignedIn } from './accounts.helpers';
import { expectAccessible } from './axe.helpers';
import { createBetViaApi, resolveViaApi, wagerViaApi } from './bets.helpers';
import { twoInAGroup } from './groups.helpers';
import { LOOKED_AT_SIZES, SCREENS_DIR, shootIfAsked } from './screens.helpers';

// Issue #44 point 5, at phone size: an admin adds a webhook in the group's Settings (the real
// screen, pointed at a real local receiver), a bet is created, wagered on by another player,
// closes (by its clock: the picks-reveal job) and is resolved. The receiver holds the four
// messages the hook asked for (New bet, Closing soon, Betting closed, Result with "Post
// results" on), each signed with the secret the screen showed once, and none names a pick
// before the reveal. Then the hook's deliveries show on the screen.

// A bet that closes by its clock: long enough for the wager to land first, short enough for
// the closing-soon stretch (its last half) and the close to come during the test. Each wait
// below still waits on what arrives, never on the clock.
const BET_SECONDS = 20;
const expect = baseExpect.configure({ timeout: 45_000 });

const typeOf = (arrival: Arrival) => arrival.json.type as string;

/** The three widths, light and dark (HUNCH_SCREENSHOTS=1), copied where they are looked at. */
async function shootAll(page: Page, name: string) {
  if (!process.env.HUNCH_SCREENSHOTS) return;
  mkdirSync('/tmp/shots/webhooks', { recursive: true });
  for (const size of LOOKED_AT_SIZES)
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme });
      if (name === 'list')
        await page.getByRole('region', { name: 'Webhooks' }).scrollIntoViewIfNeeded();
      const file = `webhooks-${name}-${size.name}-${scheme}`;
      await shootIfAsked(page, file);
      copyFileSync(`${SCREENS_DIR}/${file}.png`, `/tmp/shots/webhooks/${file}.png`);
    }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an admin adds a webhook on the screen; a bet’s four messages arrive signed, no pick before the reveal', async ({
  page,
  request,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    const { owner, member, group } = await twoInAGroup(request, 'Hooked');
    await openSignedIn(page, owner.person, `/group/${group.id}`);

    const section = page.getByRole('region', { name: 'Webhooks' });
    await expect(section.getByText('No webhooks yet.')).toBeVisible();
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add webhook' });
    // Off by default: no spoilers in the channel.
    const postResults = sheet.getByRole('switch', { name: 'Post results' });
    await expect(postResults).toHaveAttribute('aria-checked', 'false');
    await sheet.getByLabel('URL').fill(`${receiver.origin}/hunch`);
    await sheet.getByRole('checkbox', { name: 'Closing soon', exact: true }).check();
    await expect(sheet.getByRole('checkbox', { name: 'New bet', exact: true })).toBeChecked();
    await expect(
      sheet.getByRole('checkbox', { name: 'Betting closed', exact: true }),
    ).toBeChecked();
    await expect(sheet.getByRole('checkbox', { name: 'Result', exact: true })).toBeChecked();
    await expect(
      sheet.getByRole('checkbox', { name: 'New member', exact: true }),
    ).not.toBeChecked();
    await postResults.click();
    await shootAll(page, 'add');
    await expectAccessible(page, 'the add webhook sheet');
    await sheet.getByRole('button', { name: 'Add webhook' }).click();

    const shown = page.getByRole('dialog', { name: 'Webhook added' });
    await expect(shown.getByText("You won't see it again", { exact: false })).toBeVisible();
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toHaveCount(0);
    await expect(section.getByText('127.0.0.1:')).toBeVisible();
    await expect(
      section.getByText('New bet · Closing soon · Betting closed · Result · with results'),
    ).toBeVisible();

    const bet = await createBetViaApi(request, owner, {
      groupId: group.id,
      title: 'Rain by the weekend?',
      hours: BET_SECONDS / 3600,
    });
    await wagerViaApi(request, member, bet.id, 'yes', 3);

    // Closed by its clock, then resolved: the four messages, in order.
    await expect.poll(() => receiver.arrivals.map(typeOf)).toContain('bet.closed');
    await resolveViaApi(request, owner, bet.id, 'yes');
    await expect
      .poll(() => receiver.arrivals.map(typeOf))
      .toEqual(['bet.created', 'bet.closing_soon', 'bet.closed', 'bet.resolved']);

    const [created, closingSoon, closed, resolved] = receiver.arrivals;
    for (const arrival of receiver.arrivals) {
      expect(isSignedBy(arrival, secret), typeOf(arrival)).toBe(true);
      expect(arrival.path).toBe('/hunch');
    }
    // While betting is open: totals only, no name of who picked, no pick.
    for (const open of [created!, closingSoon!]) {
      expect(open.body).not.toContain(member.person.displayName);
      expect(open.json.data).not.toHaveProperty('picks');
    }
    expect((closingSoon!.json.data as { bet: { wagerCount: number } }).bet.wagerCount).toBe(1);
    expect((closed!.json.data as { picks: unknown }).picks).toEqual([
      { name: member.person.displayName, pick: 'Yes', points: 3 },
    ]);
    const result = (resolved!.json.data as { result: { answer: string } | null }).result;
    expect(result?.answer).toBe('Yes');
    // One event, one webhook-id.
    expect(new Set(receiver.arrivals.map((a) => a.headers['webhook-id'])).size).toBe(4);

    // The screen: the last delivery on the list, then the hook's deliveries.
    await page.reload();
    await expect(section.getByText('Delivered · 200')).toBeVisible();
    await shootAll(page, 'list');
    await section.getByRole('button', { name: /^Deliveries/ }).click();
    const deliveries = page.getByRole('dialog', { name: 'Deliveries' });
    await expect(deliveries.getByRole('listitem')).toHaveCount(4);
    await expect(deliveries.getByText('Delivered · 200')).toHaveCount(4);
    await shootAll(page, 'deliveries');
    await expectAccessible(page, 'a webhook’s deliveries');
    // "Send again": the same event once more, with the same webhook-id.
    await deliveries.getByRole('listitem').first().getByRole('button').click();
    await expect(page.getByText('Sending again.')).toBeVisible();
    await expect.poll(() => receiver.arrivals.length).toBe(5);
    expect(receiver.arrivals[4]!.headers['webhook-id']).toBe(resolved!.headers['webhook-id']);
  } finally {
    await receiver.close();
  }
});
