import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ODDS_PUSH_INTERVAL_MS } from '../../../src/domain/push';
import { createBet, NO_EXPIRY_TIMER, placeWager, resolve } from '../bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import { startTestServer, useTestServer } from '../harness';
import {
  startPushStandIn,
  subscribedDevice,
  verifyVapidAuthorization,
  type BrowserDevice,
  type PushStandIn,
} from './push-service-stand-in';

// Notifications reach a local stand-in push service, are decrypted with the browser's keys,
// and say what happened (docs/architecture.md §7): only to current members, never to the
// person who caused the event.

let standIn: PushStandIn;
let publicKey: string;

beforeAll(async () => {
  standIn = await startPushStandIn();
});
afterAll(() => standIn?.close());
const server = useTestServer(NO_EXPIRY_TIMER);
beforeAll(async () => {
  publicKey = (await server.request('GET', '/api/push-subscriptions/vapid-public-key')).body
    .publicKey;
});

/** Waits for every notification the last requests caused, instead of sleeping. */
const settle = () => server.app.push.idle();

/** A group of a creator and members, each with a subscribed device, and a subscribed outsider. */
async function subscribedGroup(memberCount = 2) {
  const creator = await createPlayer(server, 'Creator');
  const group = await createGroup(server, creator);
  const members = [];
  for (let i = 0; i < memberCount; i += 1) {
    const member = await createPlayer(server, 'Member');
    await joinGroup(server, member, group);
    members.push(member);
  }
  const outsider = await createPlayer(server, 'Outsider');
  await settle();
  const devices = {
    creator: await subscribedDevice(server, standIn, creator),
    members: await Promise.all(members.map((member) => subscribedDevice(server, standIn, member))),
    outsider: await subscribedDevice(server, standIn, outsider),
  };
  return { creator, group, members, outsider, devices };
}

const titles = (device: BrowserDevice) =>
  device.notifications().map((notification) => notification.title);

describe('a bet created in a group', () => {
  it('tells every other member, encrypted for their browser and signed with the server VAPID key', async () => {
    const { creator, group, devices } = await subscribedGroup();
    const bet = await createBet(server, creator, group, { title: 'Will it snow on Sunday?' });
    await settle();

    for (const device of devices.members) {
      expect(device.notifications()).toEqual([
        {
          title: `New bet in ${group.name}`,
          body: `${creator.user.displayName} asks: Will it snow on Sunday?`,
          url: `/bets/${bet.id}`,
          // New bets of a group share a tag: a burst replaces one notice on the device.
          tag: `group-${group.id}-bets`,
        },
      ]);
      const [request] = device.requests();
      expect(request!.method).toBe('POST');
      expect(request!.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(request!.headers.ttl)).toBeGreaterThan(0);
      expect(verifyVapidAuthorization(request!.headers.authorization, standIn.origin)).toBe(
        publicKey,
      );
    }
    expect(devices.creator.requests()).toEqual([]);
    expect(devices.outsider.requests()).toEqual([]);
  });

  it('does not reach a member who left the group', async () => {
    const { creator, group, members, devices } = await subscribedGroup();
    expect(
      (
        await server.request('POST', `/api/groups/${group.id}/leave`, {
          token: members[0]!.accessToken,
        })
      ).status,
    ).toBe(200);
    await createBet(server, creator, group);
    await settle();
    expect(devices.members[0]!.requests()).toEqual([]);
    expect(devices.members[1]!.notifications()).toHaveLength(1);
  });

  it('plans the pushes due together, each by its own player’s devices and choices', async () => {
    // One bet makes every member's entry in one turn: the notifier plans them as one batch.
    const { creator, group, members, devices } = await subscribedGroup(2);
    const [withTwo, quiet] = members;
    const second = await subscribedDevice(server, standIn, withTwo!);
    const off = await server.request('PUT', '/api/notification-settings/push', {
      token: quiet!.accessToken,
      body: { pushOff: ['betCreated'] },
    });
    expect(off.status).toBe(200);
    // A member with no device at all is in the same batch.
    await joinGroup(server, await createPlayer(server, 'Deviceless'), group);
    await settle();
    await createBet(server, creator, group, { title: 'All at once?' });
    await settle();
    const betPushes = (device: BrowserDevice) =>
      titles(device).filter((title) => title === `New bet in ${group.name}`);
    expect(betPushes(devices.members[0]!)).toHaveLength(1);
    expect(betPushes(second)).toHaveLength(1);
    expect(betPushes(devices.members[1]!)).toEqual([]);
    expect(betPushes(devices.creator)).toEqual([]);
    expect(devices.outsider.requests()).toEqual([]);
  });

  it('answers the request before the push service does', async () => {
    const { creator, group, devices } = await subscribedGroup(1);
    const release = standIn.hold();
    try {
      const response = await server.request('POST', '/api/bets', {
        token: creator.accessToken,
        body: {
          title: 'Held push',
          betType: 'yes_no',
          betTypeConfig: {},
          baseWagerAmount: 1,
          expiresAt: new Date(server.clock.now().getTime() + 86_400_000).toISOString(),
          groupId: group.id,
        },
      });
      expect(response.status).toBe(201);
      await expect.poll(() => devices.members[0]!.requests().length).toBe(1);
    } finally {
      release();
    }
    await settle();
    expect(devices.members[0]!.notifications()[0]!.body).toContain('Held push');
  });
});

describe('a member joining', () => {
  it('tells the members already there, not the newcomer nor outsiders', async () => {
    const { group, devices } = await subscribedGroup(1);
    const newcomer = await createPlayer(server, 'Newcomer');
    const newcomerDevice = await subscribedDevice(server, standIn, newcomer);
    await joinGroup(server, newcomer, group);
    await settle();

    const expected = {
      title: `${newcomer.user.displayName} joined ${group.name}`,
      body: `${group.name} has 3 players now.`,
      url: `/group/${group.id}`,
      tag: `group-${group.id}-members`,
    };
    // The creator had not read the first member's arrival: both are one gathered entry.
    expect(devices.creator.notifications()).toEqual([
      {
        ...expected,
        title: `2 players joined ${group.name}`,
        body: `The latest: ${newcomer.user.displayName}. Say hello!`,
      },
    ]);
    expect(devices.members[0]!.notifications()).toEqual([expected]);
    expect(newcomerDevice.requests()).toEqual([]);
    expect(devices.outsider.requests()).toEqual([]);
  });
});

describe('a bet resolved', () => {
  it('tells each participant their own result, and not the creator who resolved it', async () => {
    const { creator, group, members, devices } = await subscribedGroup(3);
    const bet = await createBet(server, creator, group, {
      title: 'Rain at the match?',
      baseWagerAmount: 3,
    });
    await placeWager(server, members[0]!, bet, 'yes', 3);
    await placeWager(server, members[1]!, bet, 'no', 6);
    await placeWager(server, members[2]!, bet, 'yes', 9);
    await placeWager(server, creator, bet, 'no', 3);
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    await settle();

    // Pool 21 shared by the yes side (12): 5.25 and 15.75; the leftover point goes to the larger remainder.
    const results = (device: BrowserDevice) =>
      device.notifications().filter((n) => n.title === 'Resolved: Rain at the match?');
    expect(results(devices.members[0]!)).toEqual([
      {
        title: 'Resolved: Rain at the match?',
        body: 'You won 5 points (+2)',
        url: `/bets/${bet.id}`,
        tag: `bet-${bet.id}`,
      },
    ]);
    expect(results(devices.members[1]!).map((n) => n.body)).toEqual(['You lost 6 points']);
    expect(results(devices.members[2]!).map((n) => n.body)).toEqual(['You won 16 points (+7)']);
    expect(results(devices.creator)).toEqual([]);
    expect(devices.outsider.requests()).toEqual([]);
  });

  it('says the points came back when the winners only share their own stakes', async () => {
    const { creator, group, members, devices } = await subscribedGroup(1);
    const bet = await createBet(server, creator, group, { title: 'Sunny?', baseWagerAmount: 3 });
    await placeWager(server, members[0]!, bet, 'yes', 9);
    await resolve(server, creator, bet, 'yes');
    await settle();
    expect(devices.members[0]!.notifications().at(-1)).toMatchObject({
      title: 'Resolved: Sunny?',
      body: 'You got your 9 points back',
    });
  });
});

describe('odds changing on a bet', () => {
  it('tells those with a wager, except the wagerer, at most once per bet per 10 minutes each', async () => {
    const { creator, group, members, devices } = await subscribedGroup(4);
    const [ana, ben, cleo, dev] = members as [
      (typeof members)[0],
      (typeof members)[0],
      (typeof members)[0],
      (typeof members)[0],
    ];
    const [anaDevice, benDevice, cleoDevice, devDevice] = devices.members as [
      BrowserDevice,
      BrowserDevice,
      BrowserDevice,
      BrowserDevice,
    ];
    const bet = await createBet(server, creator, group, { title: 'Derby winner home?' });
    await settle();
    const odds = (device: BrowserDevice) =>
      device.notifications().filter((n) => n.tag === `bet-${bet.id}-odds`);

    await placeWager(server, ana, bet, 'yes', 1);
    await settle();
    expect(devices.members.map((device) => odds(device).length)).toEqual([0, 0, 0, 0]);

    await placeWager(server, ben, bet, 'no', 3);
    await settle();
    expect(odds(anaDevice)).toEqual([
      {
        title: 'The odds moved: Derby winner home?',
        body: 'Your pick Yes pays 4×, with 4 points in the pool now.',
        url: `/bets/${bet.id}`,
        tag: `bet-${bet.id}-odds`,
      },
    ]);
    expect(odds(benDevice)).toEqual([]);

    // Within 10 minutes: Ana was told already; Ben hears for the first time.
    server.clock.advance(ODDS_PUSH_INTERVAL_MS - 60_000);
    await placeWager(server, cleo, bet, 'yes', 2);
    await settle();
    expect([odds(anaDevice).length, odds(benDevice).length, odds(cleoDevice).length]).toEqual([
      1, 1, 0,
    ]);
    expect(odds(benDevice)[0]!.body).toBe('Your pick No pays 2×, with 6 points in the pool now.');

    // Past 10 minutes since Ana's notice (not Ben's): only Ana and Cleo hear of the next wager.
    server.clock.advance(2 * 60_000);
    await placeWager(server, dev, bet, 'no', 1);
    await settle();
    expect([
      odds(anaDevice).length,
      odds(benDevice).length,
      odds(cleoDevice).length,
      odds(devDevice).length,
    ]).toEqual([2, 1, 1, 0]);

    server.clock.advance(ODDS_PUSH_INTERVAL_MS);
    await placeWager(server, creator, bet, 'yes', 3);
    await settle();
    expect([
      odds(anaDevice).length,
      odds(benDevice).length,
      odds(cleoDevice).length,
      odds(devDevice).length,
    ]).toEqual([3, 2, 2, 1]);
    expect(devices.creator.notifications().filter((n) => n.tag === `bet-${bet.id}-odds`)).toEqual(
      [],
    );
    expect(devices.outsider.requests()).toEqual([]);
  });
});

describe('odds changing under concurrent wagers', () => {
  it('still makes one notice per person: the claim is one conditional upsert', async () => {
    const { creator, group, members, devices } = await subscribedGroup(4);
    const bet = await createBet(server, creator, group);
    await placeWager(server, members[0]!, bet, 'yes', 1);
    await settle();
    await Promise.all(
      members.slice(1).map((member, i) => placeWager(server, member, bet, i % 2 ? 'yes' : 'no', 1)),
    );
    await settle();
    expect(
      devices.members[0]!.notifications().filter((n) => n.tag === `bet-${bet.id}-odds`),
    ).toHaveLength(1);
  });
});

describe('a subscription the push service no longer knows', () => {
  it.each([410, 404])('is deactivated when the push service answers %i', async (status) => {
    const { creator, group, members, devices } = await subscribedGroup(1);
    const device = devices.members[0]!;
    standIn.answerWith(device.endpoint, status);
    await createBet(server, creator, group);
    await settle();
    expect(device.requests()).toHaveLength(1);

    const query = `deviceId=${device.deviceId}&appName=hunch`;
    const statusResponse = await server.request('GET', `/api/push-subscriptions/status?${query}`, {
      token: members[0]!.accessToken,
    });
    expect(statusResponse.body).toEqual({ active: false });

    await createBet(server, creator, group);
    await settle();
    expect(device.requests()).toHaveLength(1);
  });

  it('is kept when the push service fails otherwise', async () => {
    const { creator, group, members, devices } = await subscribedGroup(1);
    const device = devices.members[0]!;
    standIn.answerWith(device.endpoint, 500);
    await createBet(server, creator, group);
    await settle();
    const statusResponse = await server.request(
      'GET',
      `/api/push-subscriptions/status?deviceId=${device.deviceId}&appName=hunch`,
      { token: members[0]!.accessToken },
    );
    expect(statusResponse.body).toEqual({ active: true });
  });
});

describe('a device registering again', () => {
  it('gets notifications at its new endpoint only', async () => {
    const { creator, group, members, devices } = await subscribedGroup(1);
    const old = devices.members[0]!;
    const renewed = await subscribedDevice(server, standIn, members[0]!);
    // Same device id, new PushSubscription (the browser renewed it).
    const response = await server.request('POST', '/api/push-subscriptions', {
      token: members[0]!.accessToken,
      body: {
        appName: 'hunch',
        deviceId: old.deviceId,
        endpoint: renewed.endpoint,
        keys: renewed.keys,
      },
    });
    expect(response.status).toBe(201);
    await createBet(server, creator, group, { title: 'Renewed?' });
    await settle();
    expect(old.requests()).toEqual([]);
    expect(renewed.notifications().map((n) => n.body)).toEqual([
      `${creator.user.displayName} asks: Renewed?`,
    ]);
  });
});

describe('PUSH_ENABLED=false', () => {
  it('keeps subscriptions but sends nothing', async () => {
    const quiet = await startTestServer({ env: { ...NO_EXPIRY_TIMER.env, PUSH_ENABLED: 'false' } });
    try {
      const creator = await createPlayer(quiet, 'Creator');
      const member = await createPlayer(quiet, 'Member');
      const group = await createGroup(quiet, creator);
      await joinGroup(quiet, member, group);
      const device = await subscribedDevice(quiet, standIn, member);
      await createBet(quiet, creator, group);
      await quiet.app.push.idle();
      expect(device.requests()).toEqual([]);
      expect(titles(device)).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
