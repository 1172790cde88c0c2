import { SignJWT } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import type { RealtimeEventName } from '../../../src/domain/realtime-events';
import type { Audience } from '../../../src/server/events';
import { hangGuard } from '../../hang-guard';
import { startTestServer, useTestServer } from '../harness';
import { createBet, placeWager } from '../bets/bet.factories';
import { befriend, createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import { connectionError, connectSocket, syncSockets, type TestSocket } from './test-socket';

// socket.io against the real server (docs/groups-and-bets.md §3, §7, §8; docs/architecture.md §7): the handshake
// checks the access token, each event reaches the rooms of its audience only, and rooms
// follow memberships while the socket stays open.

const JWT_SECRET = 'realtime-test-secret-'.padEnd(40, 'x');

const server = useTestServer({ env: { JWT_SECRET } });
const open: TestSocket[] = [];

afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

async function connect(user: AuthResponse): Promise<TestSocket> {
  const client = await connectSocket(server, user.accessToken);
  open.push(client);
  return client;
}

/**
 * The bet events of docs/groups-and-bets.md §3 as the bets service publishes them; payloads are
 * only carried, so their shape does not matter here.
 */
const BET_EVENTS: RealtimeEventName[] = [
  'betCreated',
  'wagerPlaced',
  'betResolved',
  'betCancelled',
  'betExpired',
  'pointsRefunded',
];

function publishBetEvents(groupId: number, betId: number, audience: Audience = { groupId }): void {
  for (const event of BET_EVENTS)
    server.app.events.publish(event, { betId, groupId } as never, audience);
}

const betIdsOf = (client: TestSocket, event: RealtimeEventName) =>
  client.heard(event).map((payload) => (payload as { betId: number }).betId);

let nextBetId = 1000;

describe('the handshake', () => {
  it('says connectionAuthenticated with the user and their groups', async () => {
    const user = await createPlayer(server);
    const [first, second] = [
      await createGroup(server, user),
      await createGroup(server, user, { privacy: 'private' }),
    ];
    const client = await connect(user);
    expect(client.heard('connectionAuthenticated')).toEqual([
      { userId: user.user.id, groupIds: [first.id, second.id] },
    ]);
  });

  it('accepts the token with a Bearer prefix too', async () => {
    const user = await createPlayer(server);
    const client = await connectSocket(server, `Bearer ${user.accessToken}`);
    open.push(client);
    expect(client.heard('connectionAuthenticated')).toEqual([
      { userId: user.user.id, groupIds: [] },
    ]);
  });

  it('refuses a missing, a forged and an expired token with an Authentication error', async () => {
    const user = await createPlayer(server);
    expect(await connectionError(server, { auth: {} })).toContain('Authentication');
    expect(await connectionError(server, { auth: { token: 'not.a.token' } })).toContain(
      'Authentication',
    );
    const [header, , signature] = user.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(user.accessToken.split('.')[1]!, 'base64url').toString());
    const tampered = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    expect(
      await connectionError(server, { auth: { token: `${header}.${tampered}.${signature}` } }),
    ).toContain('Authentication');
    const expired = await new SignJWT({ app: 'hunch', tmp: true })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.user.id))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(JWT_SECRET));
    expect(await connectionError(server, { auth: { token: expired } })).toContain('Authentication');
  });

  it('refuses a page of another origin and accepts one of PUBLIC_URL', async () => {
    const user = await createPlayer(server);
    expect(
      await connectionError(server, {
        auth: { token: user.accessToken },
        extraHeaders: { origin: 'https://elsewhere.example' },
      }),
    ).toBeTruthy();
    const client = await connectSocket(server, user.accessToken, {
      extraHeaders: { origin: 'http://hunch.test' },
    });
    open.push(client);
    expect(client.heard('connectionAuthenticated')).toHaveLength(1);
  });

  it('serves no polling transport and no client bundle', async () => {
    expect((await server.request('GET', '/socket.io/?EIO=4&transport=polling')).status).toBe(400);
    expect((await server.request('GET', '/socket.io/socket.io.js')).status).not.toBe(200);
  });
});

describe('who hears what', () => {
  let owner: AuthResponse;
  let member: AuthResponse;
  let outsider: AuthResponse;
  let group: Group;
  let clients: { owner: TestSocket; member: TestSocket; outsider: TestSocket };

  beforeAll(async () => {
    [owner, member, outsider] = await Promise.all([
      createPlayer(server, 'Owner'),
      createPlayer(server, 'Member'),
      createPlayer(server, 'Outsider'),
    ]);
    group = await createGroup(server, owner, { privacy: 'private' });
    await joinGroup(server, member, group);
  });

  async function connectAll() {
    clients = {
      owner: await connect(owner),
      member: await connect(member),
      outsider: await connect(outsider),
    };
  }
  const sync = () =>
    syncSockets(
      server,
      { client: clients.owner, userId: owner.user.id },
      { client: clients.member, userId: member.user.id },
      { client: clients.outsider, userId: outsider.user.id },
    );

  it('sends every bet event of a private group to its members and nothing of it to a non-member', async () => {
    await connectAll();
    const betId = nextBetId++;
    publishBetEvents(group.id, betId);
    await sync();
    for (const event of BET_EVENTS) {
      expect(betIdsOf(clients.owner, event), event).toEqual([betId]);
      expect(betIdsOf(clients.member, event), event).toEqual([betId]);
    }
    expect(clients.outsider.received.map((entry) => entry.event)).toEqual([
      'connectionAuthenticated',
    ]);
  });

  it('sends an event for one user to that user only, on each of their sockets', async () => {
    await connectAll();
    const secondTab = await connect(member);
    server.app.events.publish(
      'pointsRefunded',
      { betId: 7, groupId: group.id, totalRefunded: 3, refundedParticipants: 1 } as never,
      { userId: member.user.id },
    );
    await sync();
    await syncSockets(server, { client: secondTab, userId: member.user.id });
    expect(clients.member.heard('pointsRefunded')).toHaveLength(1);
    expect(secondTab.heard('pointsRefunded')).toHaveLength(1);
    expect(clients.owner.heard('pointsRefunded')).toEqual([]);
    expect(clients.outsider.heard('pointsRefunded')).toEqual([]);
  });

  it('sends groupCreated to the creator only, and their open sockets then hear the new group', async () => {
    await connectAll();
    const created = await createGroup(server, owner, { privacy: 'private' });
    await clients.owner.waitFor('groupCreated', (payload) => payload.groupId === created.id);
    const betId = nextBetId++;
    publishBetEvents(created.id, betId);
    await sync();
    expect(betIdsOf(clients.owner, 'betCreated')).toEqual([betId]);
    expect(clients.member.heard('groupCreated')).toEqual([]);
    expect(betIdsOf(clients.member, 'betCreated')).toEqual([]);
    expect(clients.outsider.received.map((entry) => entry.event)).toEqual([
      'connectionAuthenticated',
    ]);
  });
});

describe('wagers', () => {
  it('tell the group the new totals without the wagerer, and the wagerer their own wager', async () => {
    const [owner, member] = [await createPlayer(server), await createPlayer(server)];
    const group = await createGroup(server, owner);
    await joinGroup(server, member, group);
    const [ownerSocket, memberSocket] = [await connect(owner), await connect(member)];
    const bet = await createBet(server, owner, group);
    await placeWager(server, member, bet, 'yes', 1);
    const mine = await memberSocket.waitFor(
      'wagerPlaced',
      (payload) => payload.betId === bet.id && payload.userId !== undefined,
    );
    expect(mine).toMatchObject({
      betId: bet.id,
      userId: member.user.id,
      points: 1,
      previousPoints: 0,
    });
    const announced = await ownerSocket.waitFor(
      'wagerPlaced',
      (payload) => payload.betId === bet.id,
    );
    expect(announced).toEqual({
      groupId: group.id,
      betId: bet.id,
      answerTotals: { yes: 1 },
      pool: 1,
      wagerCount: 1,
      version: expect.any(Number),
    });
    expect(
      ownerSocket.heard('wagerPlaced').filter((payload) => payload.userId !== undefined),
    ).toEqual([]);
  });
});

describe('rooms follow memberships', () => {
  it('a user who joins hears userJoinedGroup and the group from then on, without reconnecting; outsiders hear nothing', async () => {
    const [owner, joiner, outsider] = await Promise.all([
      createPlayer(server),
      createPlayer(server),
      createPlayer(server),
    ]);
    const group = await createGroup(server, owner, { privacy: 'private' });
    const [ownerSocket, joinerSocket, outsiderSocket] = [
      await connect(owner),
      await connect(joiner),
      await connect(outsider),
    ];

    publishBetEvents(group.id, nextBetId++);
    await joinGroup(server, joiner, group);
    const announced = {
      groupId: group.id,
      userId: joiner.user.id,
      userName: joiner.user.displayName,
      totalPoints: 100,
      availablePoints: 100,
      version: expect.any(Number),
    };
    expect(await ownerSocket.waitFor('userJoinedGroup')).toEqual(announced);
    expect(await joinerSocket.waitFor('userJoinedGroup')).toEqual(announced);

    const afterJoining = nextBetId++;
    publishBetEvents(group.id, afterJoining);
    await syncSockets(
      server,
      { client: joinerSocket, userId: joiner.user.id },
      { client: outsiderSocket, userId: outsider.user.id },
    );
    expect(betIdsOf(joinerSocket, 'betCreated')).toEqual([afterJoining]);
    expect(joinerSocket.heard('userJoinedGroup')).toHaveLength(1);
    expect(outsiderSocket.received.map((entry) => entry.event)).toEqual([
      'connectionAuthenticated',
    ]);
  });

  it('a user added by an admin hears the group from then on', async () => {
    const [admin, added] = await Promise.all([createPlayer(server), createPlayer(server)]);
    await befriend(server, admin, added);
    const group = await createGroup(server, admin, { privacy: 'private' });
    const addedSocket = await connect(added);
    const response = await server.request('POST', `/api/groups/${group.id}/members`, {
      token: admin.accessToken,
      body: { userId: added.user.id },
    });
    expect(response.status).toBe(200);
    await addedSocket.waitFor('userJoinedGroup', (payload) => payload.groupId === group.id);
    const betId = nextBetId++;
    publishBetEvents(group.id, betId);
    expect(await addedSocket.waitFor('betCreated')).toMatchObject({ betId });
  });

  it('a member who leaves, or is removed, stops hearing the group; the internal event reaches nobody', async () => {
    const [owner, leaver, removed] = await Promise.all([
      createPlayer(server),
      createPlayer(server),
      createPlayer(server),
    ]);
    const group = await createGroup(server, owner, { privacy: 'private' });
    await joinGroup(server, leaver, group);
    await joinGroup(server, removed, group);
    const [ownerSocket, leaverSocket, removedSocket] = [
      await connect(owner),
      await connect(leaver),
      await connect(removed),
    ];
    expect(leaverSocket.heard('connectionAuthenticated')).toEqual([
      { userId: leaver.user.id, groupIds: [group.id] },
    ]);

    const whileMember = nextBetId++;
    publishBetEvents(group.id, whileMember);
    expect(
      (await server.request('POST', `/api/groups/${group.id}/leave`, { token: leaver.accessToken }))
        .status,
    ).toBe(200);
    expect(
      (
        await server.request('DELETE', `/api/groups/${group.id}/members/${removed.user.id}`, {
          token: owner.accessToken,
        })
      ).status,
    ).toBe(200);
    const afterwards = nextBetId++;
    publishBetEvents(group.id, afterwards);

    const everyone = [
      { client: ownerSocket, userId: owner.user.id },
      { client: leaverSocket, userId: leaver.user.id },
      { client: removedSocket, userId: removed.user.id },
    ];
    await syncSockets(server, ...everyone);
    expect(betIdsOf(ownerSocket, 'betCreated')).toEqual([whileMember, afterwards]);
    expect(betIdsOf(leaverSocket, 'betCreated')).toEqual([whileMember]);
    expect(betIdsOf(removedSocket, 'betCreated')).toEqual([whileMember]);
    for (const { client } of everyone)
      expect(client.received.map((entry) => entry.event)).not.toContain('membershipEnded');
    // The group, and each former member's own sockets, heard who left and who was removed.
    const departures = (client: TestSocket) =>
      client
        .heard('userLeftGroup')
        .map((payload) => ({ userId: payload.userId, removed: payload.removed }));
    expect(departures(ownerSocket)).toEqual([
      { userId: leaver.user.id, removed: false },
      { userId: removed.user.id, removed: true },
    ]);
    expect(departures(leaverSocket)).toEqual([{ userId: leaver.user.id, removed: false }]);
    // Still a member when the other left: they heard that too.
    expect(departures(removedSocket)).toEqual([
      { userId: leaver.user.id, removed: false },
      { userId: removed.user.id, removed: true },
    ]);
  });
});

describe('shutdown', () => {
  it('closes with sockets open, dropping them so that clients reconnect', async () => {
    const own = await startTestServer();
    try {
      const user = await createPlayer(own);
      const client = await connectSocket(own, user.accessToken);
      const reason = new Promise<string>((resolve) => client.socket.once('disconnect', resolve));
      await own.close();
      // "io server disconnect" would tell the client not to reconnect (docs/groups-and-bets.md §4).
      expect(await reason).toBe('transport close');
      client.close();
    } catch (error) {
      await own.close().catch(() => undefined);
      throw error;
    }
  });

  it('cuts a websocket whose device never answers the close, instead of waiting for it', async () => {
    const own = await startTestServer();
    const user = await createPlayer(own);
    const client = await connectSocket(own, user.accessToken);
    try {
      // A phone gone offline: it reads nothing more, so it never answers the close frame, and
      // ws would hold the HTTP server's close open for its 30 s close timeout.
      const engine = client.socket.io.engine as unknown as {
        transport: { ws: { _socket: { pause(): void } } };
      };
      engine.transport.ws._socket.pause();
      await hangGuard(own.close(), 20_000, () => 'the server waited for the silent websocket');
    } finally {
      client.close();
    }
  });
});
