import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import type { Group } from '../../../src/domain/groups';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import { betRequest, NO_EXPIRY_TIMER, placeWager, pointsOf } from '../bets/bet.factories';
import { useTestServer } from '../harness';
import { createGroup, createGroupWithRoles, recordEvents } from './group.factories';

// A group's stake tiers (docs/rules.md "Stakes"): chosen at creation and by an admin in its
// settings (PATCH /api/groups/{id} `stakeTiers`), one of three sets; a new bet's base is one of
// its group's tiers at the time it is created, and an existing bet keeps its own.

const server = useTestServer(NO_EXPIRY_TIMER);

type Answer<T> = T &
  Partial<{ code: string; message: string; fieldErrors: Record<string, string> }>;

function patchGroup(user: AuthResponse, group: Pick<Group, 'id'>, body: unknown) {
  return server.request<Answer<Group>>('PATCH', `/api/groups/${group.id}`, {
    token: user.accessToken,
    body,
  });
}

function postBet(user: AuthResponse, group: Group, baseWagerAmount: number) {
  return server.request<Answer<Bet>>('POST', '/api/bets', {
    token: user.accessToken,
    body: betRequest(server, group, { baseWagerAmount }),
  });
}

describe('a group’s stake tiers', () => {
  it('are the spec’s 1, 2, 3 unless chosen, and read back in REST and in the mirror', async () => {
    const { group, member } = await createGroupWithRoles(server);
    expect(group.stakeTiers).toEqual([1, 2, 3]);
    const big = await createGroup(server, member, { stakeTiers: [10, 20, 30] });
    expect(big.stakeTiers).toEqual([10, 20, 30]);
    const read = await server.request<Group>('GET', `/api/groups/${big.id}`, {
      token: member.accessToken,
    });
    expect(read.body.stakeTiers).toEqual([10, 20, 30]);
    const pulled = await server.request<MirrorPullResponse>('GET', '/api/member/state?cursor=0', {
      token: member.accessToken,
    });
    expect(pulled.body.groups.find((row) => row.id === big.id)?.stakeTiers).toEqual([10, 20, 30]);
  });

  it('refuses any other set with a 422 naming the sets, at creation and in settings', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    for (const stakeTiers of [
      [2, 4, 6],
      [5, 10],
      [15, 10, 5],
      [1, 2, 3, 4],
    ]) {
      const patched = await patchGroup(creator, group, { stakeTiers });
      expect(patched.status, JSON.stringify(stakeTiers)).toBe(422);
      expect(patched.body).toEqual({
        code: 'stake_tiers_not_offered',
        message: 'Stake tiers must be 1, 2, 3 or 5, 10, 15 or 10, 20, 30.',
        fieldErrors: { stakeTiers: 'Stake tiers must be 1, 2, 3 or 5, 10, 15 or 10, 20, 30' },
      });
      const created = await server.request('POST', '/api/groups', {
        token: creator.accessToken,
        body: { name: `Tiers ${stakeTiers.join('-')} ${group.id}`, stakeTiers },
      });
      expect(created.status).toBe(422);
      expect(created.body.code).toBe('stake_tiers_not_offered');
    }
    // Not a list of whole numbers at all: the request's shape, a 400.
    const shapeless = await patchGroup(creator, group, { stakeTiers: '5,10,15' });
    expect(shapeless.status).toBe(400);
    const unchanged = await server.request<Group>('GET', `/api/groups/${group.id}`, {
      token: creator.accessToken,
    });
    expect(unchanged.body.stakeTiers).toEqual([1, 2, 3]);
  });

  it('are changed by an admin only; members hear groupUpdated', async () => {
    const { group, admin, member } = await createGroupWithRoles(server);
    const refused = await patchGroup(member, group, { stakeTiers: [5, 10, 15] });
    expect(refused.status).toBe(403);
    const recorder = recordEvents(server);
    const changed = await patchGroup(admin, group, { stakeTiers: [5, 10, 15] });
    recorder.stop();
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id: group.id, name: group.name, stakeTiers: [5, 10, 15] });
    expect(recorder.events.map((event) => event.event)).toContain('groupUpdated');
  });

  it('decide a new bet’s base; a bet made before a change keeps its own', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const small = await postBet(member, group, 2);
    expect(small.status, small.text).toBe(201);
    await patchGroup(creator, group, { stakeTiers: [5, 10, 15] });

    const refused = await postBet(member, group, 2);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: 'base_not_in_tiers',
      message: 'Base Wager Amount must be 5, 10 or 15.',
      fieldErrors: { baseWagerAmount: 'Base Wager Amount must be 5, 10 or 15' },
    });
    // A base of no tier set at all is the request's own fault: 400.
    expect((await postBet(member, group, 7)).status).toBe(400);

    const big = await postBet(member, group, 5);
    expect(big.status, big.text).toBe(201);
    expect(big.body.baseWagerAmount).toBe(5);
    // 3x the base: one wager of 15 points, as the tiers promise.
    await placeWager(server, creator, big.body, 'yes', 15);
    expect((await pointsOf(server, creator, group)).available).toBe(85);
    // The bet made before the change still takes 1x-3x of its own base.
    await placeWager(server, creator, small.body, 'no', 6);
    const read = await server.request<Bet>('GET', `/api/bets/${small.body.id}`, {
      token: member.accessToken,
    });
    expect(read.body.baseWagerAmount).toBe(2);
  });
});
