import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ODDS_PUSH_INTERVAL_MS } from '../../../src/domain/push';
import { createBet, placeWager, resolve, cancel } from '../bets/bet.factories';
import { addComment } from '../comments/comment.factories';
import {
  createGroup,
  createGroupWithRoles,
  createPlayer,
  joinGroup,
} from '../groups/group.factories';
import { useTestServer } from '../harness';
import {
  startPushStandIn,
  subscribedDevice,
  type PushStandIn,
} from '../push/push-service-stand-in';
import { inboxOf, mute, NO_TIMERS } from './notification.factories';

// The inbox: every notification is an entry of its recipient's inbox, also
// without push; bursts gather in one entry; mutes keep entries out (a result still lands, not
// pushed); the push kinds decide what reaches push; read and read-all; the mirror carries it.

let standIn: PushStandIn;
beforeAll(async () => {
  standIn = await startPushStandIn();
});
afterAll(() => standIn?.close());
const server = useTestServer(NO_TIMERS);

describe('entries from what happens in a group', () => {
  it('gathers new bets of a group while unread, and starts a new entry once read', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const first = await createBet(server, creator, group, { title: 'Pizza tonight?' });
    let inbox = await inboxOf(server, member);
    const [entry] = inbox.notifications.filter((n) => n.kind === 'betCreated');
    expect(entry).toMatchObject({
      groupId: group.id,
      betId: first.id,
      count: 1,
      readAt: null,
      payload: { groupName: group.name, betTitle: 'Pizza tonight?' },
    });
    expect(inbox.unreadCount).toBeGreaterThanOrEqual(1);

    await createBet(server, creator, group, { title: 'Tacos tomorrow?' });
    const third = await createBet(server, creator, group, { title: 'Sushi on Friday?' });
    inbox = await inboxOf(server, member);
    const gathered = inbox.notifications.filter((n) => n.kind === 'betCreated');
    expect(gathered).toHaveLength(1);
    expect(gathered[0]).toMatchObject({
      id: entry!.id,
      count: 3,
      betId: third.id,
      payload: { betTitle: 'Sushi on Friday?' },
    });
    // The creator hears nothing of their own bets.
    expect(
      (await inboxOf(server, creator)).notifications.filter((n) => n.kind === 'betCreated'),
    ).toEqual([]);

    const read = await server.request('POST', '/api/notifications/read', {
      token: member.accessToken,
      body: { ids: [entry!.id] },
    });
    expect(read.status).toBe(200);
    expect(read.body.notifications[0]).toMatchObject({ id: entry!.id, readAt: expect.any(String) });
    await createBet(server, creator, group, { title: 'Burgers?' });
    const after = (await inboxOf(server, member)).notifications.filter(
      (n) => n.kind === 'betCreated',
    );
    expect(after.map((n) => [n.count, n.readAt === null])).toEqual([
      [1, true],
      [3, false],
    ]);
  });

  it('tells every participant their result, the gain or loss in points', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { title: 'Derby?', baseWagerAmount: 2 });
    await placeWager(server, admin, bet, 'yes', 4);
    await placeWager(server, member, bet, 'no', 6);
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    const resultOf = async (user: typeof admin) =>
      (await inboxOf(server, user)).notifications.find(
        (n) => n.kind === 'betResult' && n.betId === bet.id,
      );
    expect(await resultOf(admin)).toMatchObject({
      payload: { outcome: 'resolved', answer: 'Yes', winnings: 10, wagerAmount: 4 },
    });
    expect(await resultOf(member)).toMatchObject({
      payload: { outcome: 'resolved', winnings: 0, wagerAmount: 6 },
    });
    expect(await resultOf(creator)).toBeUndefined();

    const refunded = await createBet(server, creator, group, { title: 'Snow?' });
    await placeWager(server, member, refunded, 'yes', 3);
    expect((await cancel(server, creator, refunded)).status).toBe(200);
    expect(
      (await inboxOf(server, member)).notifications.find(
        (n) => n.kind === 'betResult' && n.betId === refunded.id,
      ),
    ).toMatchObject({ payload: { outcome: 'cancelled', wagerAmount: 3 } });
  });

  it('gathers arrivals per group, and comments per bet for its participants only', async () => {
    const creator = await createPlayer(server, 'Host');
    const group = await createGroup(server, creator);
    const ana = await createPlayer(server, 'Ana');
    const ben = await createPlayer(server, 'Ben');
    const cy = await createPlayer(server, 'Cy');
    for (const player of [ana, ben, cy]) await joinGroup(server, player, group);
    const joined = (await inboxOf(server, creator)).notifications.filter(
      (n) => n.kind === 'memberJoined' && n.groupId === group.id,
    );
    expect(joined).toMatchObject([
      { count: 3, payload: { actorName: cy.user.displayName, memberCount: 4 } },
    ]);

    const bet = await createBet(server, creator, group, { title: 'Who wins?' });
    await placeWager(server, ana, bet, 'yes', 1);
    await addComment(server, ben, bet, 'Surely not!');
    await addComment(server, ben, bet, 'Really, no way it happens.');
    const comments = async (user: typeof ana) =>
      (await inboxOf(server, user)).notifications.filter((n) => n.kind === 'comments');
    expect(await comments(ana)).toMatchObject([
      {
        betId: bet.id,
        count: 2,
        payload: { actorName: ben.user.displayName, excerpt: 'Really, no way it happens.' },
      },
    ]);
    expect(await comments(creator)).toMatchObject([{ betId: bet.id, count: 2 }]);
    // Cy took no part in the bet; Ben wrote them.
    expect(await comments(cy)).toEqual([]);
    expect(await comments(ben)).toEqual([]);
  });
});

describe('mutes and push kinds', () => {
  it('a muted group sends no entries but results, and never a push', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const device = await subscribedDevice(server, standIn, member);
    const muted = await mute(server, member, { groupId: group.id });
    expect(muted.status).toBe(200);
    expect(muted.body.mutedGroupIds).toContain(group.id);

    const bet = await createBet(server, creator, group, { title: 'Muted bet?' });
    await placeWager(server, member, bet, 'yes', 2);
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    const kinds = (await inboxOf(server, member)).notifications
      .filter((n) => n.groupId === group.id)
      .map((n) => n.kind);
    expect(kinds).toEqual(['betResult']);
    expect(device.notifications()).toEqual([]);
  });

  it('a kind turned off reaches the inbox but not push', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const device = await subscribedDevice(server, standIn, member);
    const off = await server.request('PUT', '/api/notification-settings/push', {
      token: member.accessToken,
      body: { pushOff: ['betCreated'] },
    });
    expect(off.status).toBe(200);
    expect(off.body.pushOff).toEqual(['betCreated']);
    await createBet(server, creator, group, { title: 'Quiet bet?' });
    expect(
      (await inboxOf(server, member)).notifications.some(
        (n) => n.payload.betTitle === 'Quiet bet?',
      ),
    ).toBe(true);
    expect(device.notifications()).toEqual([]);
  });

  it('the odds moving on a bet you backed is an entry, gathered while unread, with its own push switch', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const device = await subscribedDevice(server, standIn, member);
    const bet = await createBet(server, creator, group, { title: 'Derby at home?' });
    await placeWager(server, member, bet, 'yes', 1);
    await placeWager(server, creator, bet, 'no', 3);
    const odds = async () =>
      (await inboxOf(server, member)).notifications.filter((n) => n.kind === 'oddsChanged');
    const [entry] = await odds();
    expect(entry).toMatchObject({
      betId: bet.id,
      count: 1,
      readAt: null,
      payload: { betTitle: 'Derby at home?', answer: 'Yes', multiplier: 4, pool: 4 },
    });
    expect(device.notifications().map((n) => n.body)).toContain(
      'Your pick Yes pays 4×, with 4 points in the pool now.',
    );
    // The creator caused it and the member backed nothing else: nobody else hears.
    expect(
      (await inboxOf(server, creator)).notifications.some((n) => n.kind === 'oddsChanged'),
    ).toBe(false);

    // Switched off for push: the next move (past the 10 minutes) updates the entry, silently.
    const off = await server.request('PUT', '/api/notification-settings/push', {
      token: member.accessToken,
      body: { pushOff: ['oddsChanged'] },
    });
    expect(off.status).toBe(200);
    const oddsPushes = () => device.notifications().filter((n) => n.tag === `bet-${bet.id}-odds`);
    expect(oddsPushes()).toHaveLength(1);
    server.clock.advance(ODDS_PUSH_INTERVAL_MS + 1000);
    const third = await createPlayer(server, 'Third');
    await joinGroup(server, third, group);
    await placeWager(server, third, bet, 'no', 2);
    const [gathered] = await odds();
    expect(gathered).toMatchObject({
      id: entry!.id,
      count: 2,
      payload: { multiplier: 6, pool: 6 },
    });
    expect(oddsPushes()).toHaveLength(1);
  });

  it('keeps one unread "odds moved" entry per bet that follows every move, pushed at most once per 10 minutes', async () => {
    const { group, creator, member, admin } = await createGroupWithRoles(server);
    const device = await subscribedDevice(server, standIn, member);
    const bet = await createBet(server, creator, group, { title: 'Rain at the match?' });
    await placeWager(server, member, bet, 'yes', 1);
    await placeWager(server, creator, bet, 'no', 2);
    // Within the 10 minutes: no new push, but the entry says how the pick pays now.
    await placeWager(server, admin, bet, 'no', 3);
    const entries = (await inboxOf(server, member)).notifications.filter(
      (n) => n.kind === 'oddsChanged' && n.betId === bet.id,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      count: 2,
      readAt: null,
      payload: { pool: 6, multiplier: 6 },
    });
    expect(device.notifications().filter((n) => n.tag === `bet-${bet.id}-odds`)).toHaveLength(1);
  });

  it('never holds more than one unread "odds moved" entry per bet, and it tells the latest pool', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            player: fc.integer({ min: 0, max: 3 }),
            bet: fc.integer({ min: 0, max: 1 }),
            points: fc.integer({ min: 1, max: 3 }),
            readFirst: fc.boolean(),
            later: fc.boolean(),
          }),
          { minLength: 2, maxLength: 8 },
        ),
        async (steps) => {
          // A fresh group each run: its players start with their full points.
          const { group, creator, member, admin } = await createGroupWithRoles(server);
          const extra = await createPlayer(server, 'Extra');
          await joinGroup(server, extra, group);
          const players = [creator, member, admin, extra];
          const bets = [
            await createBet(server, creator, group),
            await createBet(server, creator, group),
          ];
          const pools = [0, 0];
          const backers = [new Set<number>(), new Set<number>()];
          for (const step of steps) {
            const player = players[step.player]!;
            if (step.readFirst)
              await server.request('POST', '/api/notifications/read-all', {
                token: player.accessToken,
                body: { upTo: server.clock.now().toISOString() },
              });
            if (step.later) server.clock.advance(ODDS_PUSH_INTERVAL_MS + 1000);
            if (backers[step.bet]!.has(step.player)) continue;
            await placeWager(server, player, bets[step.bet]!, 'yes', step.points);
            pools[step.bet]! += step.points;
            backers[step.bet]!.add(step.player);
            for (const [index, other] of players.entries()) {
              const unread = (await inboxOf(server, other)).notifications.filter(
                (n) => n.kind === 'oddsChanged' && n.betId === bets[step.bet]!.id && !n.readAt,
              );
              expect(unread.length).toBeLessThanOrEqual(1);
              // Whoever else backed this bet hears of this move: the entry says the pool now.
              if (index !== step.player && backers[step.bet]!.has(index))
                expect(unread[0]?.payload.pool).toBe(pools[step.bet]);
            }
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it('writes the moves heard together in one batch: each bet once, with its newest totals, to all but its newest mover', async () => {
    const { group, creator, member, admin } = await createGroupWithRoles(server);
    const rain = await createBet(server, creator, group, { title: 'Rain?' });
    const snow = await createBet(server, creator, group, { title: 'Snow?' });
    for (const player of [creator, member, admin]) await placeWager(server, player, rain, 'yes', 1);
    await placeWager(server, member, snow, 'no', 2);
    await placeWager(server, admin, snow, 'yes', 1);
    await inboxOf(server, creator);
    for (const player of [creator, member, admin])
      await server.request('POST', '/api/notifications/read-all', {
        token: player.accessToken,
        body: { upTo: server.clock.now().toISOString() },
      });
    // Three moves heard in one turn, two of them on one bet (as a busy server hears them).
    const move = (userId: number, betId: number, pool: number, version: number) =>
      server.app.events.publish(
        'wagerSaved',
        {
          groupId: group.id,
          userId,
          betId,
          points: 1,
          previousPoints: 0,
          answerTotals: { yes: pool },
          pool,
          wagerCount: 3,
          version,
        },
        { groupId: group.id },
      );
    move(member.user.id, rain.id, 10, 1_000_001);
    move(admin.user.id, rain.id, 12, 1_000_002);
    move(admin.user.id, snow.id, 9, 1_000_003);
    const unreadOdds = async (player: typeof creator) =>
      (await inboxOf(server, player)).notifications
        .filter((n) => n.kind === 'oddsChanged' && !n.readAt)
        .map((n) => ({ betId: n.betId, count: n.count, pool: n.payload.pool }));
    // The creator hears of Rain once (one batch, one update), at its newest pool.
    expect(await unreadOdds(creator)).toEqual([{ betId: rain.id, count: 1, pool: 12 }]);
    // The member moved Rain earlier in the batch, so hears of the admin's newer move, and of Snow.
    expect((await unreadOdds(member)).sort((a, b) => (a.betId ?? 0) - (b.betId ?? 0))).toEqual([
      { betId: rain.id, count: 1, pool: 12 },
      { betId: snow.id, count: 1, pool: 9 },
    ]);
    // The newest mover of both hears of neither.
    expect(await unreadOdds(admin)).toEqual([]);
  });

  it('refuses bad input with 400 and muting a group one is not in with 403', async () => {
    const { group, outsider, member } = await createGroupWithRoles(server);
    expect((await mute(server, outsider, { groupId: group.id })).body.code).toBe('not_member');
    const bad = await server.request('PUT', '/api/notification-settings/push', {
      token: member.accessToken,
      body: { pushOff: ['everything'] },
    });
    expect(bad.status).toBe(400);
    const noIds = await server.request('POST', '/api/notifications/read', {
      token: member.accessToken,
      body: { ids: [] },
    });
    expect(noIds.status).toBe(400);
    const badDate = await server.request('POST', '/api/notifications/read-all', {
      token: member.accessToken,
      body: { upTo: 'yesterday' },
    });
    expect(badDate.status).toBe(400);
    expect((await server.request('GET', '/api/notifications')).status).toBe(401);
  });
});

describe('reading', () => {
  it('read-all reads what the device showed, not what came after; others’ ids change nothing', async () => {
    const { group, creator, member, admin } = await createGroupWithRoles(server);
    await createBet(server, creator, group);
    const shown = await inboxOf(server, member);
    const upTo = shown.notifications[0]!.updatedAt;
    const other = await server.request('POST', '/api/notifications/read', {
      token: admin.accessToken,
      body: { ids: [shown.notifications[0]!.id] },
    });
    expect(other.body.notifications).toEqual([]);
    const response = await server.request('POST', '/api/notifications/read-all', {
      token: member.accessToken,
      body: { upTo },
    });
    expect(response.status).toBe(200);
    expect((await inboxOf(server, member)).unreadCount).toBe(0);
  });

  it('is in the mirror: whole on a first pull, changes after', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    await createBet(server, creator, group, { title: 'Mirrored?' });
    await server.app.push.idle();
    const first = await server.request('GET', '/api/member/state?cursor=0', {
      token: member.accessToken,
    });
    const entry = first.body.notifications.find(
      (n: { payload: { betTitle?: string } }) => n.payload.betTitle === 'Mirrored?',
    );
    expect(entry).toMatchObject({ kind: 'betCreated', readAt: null });
    // No choice made yet: no settings row, the defaults hold.
    expect(first.body.notificationSettings).toBeNull();

    const quiet = await server.request(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(first.body.cursor)}`,
      { token: member.accessToken },
    );
    expect(quiet.body.notifications).toEqual([]);
    expect(quiet.body.notificationSettings).toBeNull();

    await server.request('POST', '/api/notifications/read', {
      token: member.accessToken,
      body: { ids: [entry.id] },
    });
    await mute(server, member, { groupId: group.id });
    const changed = await server.request(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(quiet.body.cursor)}`,
      { token: member.accessToken },
    );
    expect(changed.body.notifications).toMatchObject([
      { id: entry.id, readAt: expect.any(String) },
    ]);
    expect(changed.body.notificationSettings.mutedGroupIds).toEqual([group.id]);
    expect(changed.body.notifications[0].version).toBeGreaterThan(entry.version);
  });
});
