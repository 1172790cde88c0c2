import { describe, expect, it, vi } from 'vitest';
import type { WebhookWithSecret } from '../../../src/domain/schemas/webhooks';
import { webhookEventSchema } from '../../../src/domain/schemas/webhook-events';
import { instantOfWallClock, wallClockAt } from '../../../src/domain/time-zones';
import { DELIVERY_LEASE_MS } from '../../../src/server/webhooks/webhook-delivery';
import { isSignedBy } from '../../webhook-receiver';
import { createBet, expiresIn, HOUR, placeWager, resolve } from '../bets/bet.factories';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer } from '../harness';
import {
  addHook,
  deliveriesOf,
  later,
  sendWebhooks,
  useWebhookReceiver,
} from './webhook.factories';

// "Send again" makes a new delivery of the same event: the same `webhook-id` and body, so a
// receiver that has it already can drop it. Under normal operation nothing is sent twice for
// one event id, even with two passes at once (a delivery under way is leased). And on Monday
// morning in the hook's own time zone, leaderboard.weekly brings the week's table, once.

const server = useTestServer({
  env: { PICKS_REVEAL_INTERVAL_MS: '0', BET_EXPIRY_INTERVAL_MS: '0' },
});
const hooks = useWebhookReceiver();
const { arrivalsAt } = hooks;
const DAY = 24 * HOUR;

describe('Send again', () => {
  it('sends the same event again under the same webhook-id, for admins only', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/again`, ['bet.created']);
    await createBet(server, creator, group);
    await sendWebhooks(server);
    const [sent] = await deliveriesOf(server, creator, hook);
    expect(sent!.state).toBe('delivered');
    const retryPath = (deliveryId: number, groupId = group.id, hookId = hook.id) =>
      `/api/groups/${groupId}/webhooks/${hookId}/deliveries/${deliveryId}/retry`;

    const byMember = await server.request('POST', retryPath(sent!.id), {
      token: member.accessToken,
    });
    expect([byMember.status, byMember.body.code]).toEqual([403, 'not_group_admin']);
    const other = await createGroupWithRoles(server);
    const otherHook = await addHook(server, other.creator, other.group.id, `${hooks.origin}/o`, [
      'bet.created',
    ]);
    // A delivery of another group's hook is not found through this one's.
    const crossed = await server.request(
      'POST',
      retryPath(sent!.id, other.group.id, otherHook.id),
      {
        token: other.creator.accessToken,
      },
    );
    expect(crossed.status).toBe(404);

    const again = await server.request('POST', retryPath(sent!.id), {
      token: creator.accessToken,
    });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ eventId: sent!.eventId, state: 'pending', attempts: 0 });
    await sendWebhooks(server);

    const [first, second] = arrivalsAt('/again');
    expect(arrivalsAt('/again')).toHaveLength(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['webhook-id']).toBe(sent!.eventId);
    expect(second!.body).toBe(first!.body);
    expect(isSignedBy(second!, hook.secret)).toBe(true);
    const deliveries = await deliveriesOf(server, creator, hook);
    expect(deliveries.map((d) => [d.eventId, d.state])).toEqual([
      [sent!.eventId, 'delivered'],
      [sent!.eventId, 'delivered'],
    ]);
  });
});

describe('one event, one delivery', () => {
  it('sends each event once, even with two passes at once', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/once`, ['bet.created']);
    for (const title of ['One?', 'Two?', 'Three?'])
      await createBet(server, creator, group, { title });
    const release = hooks.receiver.hold();
    const at = server.clock.now();
    const firstPass = sendWebhooks(server, at);
    await vi.waitFor(() => expect(arrivalsAt('/once')).toHaveLength(1), { timeout: 4_000 });
    // While the first pass's try is under way, a second pass (another instance) takes nothing.
    expect(await sendWebhooks(server, at)).toEqual({ queued: 0, delivered: 0, failed: 0 });
    release();
    expect(await firstPass).toMatchObject({ delivered: 3, failed: 0 });
    // Nor does any later pass: each was delivered once.
    expect(await sendWebhooks(server, later(at, DELIVERY_LEASE_MS + 1))).toMatchObject({
      delivered: 0,
    });
    const arrivals = arrivalsAt('/once');
    expect(arrivals.map((a) => JSON.parse(a.body).data.bet.title)).toEqual([
      'One?',
      'Two?',
      'Three?',
    ]);
    expect(new Set(arrivals.map((a) => a.headers['webhook-id'])).size).toBe(3);
    expect((await deliveriesOf(server, creator, hook)).map((d) => d.attempts)).toEqual([1, 1, 1]);
  });
});

/** The next Monday after `now` in `zone`, at `hour`:`minute` there. */
function nextMonday(now: Date, zone: string, hour: number, minute = 0): Date {
  const today = wallClockAt(now.getTime(), zone);
  for (let days = 1; days <= 7; days += 1) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
    if (date.getUTCDay() !== 1) continue;
    const day = {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
    };
    return new Date(instantOfWallClock({ ...today, ...day, hour, minute, second: 0 }, zone));
  }
  throw new Error('no Monday within a week');
}

describe('leaderboard.weekly', () => {
  it("brings the week's table on Monday from 09:00 in the hook's time zone, once", async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const zone = 'America/New_York';
    const added = await server.request<WebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks`,
      {
        token: creator.accessToken,
        body: { url: `${hooks.origin}/weekly`, events: ['leaderboard.weekly'], timeZone: zone },
      },
    );
    expect([added.status, added.body.timeZone]).toEqual([201, zone]);
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, HOUR) });
    await placeWager(server, admin, bet, 'yes', 2);
    await placeWager(server, member, bet, 'no', 1);
    server.clock.advance(2 * HOUR);
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);

    const monday = nextMonday(server.clock.now(), zone, 9);
    // 08:59 in New York is 13:59 or 12:59 UTC, Monday everywhere near: not yet.
    await sendWebhooks(server, later(monday, -60_000));
    expect(arrivalsAt('/weekly')).toHaveLength(0);
    await sendWebhooks(server, later(monday, 30 * 60_000));
    await sendWebhooks(server, later(monday, 90 * 60_000));
    expect(arrivalsAt('/weekly')).toHaveLength(1);

    const [arrival] = arrivalsAt('/weekly');
    expect(isSignedBy(arrival!, added.body.secret)).toBe(true);
    const event = webhookEventSchema('leaderboard.weekly').parse(arrival!.json);
    const mondayStart = instantOfWallClock(
      { ...wallClockAt(monday.getTime(), zone), hour: 0 },
      zone,
    );
    expect(event.data.week).toEqual({
      from: later(mondayStart, -7 * DAY).toISOString(),
      to: new Date(mondayStart).toISOString(),
    });
    const row = (name: string) => event.data.table.find((entry) => entry.name === name);
    expect(row(admin.user.displayName)).toMatchObject({ rank: 1, played: 1 });
    expect(row(admin.user.displayName)!.points).toBeGreaterThan(0);
    expect(row(member.user.displayName)!.points).toBeLessThan(0);
    // The next Monday brings the next week's, not this one again.
    await sendWebhooks(server, later(monday, DAY));
    expect(arrivalsAt('/weekly')).toHaveLength(1);
    await sendWebhooks(server, later(monday, 7 * DAY + HOUR));
    expect(arrivalsAt('/weekly')).toHaveLength(2);
  });
});
