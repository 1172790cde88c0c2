import { describe, expect, it } from 'vitest';
import {
  ABANDONED_AFTER_MS,
  DISPUTE_WINDOW_MS,
  UNDO_WINDOW_MS,
} from '../../../src/domain/fair-resolution';
import {
  betPolicy,
  mayAfford,
  mayStopSharing,
  type BetGroupFacts,
  type BetViewer,
  type PolicyBet,
  type Verdict,
} from '../../../src/domain/policies/bet-policy';

// The bet policy's decisions, one rule at a time; tests/client/data/policy-table.test.ts holds the
// server to the same answers for every action, role and bet state.

const NOW = Date.parse('2026-06-01T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (offset: number) => new Date(NOW + offset).toISOString();

const CREATOR = 1;
const ADMIN = 2;
const MEMBER = 3;
const OUTSIDER = 4;

const openBet: PolicyBet = {
  createdBy: CREATOR,
  state: 'active',
  expiresAt: at(HOUR),
  resolvedAt: null,
  resolvedBy: null,
  baseWagerAmount: 2,
};
const closedBet: PolicyBet = { ...openBet, expiresAt: at(-HOUR) };
const resolvedBet: PolicyBet = {
  ...closedBet,
  state: 'resolved',
  resolvedAt: at(-MINUTE),
  resolvedBy: CREATOR,
};
const group: BetGroupFacts = {
  isPublic: false,
  creatorIsMember: true,
  memberIds: [CREATOR, ADMIN, MEMBER],
  adminIds: [ADMIN],
  stakeholderIds: [MEMBER],
};
const viewer = (userId: number, role: BetViewer['role'], hasWagered = false): BetViewer => ({
  userId,
  role,
  hasWagered,
});
const codeOf = (verdict: Verdict) => (verdict.allowed ? 'allowed' : verdict.code);
const reasonOf = (verdict: Verdict) => (verdict.allowed ? 'allowed' : verdict.reason);
const creator = viewer(CREATOR, 'member');
const admin = viewer(ADMIN, 'admin');
const member = viewer(MEMBER, 'member', true);
const outsider = viewer(OUTSIDER, null);

describe('wager', () => {
  it('offers a member the three multiples of the base while betting is open', () => {
    expect(betPolicy(member, openBet, group, NOW).wager).toEqual({
      allowed: true,
      amounts: [2, 4, 6],
    });
  });

  it('refuses a non-member before it looks at the bet', () => {
    expect(betPolicy(outsider, closedBet, group, NOW).wager).toMatchObject({
      allowed: false,
      code: 'not_member',
    });
  });

  it('refuses once the expiry passed, and once picks were shown before it', () => {
    expect(betPolicy(member, closedBet, group, NOW).wager).toMatchObject({
      reason: 'bet_expired',
      code: 'bet_closed',
    });
    const revealed = { ...openBet, picksRevealedAt: at(-MINUTE) };
    expect(betPolicy(member, revealed, group, NOW).wager).toMatchObject({
      reason: 'bet_closed',
      code: 'bet_closed',
    });
  });
});

describe('affording a wager', () => {
  it('needs the base free before any amount is chosen, and the chosen amount after', () => {
    expect(codeOf(mayAfford(2, openBet))).toBe('allowed');
    expect(codeOf(mayAfford(1, openBet))).toBe('insufficient_points');
    expect(codeOf(mayAfford(5, openBet, { points: 4 }))).toBe('allowed');
    expect(codeOf(mayAfford(5, openBet, { points: 6 }))).toBe('insufficient_points');
  });

  it('counts a changed wager’s own points as free: only the difference is debited', () => {
    expect(codeOf(mayAfford(0, openBet, { points: 6, currentWagerPoints: 6 }))).toBe('allowed');
    expect(codeOf(mayAfford(1, openBet, { points: 6, currentWagerPoints: 4 }))).toBe(
      'insufficient_points',
    );
    expect(codeOf(mayAfford(2, openBet, { points: 6, currentWagerPoints: 4 }))).toBe('allowed');
  });
});

describe('resolve and close early', () => {
  it('lets the creator settle before the close (closing early) and after it', () => {
    expect(betPolicy(creator, openBet, group, NOW).closeEarly.allowed).toBe(true);
    expect(betPolicy(creator, closedBet, group, NOW).resolve.allowed).toBe(true);
    expect(betPolicy(creator, closedBet, group, NOW).closeEarly).toMatchObject({
      code: 'bet_closed',
    });
  });

  it('lets an admin stand in once the creator left, even before the bet is abandoned', () => {
    expect(betPolicy(admin, closedBet, group, NOW).resolve).toMatchObject({
      code: 'not_bet_creator',
    });
    const departed = { ...group, creatorIsMember: false };
    expect(betPolicy(admin, openBet, departed, NOW).resolve.allowed).toBe(true);
    expect(betPolicy(member, openBet, departed, NOW).resolve.allowed).toBe(false);
  });

  it('lets an admin settle a bet abandoned a day after its close', () => {
    const abandoned = { ...openBet, expiresAt: at(-ABANDONED_AFTER_MS) };
    expect(betPolicy(admin, abandoned, group, NOW).resolve.allowed).toBe(true);
  });

  it('says a settled bet is settled, to whoever may settle it', () => {
    expect(codeOf(betPolicy(creator, resolvedBet, group, NOW).resolve)).toBe('already_resolved');
    const cancelled = { ...closedBet, state: 'cancelled' };
    expect(codeOf(betPolicy(creator, cancelled, group, NOW).resolve)).toBe('bet_not_active');
    expect(codeOf(betPolicy(member, cancelled, group, NOW).resolve)).toBe('not_bet_creator');
  });
});

describe('cancel', () => {
  it('is the creator’s and any admin’s while the bet is active', () => {
    expect(betPolicy(creator, openBet, group, NOW).cancel.allowed).toBe(true);
    expect(betPolicy(admin, closedBet, group, NOW).cancel.allowed).toBe(true);
    expect(codeOf(betPolicy(member, openBet, group, NOW).cancel)).toBe('cannot_cancel_bet');
    expect(codeOf(betPolicy(admin, resolvedBet, group, NOW).cancel)).toBe('already_resolved');
  });
});

describe('undo', () => {
  it('is the resolver’s for ten minutes', () => {
    expect(betPolicy(creator, resolvedBet, group, NOW).undo.allowed).toBe(true);
    const late = { ...resolvedBet, resolvedAt: at(-UNDO_WINDOW_MS - 1) };
    expect(codeOf(betPolicy(creator, late, group, NOW).undo)).toBe('undo_window_over');
    expect(codeOf(betPolicy(admin, resolvedBet, group, NOW).undo)).toBe('cannot_undo_resolution');
  });

  it('ends when an admin reviewed the result', () => {
    const reviewed = { ...resolvedBet, dispute: { state: 'closed' as const, userId: MEMBER } };
    expect(betPolicy(creator, reviewed, group, NOW).undo).toMatchObject({
      reason: 'resolution_final',
      code: 'undo_window_over',
    });
  });
});

describe('dispute', () => {
  it('is for a member who wagered, within a day, once', () => {
    expect(betPolicy(member, resolvedBet, group, NOW).dispute.allowed).toBe(true);
    expect(codeOf(betPolicy(admin, resolvedBet, group, NOW).dispute)).toBe('cannot_dispute');
    const late = { ...resolvedBet, resolvedAt: at(-DISPUTE_WINDOW_MS) };
    expect(codeOf(betPolicy(member, late, group, NOW).dispute)).toBe('dispute_window_over');
    const disputed = { ...resolvedBet, dispute: { state: 'open' as const, userId: MEMBER } };
    expect(codeOf(betPolicy(member, disputed, group, NOW).dispute)).toBe('dispute_exists');
    expect(codeOf(betPolicy(member, openBet, group, NOW).dispute)).toBe('bet_not_active');
  });

  it('is not for whoever resolved it, even with a wager: they undo it instead', () => {
    const resolver = viewer(CREATOR, 'member', true);
    expect(codeOf(betPolicy(resolver, resolvedBet, group, NOW).dispute)).toBe('cannot_dispute');
  });
});

describe('judge a dispute', () => {
  const disputed = { ...resolvedBet, dispute: { state: 'open' as const, userId: MEMBER } };

  it('is a free admin’s; whoever has a stake hears why not', () => {
    expect(betPolicy(admin, disputed, group, NOW).judgeDispute.allowed).toBe(true);
    expect(betPolicy(member, disputed, group, NOW).judgeDispute).toMatchObject({
      reason: 'own_stake',
      code: 'cannot_review_dispute',
    });
    expect(reasonOf(betPolicy(creator, disputed, group, NOW).judgeDispute)).toBe(
      'cannot_review_dispute',
    );
  });

  it('needs an open dispute', () => {
    expect(codeOf(betPolicy(admin, resolvedBet, group, NOW).judgeDispute)).toBe('no_open_dispute');
  });
});

describe('picks', () => {
  it('show to readers once betting closed', () => {
    expect(codeOf(betPolicy(member, openBet, group, NOW).seePicks)).toBe('picks_hidden');
    expect(betPolicy(member, closedBet, group, NOW).seePicks.allowed).toBe(true);
    expect(codeOf(betPolicy(outsider, closedBet, group, NOW).seePicks)).toBe('not_member');
    const open = { ...group, isPublic: true };
    expect(betPolicy(outsider, closedBet, open, NOW).seePicks.allowed).toBe(true);
  });
});

describe('read, comments and mute', () => {
  const open = { ...group, isPublic: true };

  it('reads as the group does: anyone in a public group, members in a private one', () => {
    expect(betPolicy(member, openBet, group, NOW).read.allowed).toBe(true);
    expect(codeOf(betPolicy(outsider, openBet, group, NOW).read)).toBe('not_member');
    expect(betPolicy(outsider, openBet, open, NOW).read.allowed).toBe(true);
  });

  it('keeps comments and muting to current members, even in a public group', () => {
    for (const who of [creator, admin, member]) {
      expect(betPolicy(who, openBet, open, NOW).comment.allowed).toBe(true);
      expect(betPolicy(who, resolvedBet, group, NOW).mute.allowed).toBe(true);
    }
    expect(betPolicy(outsider, openBet, open, NOW).comment).toMatchObject({
      reason: 'not_member',
      code: 'not_member',
    });
    expect(codeOf(betPolicy(outsider, openBet, open, NOW).mute)).toBe('not_member');
  });
});

describe('sharing a bet', () => {
  const open = { ...group, isPublic: true };

  it('lets current members share, never whoever only reads a public group', () => {
    for (const who of [creator, admin, member])
      expect(betPolicy(who, resolvedBet, group, NOW).share.allowed).toBe(true);
    expect(codeOf(betPolicy(outsider, resolvedBet, open, NOW).share)).toBe('not_member');
  });

  it('lets its sharer or an admin stop sharing, and no other member', () => {
    const link = { sharedBy: MEMBER };
    expect(mayStopSharing(member, link).allowed).toBe(true);
    expect(mayStopSharing(admin, link).allowed).toBe(true);
    expect(codeOf(mayStopSharing(creator, { sharedBy: ADMIN }))).toBe('cannot_stop_sharing');
    expect(codeOf(mayStopSharing(outsider, { sharedBy: OUTSIDER }))).toBe('not_member');
  });
});
