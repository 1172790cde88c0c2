import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import { runPicksReveal } from '../../../src/server/jobs/picks-reveal.job';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { connectSocket, syncSockets } from '../realtime/test-socket';
import {
  cancel,
  createBet,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  resolve,
} from './bet.factories';

// While a bet is open nobody sees another member's pick; once betting closes (the
// expiry passed, or it was resolved) every member sees who picked what, on REST, in the mirror
// (also a device that pulled before the close) and on the socket.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, PICKS_REVEAL_INTERVAL_MS: '0' } });

const pull = async (user: AuthResponse, cursor = '0') =>
  (
    await server.request<MirrorPullResponse>(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(cursor)}`,
      { token: user.accessToken },
    )
  ).body;
const reveal = (at = server.clock.now()) =>
  runPicksReveal({ db: server.database.db, events: server.app.events }, at);

async function openBet() {
  const roles = await createGroupWithRoles(server);
  const bet = await createBet(server, roles.creator, roles.group, {
    expiresAt: expiresIn(server, HOUR),
  });
  await placeWager(server, roles.admin, bet, 'yes', 2);
  await placeWager(server, roles.member, bet, 'no', 3);
  return { ...roles, bet };
}

describe('picks while betting is open', () => {
  it('are hidden on REST and in the mirror', async () => {
    const { member, bet } = await openBet();
    const picks = await server.request('GET', `/api/bets/${bet.id}/picks`, {
      token: member.accessToken,
    });
    expect(picks.status).toBe(403);
    expect(picks.body).toEqual({
      message: 'Picks are revealed when betting closes.',
      code: 'picks_hidden',
    });
    const read = await server.request('GET', `/api/bets/${bet.id}`, { token: member.accessToken });
    expect(read.body.picks).toBeUndefined();
    const mirrored = (await pull(member)).bets.find((row) => row.id === bet.id);
    expect(mirrored?.picks).toBeUndefined();
    expect(JSON.stringify(await pull(member))).not.toContain('"prediction":"yes"');
  });
});

describe('picks once betting has closed', () => {
  it('reach every member: REST, a delta pull from before the close, and the socket', async () => {
    const { admin, member, outsider, bet, group } = await openBet();
    const before = await pull(member);
    const [memberSocket, outsiderSocket] = await Promise.all([
      connectSocket(server, member.accessToken),
      connectSocket(server, outsider.accessToken),
    ]);
    try {
      server.clock.advance(HOUR);
      // Two instances at once: the bet is stamped and announced once.
      const [first, second] = await Promise.all([reveal(), reveal()]);
      expect([...first, ...second].filter((id) => id === bet.id)).toEqual([bet.id]);
      expect(await reveal()).not.toContain(bet.id);

      const expected = [
        { userId: admin.user.id, userName: admin.user.displayName, prediction: 'yes', points: 2 },
        { userId: member.user.id, userName: member.user.displayName, prediction: 'no', points: 3 },
      ];
      const heard = await memberSocket.waitFor('picksRevealed', (p) => p.betId === bet.id);
      expect(heard).toMatchObject({ groupId: group.id, picks: expected });
      await syncSockets(server, { client: outsiderSocket, userId: outsider.user.id });
      expect(outsiderSocket.heard('picksRevealed')).toEqual([]);

      const delta = await pull(member, before.cursor);
      expect(delta.bets.find((row) => row.id === bet.id)?.picks).toEqual(expected);
      const rest = await server.request('GET', `/api/bets/${bet.id}/picks`, {
        token: admin.accessToken,
      });
      expect(rest.body).toEqual({ betId: bet.id, picks: expected });
    } finally {
      memberSocket.close();
      outsiderSocket.close();
    }
  });

  it('show on a bet resolved before its expiry, in the resolve answer as on the bet', async () => {
    const { creator, member, bet } = await openBet();
    const resolved = await resolve(server, creator, bet, 'no');
    expect(resolved.status).toBe(200);
    const read = await server.request('GET', `/api/bets/${bet.id}`, { token: member.accessToken });
    expect(read.body.picks).toHaveLength(2);
    expect(resolved.body.picks).toEqual(read.body.picks);
  });

  it('show in a cancel answer as on the bet', async () => {
    const { creator, member, bet } = await openBet();
    const cancelled = await cancel(server, creator, bet);
    expect(cancelled.status).toBe(200);
    const read = await server.request('GET', `/api/bets/${bet.id}`, { token: member.accessToken });
    expect(read.body.picks).toHaveLength(2);
    expect(cancelled.body.picks).toEqual(read.body.picks);
  });
});
