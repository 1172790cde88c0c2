import { beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_LIMITS } from '../../../src/domain/webhooks';
import { isSignedBy } from '../../webhook-receiver';
import { createBet, DAY, HOUR } from '../bets/bet.factories';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { inboxOf } from '../notifications/notification.factories';
import {
  addHook,
  deliveriesOf,
  later,
  sendWebhooks,
  useWebhookReceiver,
} from './webhook.factories';

// A receiver that fails is tried again with exponential back-off (30 s, 2 min, 8 min, 32 min,
// about 2 h, then 8 h; 8 tries in all), each try with the same `webhook-id`; a hook whose tries
// kept failing for a day is paused, its admins told in the inbox, and nothing more is sent to
// it until an admin resumes it. The passes run at times the test chooses: no waiting.

const server = useTestServer({ env: { BET_EXPIRY_INTERVAL_MS: '0' } });
const hooks = useWebhookReceiver();
const { arrivalsAt } = hooks;
beforeEach(() => hooks.receiver.answerWith(200));

const MINUTE = 60 * 1000;
describe('a receiver that answers 500', () => {
  it('is tried again 30 s later, and the second try delivers the same webhook-id', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/flaky`, ['bet.created']);
    hooks.receiver.answerWith(500);
    await createBet(server, creator, group);
    const firstTry = server.clock.now();
    expect(await sendWebhooks(server, firstTry)).toMatchObject({ delivered: 0, failed: 1 });
    const [failed] = await deliveriesOf(server, creator, hook);
    expect(failed).toMatchObject({
      state: 'pending',
      attempts: 1,
      responseStatus: 500,
      error: 'answered 500',
      nextAttemptAt: later(firstTry, 30_000).toISOString(),
    });

    // Not before its time: a pass a second early sends nothing.
    hooks.receiver.answerWith(200);
    expect(await sendWebhooks(server, later(firstTry, 29_000))).toMatchObject({ delivered: 0 });
    expect(arrivalsAt('/flaky')).toHaveLength(1);
    expect(await sendWebhooks(server, later(firstTry, 30_000))).toMatchObject({ delivered: 1 });

    const [first, second] = arrivalsAt('/flaky');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(isSignedBy(second!, hook.secret)).toBe(true);
    const [delivered] = await deliveriesOf(server, creator, hook);
    expect(delivered).toMatchObject({
      id: failed!.id,
      state: 'delivered',
      attempts: 2,
      responseStatus: 200,
      error: null,
      nextAttemptAt: null,
    });
  });

  it('backs off 30 s, 2, 8, 32 and 128 minutes, then 8 h, and gives up after the 8th try', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/down`, ['bet.created']);
    hooks.receiver.answerWith(503);
    await createBet(server, creator, group);
    const expectedDelays = [0.5, 2, 8, 32, 128, 480, 480].map((minutes) => minutes * MINUTE);
    let at = server.clock.now();
    for (const [index, delay] of expectedDelays.entries()) {
      await sendWebhooks(server, at);
      const [delivery] = await deliveriesOf(server, creator, hook);
      expect(delivery, `after try ${index + 1}`).toMatchObject({
        state: 'pending',
        attempts: index + 1,
        nextAttemptAt: later(at, delay).toISOString(),
      });
      at = later(at, delay);
    }
    await sendWebhooks(server, at);
    const [givenUp] = await deliveriesOf(server, creator, hook);
    expect(givenUp).toMatchObject({
      state: 'failed',
      attempts: WEBHOOK_LIMITS.attempts,
      nextAttemptAt: null,
      responseStatus: 503,
    });
    expect(arrivalsAt('/down')).toHaveLength(WEBHOOK_LIMITS.attempts);
    expect(new Set(arrivalsAt('/down').map((a) => a.headers['webhook-id'])).size).toBe(1);
    // The 8 tries took under a day: the hook is not paused for them.
    const list = await server.request('GET', `/api/groups/${group.id}/webhooks`, {
      token: creator.accessToken,
    });
    expect(list.body.webhooks[0].pausedAt).toBeNull();
    // A later pass tries a given-up delivery no more.
    await sendWebhooks(server, later(at, DAY));
    expect(arrivalsAt('/down')).toHaveLength(WEBHOOK_LIMITS.attempts);
  });
});

describe('a hook failing for a day', () => {
  it('is paused, its admins are told in the inbox, and it sends again once resumed', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/gone`, ['bet.created']);
    hooks.receiver.answerWith(500);
    await createBet(server, creator, group, { title: 'Snow by Friday?' });
    const firstFailure = server.clock.now();
    await sendWebhooks(server, firstFailure);
    // Still failing a little under a day later: not paused yet.
    await sendWebhooks(server, later(firstFailure, DAY - HOUR));
    const webhooks = async () =>
      (
        await server.request('GET', `/api/groups/${group.id}/webhooks`, {
          token: creator.accessToken,
        })
      ).body.webhooks;
    expect((await webhooks())[0].pausedAt).toBeNull();
    const pausedAt = later(firstFailure, DAY);
    await sendWebhooks(server, pausedAt);
    expect((await webhooks())[0].pausedAt).toBe(pausedAt.toISOString());

    for (const user of [creator, admin]) {
      const notices = (await inboxOf(server, user)).notifications.filter(
        (entry) => entry.kind === 'webhookPaused',
      );
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ groupId: group.id, payload: { groupName: group.name } });
    }
    const memberInbox = (await inboxOf(server, member)).notifications;
    expect(memberInbox.filter((entry) => entry.kind === 'webhookPaused')).toHaveLength(0);

    // Paused: what waits is not tried, and new events are not queued for it.
    hooks.receiver.answerWith(200);
    const triesBefore = arrivalsAt('/gone').length;
    await createBet(server, creator, group, { title: 'Hail by Sunday?' });
    expect(await sendWebhooks(server, later(pausedAt, DAY))).toMatchObject({ delivered: 0 });
    expect(arrivalsAt('/gone')).toHaveLength(triesBefore);

    const resumed = await server.request('PATCH', `/api/groups/${group.id}/webhooks/${hook.id}`, {
      token: admin.accessToken,
      body: { paused: false },
    });
    expect([resumed.status, resumed.body.pausedAt]).toEqual([200, null]);
    expect(await sendWebhooks(server, later(pausedAt, DAY))).toMatchObject({ delivered: 1 });
    const last = arrivalsAt('/gone').at(-1)!;
    expect(last.json.type).toBe('bet.created');
    expect(last.body).toContain('Snow by Friday?');
    expect(isSignedBy(last, hook.secret)).toBe(true);
    expect((await deliveriesOf(server, creator, hook)).map((d) => d.state)).toEqual(['delivered']);
  });
});
