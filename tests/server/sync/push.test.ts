import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import type { SyncPushRequest, SyncPushResponse } from '../../../src/domain/schemas/sync';
import { SYNC_WRITES } from '../../../src/domain/sync';
import { betRequest, createBet, NO_EXPIRY_TIMER } from '../bets/bet.factories';
import { createGroup, createPlayer, joinGroup, recordEvents } from '../groups/group.factories';
import { OUTCOME_RETENTION_MS, purgeOldOutcomes } from '../../../src/server/sync/client-mutations';
import { startTestServer, useTestServer, type TestServer } from '../harness';
import { listRoutes } from '../route-table';

// One write path (POST /api/sync/push, docs/architecture.md §8): each pushed mutation runs the
// REST route's service in its own transaction with the client's last mutation id; a replay is
// skipped, a gap stops the push, a refusal is recorded and reported by the pull, another
// player's client group is refused, and the REST routes' rate limits hold through it.

const server = useTestServer(NO_EXPIRY_TIMER);

interface Device {
  clientGroupID: string;
  clientID: string;
}

const newDevice = (): Device => ({
  clientGroupID: randomUUID(),
  clientID: randomUUID(),
});

function push(
  on: TestServer,
  user: AuthResponse,
  device: Device,
  mutations: SyncPushRequest['mutations'],
) {
  return on.request<SyncPushResponse>('POST', '/api/sync/push', {
    token: user.accessToken,
    body: { ...device, mutations },
  });
}

async function pushOk(user: AuthResponse, device: Device, mutations: SyncPushRequest['mutations']) {
  const response = await push(server, user, device, mutations);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function pull(user: AuthResponse, device: Device, cursor = MIRROR_START_CURSOR) {
  const response = await server.request<MirrorPullResponse>(
    'GET',
    `/api/member/state?cursor=${encodeURIComponent(cursor)}&clientGroupID=${device.clientGroupID}`,
    { token: user.accessToken },
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

function betBody(group: Group, title: string) {
  return betRequest(server, group, { title });
}

async function betTitles(user: AuthResponse, group: Group): Promise<string[]> {
  const response = await server.request('GET', `/api/bets/group/${group.id}`, {
    token: user.accessToken,
  });
  return (response.body as Array<{ title: string }>).map((bet) => bet.title).sort();
}

describe('POST /api/sync/push', () => {
  it('applies mutations in order, each through its REST service, and answers their results', async () => {
    const owner = await createPlayer(server, 'Owner');
    const group = await createGroup(server, owner);
    const device = newDevice();
    const recorded = recordEvents(server);
    const answer = await pushOk(owner, device, [
      { id: 1, name: 'createBet', args: { body: betBody(group, 'Rain?') } },
      { id: 2, name: 'muteGroup', args: { params: { id: group.id }, body: { muted: true } } },
      { id: 3, name: 'setPushKinds', args: { body: { pushOff: ['memberJoined'] } } },
    ]);
    recorded.stop();

    expect(answer.lastMutationID).toBe(3);
    expect(answer.results.map((r) => [r.id, r.ok])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    const bet = answer.results[0]!.result as { id: number; title: string };
    expect(bet.title).toBe('Rain?');
    expect(answer.results[0]!.createdId).toBe(bet.id);
    expect((answer.results[1]!.result as { mutedGroupIds: number[] }).mutedGroupIds).toEqual([
      group.id,
    ]);
    expect(await betTitles(owner, group)).toEqual(['Rain?']);
    // Published after the commit, as the REST route does, naming the mutation it came from.
    const published = recorded.events.filter((e) => e.event === 'betCreated');
    expect(published).toHaveLength(1);
    expect(published[0]!.origin).toEqual({
      userId: owner.user.id,
      clientID: device.clientID,
      mutationID: 1,
    });
  });

  it('skips a replay of applied ids: the write exists once and is announced once', async () => {
    const owner = await createPlayer(server, 'Owner');
    const group = await createGroup(server, owner);
    const device = newDevice();
    const mutations = [
      { id: 1, name: 'createBet' as const, args: { body: betBody(group, 'Once') } },
    ];
    const first = await pushOk(owner, device, mutations);
    const recorded = recordEvents(server);
    const again = await pushOk(owner, device, [
      ...mutations,
      { id: 2, name: 'createBet', args: { body: betBody(group, 'Twice') } },
    ]);
    recorded.stop();

    expect(again.results[0]).toEqual({
      id: 1,
      ok: true,
      skipped: true,
      createdId: first.results[0]!.createdId,
    });
    expect(again.results[1]!.ok).toBe(true);
    expect(again.lastMutationID).toBe(2);
    expect(await betTitles(owner, group)).toEqual(['Once', 'Twice']);
    expect(recorded.events.filter((e) => e.event === 'betCreated')).toHaveLength(1);
  });

  it('stops at an id that skips ahead, applying nothing from there', async () => {
    const owner = await createPlayer(server, 'Owner');
    const group = await createGroup(server, owner);
    const device = newDevice();
    await pushOk(owner, device, [
      { id: 1, name: 'createBet', args: { body: betBody(group, 'First') } },
    ]);
    const answer = await pushOk(owner, device, [
      { id: 3, name: 'createBet', args: { body: betBody(group, 'Third') } },
      { id: 4, name: 'createBet', args: { body: betBody(group, 'Fourth') } },
    ]);
    expect(answer.lastMutationID).toBe(1);
    expect(answer.results).toEqual([
      {
        id: 3,
        ok: false,
        retry: true,
        error: expect.objectContaining({ code: 'mutation_out_of_order', status: 409 }),
      },
    ]);
    expect(await betTitles(owner, group)).toEqual(['First']);
  });

  it('records a refusal with the REST route’s error, rolls the write back and reports it on pull', async () => {
    const owner = await createPlayer(server, 'Owner');
    const group = await createGroup(server, owner);
    const bet = await createBet(server, owner, group);
    const device = newDevice();
    const before = await pull(owner, device);
    const answer = await pushOk(owner, device, [
      // 7 is not 1, 2 or 3 times the base amount: the service refuses.
      {
        id: 1,
        name: 'placeWager',
        args: { body: { betId: bet.id, prediction: 'yes', points: 7 } },
      },
      // Args the route's schema refuses.
      { id: 2, name: 'createBet', args: { body: { ...betBody(group, ''), title: '' } } },
      {
        id: 3,
        name: 'placeWager',
        args: { body: { betId: bet.id, prediction: 'yes', points: 2 } },
      },
    ]);

    expect(answer.lastMutationID).toBe(3);
    expect(answer.results[0]).toMatchObject({
      id: 1,
      ok: false,
      error: { code: 'invalid_wager_points', status: 400 },
    });
    expect(answer.results[1]).toMatchObject({
      id: 2,
      ok: false,
      error: { code: 'validation_failed', status: 400, fieldErrors: { title: expect.any(String) } },
    });
    expect(answer.results[2]).toMatchObject({ id: 3, ok: true, result: { points: 2 } });
    const rest = await server.request('GET', `/api/bets/${bet.id}/user-context`, {
      token: owner.accessToken,
    });
    expect(rest.body.userWager.points).toBe(2);

    // The pull since the last cursor reports the refusals and the new wager's id, once.
    const after = await pull(owner, device, before.cursor);
    expect(after.lastMutationIDChanges).toEqual({ [device.clientID]: 3 });
    expect(after.mutationOutcomes).toEqual([
      {
        clientID: device.clientID,
        id: 1,
        createdId: null,
        error: expect.objectContaining({ code: 'invalid_wager_points', status: 400 }),
      },
      {
        clientID: device.clientID,
        id: 2,
        createdId: null,
        error: expect.objectContaining({ code: 'validation_failed' }),
      },
      { clientID: device.clientID, id: 3, createdId: answer.results[2]!.createdId, error: null },
    ]);
    const later = await pull(owner, device, after.cursor);
    expect(later.mutationOutcomes).toEqual([]);
    expect(later.lastMutationIDChanges).toEqual({ [device.clientID]: 3 });

    // A replay of the refused id answers the recorded refusal, never runs it again.
    const replay = await pushOk(owner, device, [
      {
        id: 1,
        name: 'placeWager',
        args: { body: { betId: bet.id, prediction: 'yes', points: 7 } },
      },
    ]);
    expect(replay.results[0]).toMatchObject({
      id: 1,
      ok: false,
      skipped: true,
      error: { code: 'invalid_wager_points' },
    });
  });

  it('refuses another player’s client group, and its pull reports nothing of it', async () => {
    const [maya, theo] = [await createPlayer(server, 'Maya'), await createPlayer(server, 'Theo')];
    const group = await createGroup(server, maya);
    const device = newDevice();
    await pushOk(maya, device, [
      { id: 1, name: 'createBet', args: { body: betBody(group, 'Maya’s') } },
    ]);
    await joinGroup(server, theo, group);
    const stolen = await push(server, theo, { ...device, clientID: randomUUID() }, [
      { id: 1, name: 'createBet', args: { body: betBody(group, 'Theo’s') } },
    ]);
    expect(stolen.status).toBe(403);
    expect((stolen.body as unknown as { code: string }).code).toBe('client_group_not_yours');
    const sameClient = await push(server, theo, device, [
      { id: 2, name: 'createBet', args: { body: betBody(group, 'Theo’s') } },
    ]);
    expect(sameClient.status).toBe(403);
    expect(await betTitles(maya, group)).toEqual(['Maya’s']);
    const theirs = await pull(theo, device);
    expect(theirs.lastMutationIDChanges).toEqual({});
    expect(theirs.mutationOutcomes).toEqual([]);
  });

  it('refuses a malformed push whole (400), and needs a signed-in player (401)', async () => {
    const owner = await createPlayer(server, 'Owner');
    const device = newDevice();
    const unordered = await push(server, owner, device, [
      { id: 2, name: 'setPushKinds', args: { body: { pushOff: [] } } },
      { id: 1, name: 'setPushKinds', args: { body: { pushOff: [] } } },
    ]);
    expect(unordered.status).toBe(400);
    const unknown = await push(server, owner, device, [
      { id: 1, name: 'deleteEverything' as never, args: {} },
    ]);
    expect(unknown.status).toBe(400);
    const badClient = await push(server, owner, { ...device, clientID: 'no spaces' }, [
      { id: 1, name: 'setPushKinds', args: { body: { pushOff: [] } } },
    ]);
    expect(badClient.status).toBe(400);
    const anonymous = await server.request('POST', '/api/sync/push', {
      body: { ...device, mutations: [{ id: 1, name: 'setPushKinds', args: {} }] },
    });
    expect(anonymous.status).toBe(401);
  });

  it('applies a write once when two pushes of it race (two tabs, a replay)', async () => {
    const owner = await createPlayer(server, 'Owner');
    const group = await createGroup(server, owner);
    const device = newDevice();
    const mutations = [
      { id: 1, name: 'createBet' as const, args: { body: betBody(group, 'Raced') } },
      { id: 2, name: 'createBet' as const, args: { body: betBody(group, 'Raced too') } },
    ];
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => pushOk(owner, device, mutations)),
    );
    for (const answer of answers) {
      expect(answer.lastMutationID).toBe(2);
      expect(answer.results.every((result) => result.ok)).toBe(true);
    }
    expect(await betTitles(owner, group)).toEqual(['Raced', 'Raced too']);
    const applied = answers.flatMap((answer) => answer.results).filter((r) => !r.skipped);
    expect(applied.map((result) => result.id).sort()).toEqual([1, 2]);
  });

  it('forgets outcomes after 24 hours', async () => {
    const owner = await createPlayer(server, 'Owner');
    const device = newDevice();
    await pushOk(owner, device, [
      { id: 1, name: 'muteBet', args: { params: { id: 2 ** 31 - 2 }, body: { muted: true } } },
    ]);
    expect((await pull(owner, device)).mutationOutcomes).toHaveLength(1);
    const later = new Date(server.clock.now().getTime() + OUTCOME_RETENTION_MS + 60_000);
    expect(await purgeOldOutcomes(server.database.db, later)).toBeGreaterThanOrEqual(1);
    const state = await pull(owner, device);
    expect(state.mutationOutcomes).toEqual([]);
    expect(state.lastMutationIDChanges).toEqual({ [device.clientID]: 1 });
  });

  it('keeps each client of a device apart, and the pull lists them all', async () => {
    const owner = await createPlayer(server, 'Owner');
    const group = await createGroup(server, owner);
    const tab1 = newDevice();
    const tab2 = { ...tab1, clientID: randomUUID() };
    await pushOk(owner, tab1, [{ id: 1, name: 'createBet', args: { body: betBody(group, 'A') } }]);
    await pushOk(owner, tab2, [
      { id: 1, name: 'createBet', args: { body: betBody(group, 'B') } },
      { id: 2, name: 'createBet', args: { body: betBody(group, 'C') } },
    ]);
    const state = await pull(owner, tab1);
    expect(state.lastMutationIDChanges).toEqual({ [tab1.clientID]: 1, [tab2.clientID]: 2 });
    expect(state.bets.map((bet) => bet.title).sort()).toEqual(['A', 'B', 'C']);
  });
});

describe('the mutations', () => {
  it('are each a signed-in REST write of the app, with the same method and path', () => {
    const routes = new Set(
      listRoutes(server.app).map((route) => `${route.method} ${route.pattern}`),
    );
    for (const { method, path: pattern } of Object.values(SYNC_WRITES))
      expect(routes, `${method} ${pattern}`).toContain(`${method} /api${pattern}`);
  });
});

describe('rate limits through push', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({
      ...NO_EXPIRY_TIMER,
      rateLimits: { commentsPerUser: 2, writesPerUser: 6 },
    });
  });
  afterAll(async () => limited.close());

  it('counts each mutation on the REST routes’ own counters, replays excepted', async () => {
    const owner = await createPlayer(limited, 'Owner');
    const group = await createGroup(limited, owner); // write 1
    const bet = await createBet(limited, owner, group); // write 2
    const device = newDevice();
    const comment = (id: number) => ({
      id,
      name: 'postComment' as const,
      args: { params: { id: bet.id }, body: { text: `Comment ${id}` } },
    });
    const first = await push(limited, owner, device, [comment(1), comment(2), comment(3)]);
    expect(first.status).toBe(200);
    expect(first.body.lastMutationID).toBe(2);
    expect(first.body.results[2]).toMatchObject({
      id: 3,
      ok: false,
      retry: true,
      retryAfter: expect.any(Number),
      error: { code: 'rate_limited', status: 429 },
    });
    // The comments limit is the REST route's counter too.
    const viaRest = await limited.request('POST', `/api/bets/${bet.id}/comments`, {
      token: owner.accessToken,
      body: { text: 'Over the limit' },
    });
    expect(viaRest.status).toBe(429);

    // A replay writes nothing and counts nothing; writes 5 and 6 pass, 7 is over.
    const mute = (id: number) => ({
      id,
      name: 'muteGroup' as const,
      args: { params: { id: group.id }, body: { muted: id % 2 === 0 } },
    });
    const more = await push(limited, owner, device, [
      comment(1),
      comment(2),
      mute(3),
      mute(4),
      mute(5),
    ]);
    expect(more.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(more.body.results[4]?.error?.code).toBe('rate_limited');
    const restWrite = await limited.request('PUT', `/api/groups/${group.id}/mute`, {
      token: owner.accessToken,
      body: { muted: true },
    });
    expect(restWrite.status).toBe(429);
  });

  it('counts a refused mutation once, though its refusal is recorded in a transaction of its own', async () => {
    const owner = await createPlayer(limited, 'Refused');
    const group = await createGroup(limited, owner); // write 1
    await createBet(limited, owner, group); // write 2
    const mute = (id: number, groupId: number) => ({
      id,
      name: 'muteGroup' as const,
      args: { params: { id: groupId }, body: { muted: true } },
    });
    const pushed = await push(limited, owner, newDevice(), [
      mute(1, 999_999), // write 3: refused (no such group)
      mute(2, group.id), // writes 4 to 6
      mute(3, group.id),
      mute(4, group.id),
      mute(5, group.id), // over the limit of 6
    ]);
    expect(pushed.status).toBe(200);
    expect(
      pushed.body.results.map((r: { ok: boolean; error?: { code: string } }) =>
        r.ok ? 'ok' : r.error?.code,
      ),
    ).toEqual(['not_found', 'ok', 'ok', 'ok', 'rate_limited']);
    expect(pushed.body.lastMutationID).toBe(4);
  });
});
