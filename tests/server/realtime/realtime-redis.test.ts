import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { useTestServer } from '../harness';
import { createBet } from '../bets/bet.factories';
import { listComments, postComment } from '../comments/comment.factories';
import { createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import { connectSocket, syncSockets, type TestSocket } from './test-socket';

// Two instances behind a load balancer share PostgreSQL (or here one database) and Redis:
// an event published on A reaches sockets on B, and room changes made on A apply to B's
// sockets (docs/architecture.md §9). Runs whenever REDIS_URL is set, as CI sets it.

describe.runIf(process.env.REDIS_URL)('realtime across instances through Redis', () => {
  // One JWT secret (a token from A works on B) and one adapter key of their own (the
  // pglite and postgres projects run this file at the same time against one Redis).
  const env = { REDIS_URL: process.env.REDIS_URL!, JWT_SECRET: randomBytes(24).toString('hex') };
  const realtimeRedisKey = `hunch-test-cluster-${process.pid}-${randomBytes(4).toString('hex')}`;
  const first = useTestServer({ env, realtimeRedisKey });
  const second = useTestServer(() => ({ env, realtimeRedisKey, database: first.database }));
  const open: TestSocket[] = [];

  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });

  async function connectToSecond(user: AuthResponse): Promise<TestSocket> {
    const client = await connectSocket(second, user.accessToken);
    open.push(client);
    return client;
  }

  it('a join through A reaches the members and the joiner connected to B, and A then routes the group to B', async () => {
    const [owner, joiner, outsider] = await Promise.all([
      createPlayer(first),
      createPlayer(first),
      createPlayer(first),
    ]);
    const group = await createGroup(first, owner, { privacy: 'private' });
    const [ownerOnB, joinerOnB, outsiderOnB] = [
      await connectToSecond(owner),
      await connectToSecond(joiner),
      await connectToSecond(outsider),
    ];

    await joinGroup(first, joiner, group);
    const announced = {
      groupId: group.id,
      userId: joiner.user.id,
      userName: joiner.user.displayName,
      totalPoints: 100,
      availablePoints: 100,
      version: expect.any(Number),
    };
    expect(await ownerOnB.waitFor('userJoinedGroup')).toEqual(announced);
    expect(await joinerOnB.waitFor('userJoinedGroup')).toEqual(announced);

    // As the bets service on A would after a wager's commit.
    const wager = { groupId: group.id, userId: owner.user.id, betId: 42, points: 3 };
    first.app.events.publish('wagerPlaced', wager as never, { groupId: group.id });
    expect(await joinerOnB.waitFor('wagerPlaced')).toMatchObject(wager);
    expect(await ownerOnB.waitFor('wagerPlaced')).toMatchObject(wager);
    await syncSockets(first, { client: outsiderOnB, userId: outsider.user.id });
    expect(outsiderOnB.received.map((entry) => entry.event)).toEqual(['connectionAuthenticated']);
  });

  it('a member who leaves through A stops hearing the group on B', async () => {
    const [owner, leaver] = await Promise.all([createPlayer(first), createPlayer(first)]);
    const group = await createGroup(first, owner, { privacy: 'private' });
    await joinGroup(first, leaver, group);
    const [ownerOnB, leaverOnB] = [await connectToSecond(owner), await connectToSecond(leaver)];

    expect(
      (await first.request('POST', `/api/groups/${group.id}/leave`, { token: leaver.accessToken }))
        .status,
    ).toBe(200);
    first.app.events.publish(
      'betExpired',
      { betId: 43, groupId: group.id, version: 1 },
      { groupId: group.id },
    );
    expect(await ownerOnB.waitFor('betExpired', (payload) => payload.betId === 43)).toMatchObject({
      betId: 43,
    });
    await syncSockets(first, { client: leaverOnB, userId: leaver.user.id });
    expect(leaverOnB.heard('betExpired')).toEqual([]);
  });

  it('a group created through A is heard by the creator on B', async () => {
    const owner = await createPlayer(first);
    const ownerOnB = await connectToSecond(owner);
    const group = await createGroup(first, owner);
    expect(await ownerOnB.waitFor('groupCreated')).toEqual({ groupId: group.id, name: group.name });
    first.app.events.publish(
      'betExpired',
      { betId: 44, groupId: group.id, version: 1 },
      { groupId: group.id },
    );
    expect(await ownerOnB.waitFor('betExpired', (payload) => payload.betId === 44)).toMatchObject({
      betId: 44,
    });
  });

  it('a comment pushed through A names its mutation to the author on B only, once', async () => {
    const [author, member] = await Promise.all([createPlayer(first), createPlayer(first)]);
    const group = await createGroup(first, author, { privacy: 'private' });
    await joinGroup(first, member, group);
    const [authorOnB, memberOnB] = [await connectToSecond(author), await connectToSecond(member)];

    // As the push on A would after the comment's commit.
    const comment = {
      id: 45,
      betId: 46,
      groupId: group.id,
      userId: author.user.id,
      userName: author.user.displayName,
      text: 'Mine',
      createdAt: new Date().toISOString(),
      deletedAt: null,
      version: 1,
    };
    const origin = { clientID: 'client-on-a', mutationID: 7 };
    first.app.events.publish(
      'commentPosted',
      comment,
      { groupId: group.id },
      { userId: author.user.id, ...origin },
    );
    expect(await authorOnB.waitFor('commentPosted')).toEqual({ ...comment, ...origin });
    expect(await memberOnB.waitFor('commentPosted')).toEqual(comment);
    await syncSockets(first, { client: authorOnB, userId: author.user.id });
    expect(authorOnB.heard('commentPosted')).toHaveLength(1);
  });
});

/** A TCP proxy to Redis that can be cut (every connection dropped, none accepted) and restored. */
async function cuttableRedisProxy(redisUrl: string) {
  const target = new URL(redisUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port = 0) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
    );
  const port = await listen();
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: () => listen(port),
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}

// Cut for the listener's instance only (its subscriber reconnecting), or for both (Redis
// restarting: the poster's publisher is away too).
describe.runIf(process.env.REDIS_URL).each([
  { cut: 'the listener’s instance', isPosterCut: false },
  { cut: 'both instances', isPosterCut: true },
])('live events across an interruption of Redis for $cut', ({ isPosterCut }) => {
  const jwt = randomBytes(24).toString('hex');
  const realtimeRedisKey = `hunch-test-outage-${process.pid}-${randomBytes(4).toString('hex')}`;
  let proxy: Awaited<ReturnType<typeof cuttableRedisProxy>>;
  afterAll(async () => proxy?.close());
  // The instances reach Redis through a proxy the test cuts (the poster, A, only if isPosterCut).
  const first = useTestServer(async () => {
    proxy = await cuttableRedisProxy(process.env.REDIS_URL!);
    return {
      env: { REDIS_URL: isPosterCut ? proxy.url : process.env.REDIS_URL!, JWT_SECRET: jwt },
      realtimeRedisKey,
    };
  });
  const second = useTestServer(() => ({
    env: { REDIS_URL: proxy.url, JWT_SECRET: jwt },
    realtimeRedisKey,
    database: first.database,
  }));

  it('tells a listener on the other instance to pull once the bus is back, so it ends with every comment', async () => {
    const [author, listener] = await Promise.all([createPlayer(first), createPlayer(first)]);
    const group = await createGroup(first, author, { privacy: 'private' });
    await joinGroup(first, listener, group);
    const bet = await createBet(first, author, group);
    const onB = await connectSocket(second, listener.accessToken);
    try {
      const posted: number[] = [];
      const post = async (text: string) => {
        const response = await postComment(first, author, bet, text);
        expect(response.status).toBe(201);
        posted.push(response.body.id);
      };
      await post('before');
      await onB.waitFor('commentPosted', (comment) => comment.id === posted[0]);

      // Redis is away for B: its subscriber hears nothing of what A posts meanwhile.
      await proxy.cut();
      await expect
        .poll(async () => (await second.request('GET', '/readyz')).body.redis, { interval: 20 })
        .toBe('unavailable');
      for (let index = 0; index < 5; index++) await post(`during ${index}`);
      await proxy.restore();
      await onB.waitFor('syncNeeded');
      for (let index = 0; index < 3; index++) await post(`after ${index}`);
      await onB.waitFor('commentPosted', (comment) => comment.id === posted.at(-1));

      // The listener's mirror: what it heard, and what the pull it was told to make brings.
      const pulled = (await listComments(second, listener, bet)).body.map((comment) => comment.id);
      const heard = onB.heard('commentPosted').map((comment) => comment.id);
      expect(new Set([...heard, ...pulled])).toEqual(new Set(posted));
    } finally {
      onB.close();
    }
  });
});
