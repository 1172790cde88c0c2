import { describe, expect, it } from 'vitest';
import { webhookEventSchema } from '../../../src/domain/schemas/webhook-events';
import { runPicksReveal } from '../../../src/server/jobs/picks-reveal.job';
import { isSignedBy } from '../../webhook-receiver';
import { cancel, createBet, expiresIn, HOUR, placeWager, resolve } from '../bets/bet.factories';
import { createGroupWithRoles, createPlayer, joinGroup } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { addHook, sendWebhooks, useWebhookReceiver } from './webhook.factories';

// A group's webhooks deliver what happens in the group to a real receiver on loopback, signed
// by the Standard Webhooks algorithm (checked by the receiver), each event once, without a
// pick or a stake named while betting is open, the answer only with "Post results" on.

const server = useTestServer({
  env: { PICKS_REVEAL_INTERVAL_MS: '0', BET_EXPIRY_INTERVAL_MS: '0' },
});
const hooks = useWebhookReceiver();
const { arrivalsAt } = hooks;

// Payloads are read freely in assertions (their schemas are checked in the first test).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

describe('a generic receiver', () => {
  it('gets bet.created, bet.closed and bet.resolved, each signed, once, in order', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/generic-1`, [
      'bet.created',
      'bet.closed',
      'bet.resolved',
    ]);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, HOUR) });
    await placeWager(server, admin, bet, 'yes', 2);
    await placeWager(server, member, bet, 'no', 1);
    await sendWebhooks(server);
    await sendWebhooks(server);
    const revealAt = new Date(server.clock.now().getTime() + 2 * HOUR);
    await runPicksReveal({ db: server.database.db, events: server.app.events }, revealAt);
    server.clock.advance(2 * HOUR);
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    await sendWebhooks(server);

    const arrivals = arrivalsAt('/generic-1');
    expect(arrivals.map((arrival) => arrival.json.type)).toEqual([
      'bet.created',
      'bet.closed',
      'bet.resolved',
    ]);
    for (const arrival of arrivals) {
      expect(isSignedBy(arrival, hook.secret)).toBe(true);
      webhookEventSchema(arrival.json.type as 'bet.created').parse(arrival.json);
    }
    expect(new Set(arrivals.map((a) => a.headers['webhook-id'])).size).toBe(3);
    const [created, closed, resolved] = arrivals.map((arrival) => arrival.json.data as Data) as [
      Data,
      Data,
      Data,
    ];
    expect(created.bet).toMatchObject({ id: bet.id, pool: 0, wagerCount: 0 });
    expect(created.bet.url).toBe(`http://hunch.test/bets/${bet.id}`);
    expect(closed.bet).toMatchObject({ pool: 3, wagerCount: 2 });
    expect(closed.picks.map((pick: { pick: string }) => pick.pick).sort()).toEqual(['No', 'Yes']);
    // "Post results" is off: resolved, but no answer and no winners.
    expect(resolved.result).toBeNull();
  });

  it('names the answer and the winners only with Post results on', async () => {
    const { group, creator, admin } = await createGroupWithRoles(server);
    const hook = await addHook(
      server,
      creator,
      group.id,
      `${hooks.origin}/results`,
      ['bet.resolved'],
      true,
    );
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, HOUR) });
    await placeWager(server, admin, bet, 'yes', 2);
    server.clock.advance(2 * HOUR);
    await resolve(server, creator, bet, 'yes');
    await sendWebhooks(server);
    const [arrival] = arrivalsAt('/results');
    expect(isSignedBy(arrival!, hook.secret)).toBe(true);
    expect((arrival!.json.data as Data).result).toMatchObject({
      answer: 'Yes',
      winners: [{ name: expect.stringContaining('Admin'), won: 0 }],
    });
  });

  it('never names a pick or a stake while betting is open', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    await addHook(server, creator, group.id, `${hooks.origin}/open`, [
      'bet.created',
      'bet.closing_soon',
    ]);
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, HOUR) });
    await placeWager(server, admin, bet, 'yes', 3);
    await placeWager(server, member, bet, 'no', 1);
    // In the last half of its hour (closing soon is due), betting still open.
    await sendWebhooks(server, new Date(server.clock.now().getTime() + 31 * 60 * 1000));
    const arrivals = arrivalsAt('/open');
    expect(arrivals.map((arrival) => arrival.json.type)).toEqual([
      'bet.created',
      'bet.closing_soon',
    ]);
    const soon = arrivals[1]!.body;
    expect(JSON.parse(soon).data.bet).toMatchObject({ pool: 4, wagerCount: 2 });
    for (const name of [admin.user.displayName, member.user.displayName])
      expect(soon).not.toContain(name);
    expect(soon).not.toMatch(/"pick"|"picks"|"points"/);
    // Once per bet: another pass adds none.
    await sendWebhooks(server);
    expect(arrivalsAt('/open')).toHaveLength(2);
  });

  it("never posts a private group's invite code", async () => {
    const { group, creator } = await createGroupWithRoles(server, { privacy: 'private' });
    expect(group.inviteCode).toBeTruthy();
    await addHook(server, creator, group.id, `${hooks.origin}/private`, ['member.joined']);
    const newcomer = await createPlayer(server, 'Newcomer');
    await joinGroup(server, newcomer, group);
    await sendWebhooks(server);
    const [arrival] = arrivalsAt('/private');
    expect(arrival!.json.type).toBe('member.joined');
    expect((arrival!.json.data as Data).member.name).toBe(newcomer.user.displayName);
    expect(arrival!.body).not.toContain(group.inviteCode!);
  });

  it('tells bet.cancelled to a hook that asked, and nothing to one that did not', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    await addHook(server, creator, group.id, `${hooks.origin}/cancelled`, ['bet.cancelled']);
    await addHook(server, creator, group.id, `${hooks.origin}/joins-only`, ['member.joined']);
    const bet = await createBet(server, creator, group);
    expect((await cancel(server, creator, bet)).status).toBe(200);
    await sendWebhooks(server);
    expect(arrivalsAt('/cancelled').map((a) => (a.json.data as Data).reason)).toEqual([
      'cancelled',
    ]);
    expect(arrivalsAt('/joins-only')).toHaveLength(0);
  });
});

describe('the rules of a hook', () => {
  it('is for admins only, at most 5 per group, and never to a private address', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const add = (token: string, url: string) =>
      server.request('POST', `/api/groups/${group.id}/webhooks`, {
        token,
        body: { url, events: ['bet.created'] },
      });
    expect((await add(member.accessToken, `${hooks.origin}/x`)).body.code).toBe('not_group_admin');
    expect((await add(creator.accessToken, 'https://10.0.0.7/hook')).status).toBe(400);
    expect((await add(creator.accessToken, 'http://example.com/hook')).status).toBe(400);
    for (let i = 0; i < 5; i += 1)
      expect((await add(creator.accessToken, `${hooks.origin}/n${i}`)).status).toBe(201);
    const sixth = await add(creator.accessToken, `${hooks.origin}/n5`);
    expect([sixth.status, sixth.body.code]).toEqual([422, 'webhook_limit']);
    const list = await server.request('GET', `/api/groups/${group.id}/webhooks`, {
      token: creator.accessToken,
    });
    expect(list.body.webhooks).toHaveLength(5);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  it('sends a Discord message with a link button to a Discord-shaped path', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/api/webhooks/42/tok`, [
      'bet.created',
    ]);
    expect(hook.format).toBe('discord');
    const bet = await createBet(server, creator, group, { title: 'Rain on Saturday?' });
    await sendWebhooks(server);
    const [arrival] = arrivalsAt('/api/webhooks/42/tok?with_components=true');
    expect(isSignedBy(arrival!, hook.secret)).toBe(true);
    const message = arrival!.json as Data;
    expect(message.embeds[0].title).toContain('Rain on Saturday?');
    expect(message.components[0].components[0]).toMatchObject({
      style: 5,
      url: `http://hunch.test/bets/${bet.id}`,
    });
    expect(arrival!.body.length).toBeLessThanOrEqual(2_000 + 500);
  });
});
