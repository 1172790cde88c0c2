import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import { UNDO_WINDOW_MS } from '../../../src/domain/fair-resolution';
import { ledger } from '../../../src/server/db/schema';
import {
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  makeAdmin,
  recordEvents,
} from '../groups/group.factories';
import { useTestServer } from '../harness';
import {
  cancel,
  createBet,
  DAY,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  postWager,
  resolve,
} from './bet.factories';

// The undo window, disputes and their review by an admin, admins settling
// abandoned bets, and each bet's history. The harness checks the ledger after every test.

const server = useTestServer(NO_EXPIRY_TIMER);

const undo = (user: AuthResponse, bet: Pick<Bet, 'id'>) =>
  server.request('POST', `/api/bets/${bet.id}/undo-resolution`, { token: user.accessToken });
const dispute = (user: AuthResponse, bet: Pick<Bet, 'id'>, reason = 'It was a no, I watched it.') =>
  server.request('POST', `/api/bets/${bet.id}/dispute`, {
    token: user.accessToken,
    body: { reason },
  });
const dismiss = (user: AuthResponse, bet: Pick<Bet, 'id'>) =>
  server.request('POST', `/api/bets/${bet.id}/dispute/dismiss`, { token: user.accessToken });
const reResolve = (user: AuthResponse, bet: Pick<Bet, 'id'>, correctAnswer: string) =>
  server.request('PUT', `/api/bets/${bet.id}/re-resolve`, {
    token: user.accessToken,
    body: { correctAnswer },
  });
const historyOf = async (user: AuthResponse, bet: Pick<Bet, 'id'>) =>
  (await server.request('GET', `/api/bets/${bet.id}/history`, { token: user.accessToken }))
    .body as Array<{ kind: string; actorId: number | null; correctAnswer: string | null }>;

/** `admin` picks yes (3 points), `creator` no (9); `member` created the bet. */
/** The events' names, without the wager totals' announcement (it follows the wagers by a second). */
const namesOf = (events: Array<{ event: string }>) =>
  events.map((published) => published.event).filter((name) => name !== 'wagerPlaced');

async function betWithWagers(defaultPoints = 100) {
  const roles = await createGroupWithRoles(server, { defaultPoints });
  const { group, creator, admin, member } = roles;
  const bet = await createBet(server, member, group, {
    expiresAt: expiresIn(server, HOUR),
    baseWagerAmount: 3,
  });
  await placeWager(server, admin, bet, 'yes', 3);
  await placeWager(server, creator, bet, 'no', 9);
  return { ...roles, bet };
}

describe('undoing a resolution', () => {
  it('takes the payout back exactly, shows both moves in the ledger and leaves the bet active, waiting for its result', async () => {
    const { group, admin, creator, member, bet } = await betWithWagers();
    const before = [await pointsOf(server, admin, group), await pointsOf(server, creator, group)];
    expect((await resolve(server, member, bet, 'yes')).status).toBe(200);
    expect(await pointsOf(server, admin, group)).toEqual({ total: 109, available: 109 });

    const recorder = recordEvents(server);
    const response = await undo(member, bet);
    recorder.stop();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: 'active', correctAnswer: null, resolvedAt: null });
    expect([await pointsOf(server, admin, group), await pointsOf(server, creator, group)]).toEqual(
      before,
    );
    const rows = await server.database.db.select().from(ledger).where(eq(ledger.betId, bet.id));
    expect(rows.map((row) => row.kind).sort()).toEqual(
      [
        'payout',
        'payout',
        'payout_reversed',
        'payout_reversed',
        'wager_placed',
        'wager_placed',
      ].sort(),
    );
    expect(namesOf(recorder.events)).toEqual(['resolutionUndone']);
    expect(recorder.events.find((p) => p.event === 'resolutionUndone')!.payload).toMatchObject({
      betId: bet.id,
      undoneBy: member.user.id,
      previousAnswer: 'yes',
    });
    expect((await historyOf(creator, bet)).map((entry) => entry.kind)).toEqual([
      'created',
      'resolved',
      'undone',
    ]);
    // Active again: it can be resolved once more, and pays once.
    expect((await resolve(server, member, bet, 'no')).status).toBe(200);
    expect(await pointsOf(server, creator, group)).toEqual({ total: 103, available: 103 });
  });

  it('is final after 10 minutes, and only for whoever resolved it', async () => {
    const { admin, member, bet } = await betWithWagers();
    await resolve(server, member, bet, 'yes');
    expect((await undo(admin, bet)).body.code).toBe('cannot_undo_resolution');
    server.clock.advance(UNDO_WINDOW_MS + 1000);
    const late = await undo(member, bet);
    expect(late.status).toBe(422);
    expect(late.body.code).toBe('undo_window_over');
  });

  it('refuses, moving nothing, when a winner already wagered the winnings again', async () => {
    const { group, admin, member, creator, bet } = await betWithWagers(10);
    await resolve(server, member, bet, 'yes');
    for (const title of ['Snow?', 'Hail?']) {
      const other = await createBet(server, creator, group, { title, baseWagerAmount: 3 });
      await placeWager(server, admin, other, 'yes', 9);
    }
    const response = await undo(member, bet);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('settlement_spent');
    expect(await pointsOf(server, admin, group)).toEqual({ total: 19, available: 1 });
  });

  it('has nothing to undo on a bet nobody resolved', async () => {
    const { member, bet } = await betWithWagers();
    const response = await undo(member, bet);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('cannot_undo_resolution');
  });
});

describe('disputes', () => {
  it('lets a participant flag a resolution once; a judge without a stake re-resolves it with an exact reversal', async () => {
    const { group, admin, creator, member, outsider, bet } = await betWithWagers();
    await resolve(server, member, bet, 'yes');
    expect((await dispute(outsider, bet)).body.code).toBe('not_member');
    expect((await dispute(member, bet)).body.code).toBe('cannot_dispute');
    expect((await dispute(creator, bet, '  ')).status).toBe(400);

    const recorder = recordEvents(server);
    const flagged = await dispute(creator, bet);
    expect(flagged.status).toBe(200);
    expect(flagged.body.dispute).toMatchObject({
      state: 'open',
      userId: creator.user.id,
      reason: 'It was a no, I watched it.',
    });
    expect((await dispute(admin, bet)).body.code).toBe('dispute_exists');
    expect((await reResolve(creator, bet, 'no')).body.code).toBe('cannot_review_dispute');

    // Both admins wagered: `member`, who did not, judges.
    const fixed = await reResolve(member, bet, 'no');
    recorder.stop();
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ state: 'resolved', correctAnswer: 'no' });
    expect(fixed.body.dispute.state).toBe('closed');
    expect(await pointsOf(server, admin, group)).toEqual({ total: 97, available: 97 });
    expect(await pointsOf(server, creator, group)).toEqual({ total: 103, available: 103 });
    expect(namesOf(recorder.events)).toEqual(['resolutionDisputed', 'betReResolved']);
    // Reviewed is final: no second dispute, no second review.
    expect((await dispute(admin, bet)).body.code).toBe('dispute_exists');
    expect((await dismiss(member, bet)).body.code).toBe('no_open_dispute');
    expect((await undo(member, bet)).body).toEqual({
      message: 'This result was reviewed by an admin and is final.',
      code: 'undo_window_over',
    });
    const history = await historyOf(member, bet);
    expect(history.map((entry) => [entry.kind, entry.actorId, entry.correctAnswer])).toEqual([
      ['created', member.user.id, null],
      ['resolved', member.user.id, 'yes'],
      ['disputed', creator.user.id, null],
      ['re_resolved', member.user.id, 'no'],
    ]);
  });

  it('lets a judge dismiss a dispute, leaving the points as they are', async () => {
    const { group, admin, creator, member, bet } = await betWithWagers();
    await resolve(server, member, bet, 'yes');
    await dispute(creator, bet);
    const dismissed = await dismiss(member, bet);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.dispute.state).toBe('closed');
    expect(await pointsOf(server, admin, group)).toEqual({ total: 109, available: 109 });
    expect((await historyOf(admin, bet)).map((entry) => entry.kind)).toContain('dismissed');
  });

  it('closes 24 hours after the resolution', async () => {
    const { creator, member, bet } = await betWithWagers();
    await resolve(server, member, bet, 'yes');
    server.clock.advance(DAY);
    const response = await dispute(creator, bet);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('dispute_window_over');
  });
});

describe('who judges a dispute', () => {
  it('is never the admin who wagered and disputed: they cannot re-resolve in their own favour', async () => {
    const { group, admin, creator, member, bet } = await betWithWagers();
    await resolve(server, member, bet, 'yes');
    // `creator`, an admin, lost on "no" and disputes; `admin` won on "yes": both have a stake.
    await dispute(creator, bet);
    for (const stakeholder of [creator, admin]) {
      const own = await reResolve(stakeholder, bet, stakeholder === creator ? 'no' : 'yes');
      expect(own.status).toBe(403);
      expect(own.body).toEqual({
        message: 'You have a stake in this bet, so someone without one judges its dispute.',
        code: 'cannot_review_dispute',
      });
      expect((await dismiss(stakeholder, bet)).body.code).toBe('cannot_review_dispute');
    }
    expect(await pointsOf(server, admin, group)).toEqual({ total: 109, available: 109 });
    // Every admin has a stake: a member without one judges.
    const fixed = await reResolve(member, bet, 'no');
    expect(fixed.status).toBe(200);
    expect(await pointsOf(server, creator, group)).toEqual({ total: 103, available: 103 });
  });

  it('is an admin without a stake when there is one, and then no plain member', async () => {
    const { group, creator, admin, member, bet } = await betWithWagers();
    const neutral = await createPlayer(server, 'Neutral admin');
    await joinGroup(server, neutral, group);
    await makeAdmin(server, creator, group, neutral);
    await resolve(server, member, bet, 'yes');
    await dispute(creator, bet);
    expect((await dismiss(member, bet)).body).toEqual({
      message: 'Only a group admin can review a dispute.',
      code: 'cannot_review_dispute',
    });
    expect((await dismiss(admin, bet)).body.code).toBe('cannot_review_dispute');
    const dismissed = await dismiss(neutral, bet);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.dispute.state).toBe('closed');
  });

  it('is nobody who joined after the dispute was opened, an admin made since included', async () => {
    const { group, creator, member, bet } = await betWithWagers();
    await resolve(server, member, bet, 'yes');
    await dispute(creator, bet);
    server.clock.advance(1000);
    const [late, lateAdmin] = [await createPlayer(server, 'Late'), await createPlayer(server)];
    await joinGroup(server, late, group);
    await joinGroup(server, lateAdmin, group);
    await makeAdmin(server, creator, group, lateAdmin);
    for (const newcomer of [late, lateAdmin]) {
      const refused = await dismiss(newcomer, bet);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.code).toBe('cannot_review_dispute');
    }
    // Every admin there before has a stake: the member without one, there before, judges.
    expect((await dismiss(member, bet)).status).toBe(200);
  });
});

describe('a re-resolution', () => {
  it('goes through when the winner already wagered the winnings: their available points go below zero until refilled', async () => {
    const { group, admin, creator, member, bet } = await betWithWagers(10);
    await resolve(server, member, bet, 'yes');
    await dispute(creator, bet);
    // `admin` won 12 and wagers 18 of their 19 points elsewhere.
    const elsewhere = [];
    for (const title of ['Snow?', 'Hail?']) {
      const other = await createBet(server, creator, group, { title, baseWagerAmount: 3 });
      await placeWager(server, admin, other, 'yes', 9);
      elsewhere.push(other);
    }
    const fixed = await reResolve(member, bet, 'no');
    expect(fixed.status).toBe(200);
    // 10 − 3 lost; the 12 won are taken back though 18 are held on the other bets.
    expect(await pointsOf(server, admin, group)).toEqual({ total: 7, available: -11 });
    expect(await pointsOf(server, creator, group)).toEqual({ total: 13, available: 13 });
    const next = await createBet(server, creator, group, { title: 'Sun?' });
    const refused = await postWager(server, admin, next, 'yes', 1);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('insufficient_points');
    // The held points come back when those bets are cancelled: the debt is paid from them.
    for (const other of elsewhere) await cancel(server, creator, other);
    expect(await pointsOf(server, admin, group)).toEqual({ total: 7, available: 7 });
  });
});

describe('abandoned bets', () => {
  it('may be resolved by an admin once closed for 24 hours without a resolution', async () => {
    const { group, admin, bet } = await betWithWagers();
    server.clock.advance(HOUR + 23 * HOUR);
    expect((await resolve(server, admin, bet, 'yes')).body.code).toBe('not_bet_creator');
    server.clock.advance(HOUR);
    expect((await resolve(server, admin, bet, 'yes')).status).toBe(200);
    expect(await pointsOf(server, admin, group)).toEqual({ total: 109, available: 109 });
  });
});
