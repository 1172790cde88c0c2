import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { createGroupWithRoles, joinGroup } from '../groups/group.factories';
import { useTestServer } from '../harness';
import {
  cancel,
  createBet,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from './bet.factories';

// A bet's public link (docs/groups-and-bets.md, "Sharing a bet"): a member's Share makes the bet's
// one live link (or answers it again), its sharer or an admin turns it off, and whoever holds a
// live link reads that one bet, with no sign-in: its question and state, and its result and who
// called it only once resolved. Never its picks while hidden, another bet or the invite code.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, PICKS_REVEAL_INTERVAL_MS: '0' } });

const share = (user: AuthResponse, betId: number) =>
  server.request('POST', `/api/bets/${betId}/share`, { token: user.accessToken });
const stopSharing = (user: AuthResponse, betId: number) =>
  server.request('DELETE', `/api/bets/${betId}/share`, { token: user.accessToken });
const readShared = (token: string) =>
  server.request('GET', `/api/shared-bets/${encodeURIComponent(token)}`);

async function sharedOpenBet(privacy: 'public' | 'private' = 'private') {
  const roles = await createGroupWithRoles(server, { privacy });
  const bet = await createBet(server, roles.creator, roles.group, {
    title: 'Pizza Friday?',
    baseWagerAmount: 2,
    expiresAt: expiresIn(server, HOUR),
  });
  await placeWager(server, roles.admin, bet, 'yes', 4);
  await placeWager(server, roles.creator, bet, 'no', 2);
  const shared = await share(roles.member, bet.id);
  expect(shared.status).toBe(200);
  return { ...roles, bet, token: shared.body.link!.token };
}

describe('sharing a bet', () => {
  it('makes one unguessable link per bet, and answers the same one to every member', async () => {
    const { admin, creator, bet, token, member } = await sharedOpenBet();
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const again = await share(creator, bet.id);
    expect(again.body).toMatchObject({ betId: bet.id, link: { token, sharedBy: member.user.id } });
    expect((await share(admin, bet.id)).body.link!.token).toBe(token);
  });

  it('is for current members only: an outsider of a public group is refused', async () => {
    const { outsider, bet } = await sharedOpenBet('public');
    const refused = await share(outsider, bet.id);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('not_member');
    expect((await server.request('POST', `/api/bets/${bet.id}/share`)).status).toBe(401);
  });
});

describe('what an outsider reads', () => {
  it('is the question and its state while open, never the picks or the invite code', async () => {
    const { token, bet, group } = await sharedOpenBet();
    const read = await readShared(token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      betId: bet.id,
      title: 'Pizza Friday?',
      state: 'open',
      groupId: group.id,
      groupName: group.name,
      isGroupPublic: false,
      result: null,
    });
    expect(read.text).not.toContain(group.inviteCode!);
    expect(read.text).not.toMatch(/"prediction"|"points"|"picks"/);
  });

  it('says closed once betting closed, still without the picks', async () => {
    const { token } = await sharedOpenBet();
    server.clock.advance(2 * HOUR);
    const read = await readShared(token);
    expect(read.body.state).toBe('closed');
    expect(read.body.result).toBeNull();
    expect(read.text).not.toContain('Admin');
  });

  it('shows the result and who called it once resolved', async () => {
    const { token, creator, bet, admin } = await sharedOpenBet();
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    const read = await readShared(token);
    expect(read.body.state).toBe('resolved');
    expect(read.body.result).toEqual({
      answer: 'Yes',
      headline: `${admin.user.displayName} called it — won 6 (×1.5)`,
      detail: 'The answer: Yes',
    });
  });

  it('says cancelled for a cancelled bet', async () => {
    const { token, creator, bet } = await sharedOpenBet();
    expect((await cancel(server, creator, bet)).status).toBe(200);
    expect((await readShared(token)).body).toMatchObject({ state: 'cancelled', result: null });
  });

  it('is that one bet: another bet of the group is not reachable through it', async () => {
    const { token, creator, group, bet } = await sharedOpenBet();
    const other = await createBet(server, creator, group, { title: 'Karaoke night?' });
    const read = await readShared(token);
    expect(read.body.betId).toBe(bet.id);
    expect(read.text).not.toContain('Karaoke night?');
    const otherToken = (await share(creator, other.id)).body.link!.token;
    expect(otherToken).not.toBe(token);
    expect((await readShared(otherToken)).body.title).toBe('Karaoke night?');
  });

  it('answers 404 to a token never made, whatever its shape', async () => {
    for (const token of ['AAAAAAAAAAAAAAAAAAAAAA', 'nope', "x' or 1=1 --"]) {
      const read = await readShared(token);
      expect(read.status, token).toBe(404);
      expect(read.body.code).toBe('share_link_not_found');
    }
  });
});

describe('stopping a share', () => {
  it('turns the link off for everyone: 410, and the next Share makes a new link', async () => {
    const { token, member, bet } = await sharedOpenBet();
    const stopped = await stopSharing(member, bet.id);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toEqual({ betId: bet.id, link: null });
    const read = await readShared(token);
    expect(read.status).toBe(410);
    expect(read.body).toEqual({
      message: 'This link was turned off.',
      code: 'share_link_turned_off',
    });
    const fresh = (await share(member, bet.id)).body.link!.token;
    expect(fresh).not.toBe(token);
    expect((await readShared(fresh)).status).toBe(200);
    expect((await readShared(token)).status).toBe(410);
  });

  it('is for its sharer or an admin: another member is refused and the link stays on', async () => {
    const { token, admin, outsider, bet, group } = await sharedOpenBet('public');
    await joinGroup(server, outsider, group);
    const notTheirs = await stopSharing(outsider, bet.id);
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.code).toBe('cannot_stop_sharing');
    expect((await readShared(token)).status).toBe(200);
    expect((await stopSharing(admin, bet.id)).status).toBe(200);
    expect((await readShared(token)).status).toBe(410);
  });

  it('is refused to whoever is not a member', async () => {
    const { outsider, bet, token } = await sharedOpenBet();
    const refused = await stopSharing(outsider, bet.id);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('not_member');
    expect((await readShared(token)).status).toBe(200);
  });
});

describe('the public read', () => {
  const limited = useTestServer({ rateLimits: { joinPrivatePerIp: 2 } });

  it('is limited per address, like the other reads for visitors not signed in', async () => {
    const read = () => limited.request('GET', '/api/shared-bets/AAAAAAAAAAAAAAAAAAAAAA');
    expect((await read()).status).toBe(404);
    expect((await read()).status).toBe(404);
    const refused = await read();
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBeTruthy();
  });
});
