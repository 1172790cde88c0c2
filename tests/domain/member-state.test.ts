import { describe, expect, it } from 'vitest';
import { memberStateResponseSchema } from '../../src/domain/schemas/member-state';

describe('memberStateResponseSchema', () => {
  it('reads the maps of docs/groups-and-bets.md §3 keyed by id, with full bets for offline use', () => {
    const bet = {
      id: 3,
      title: 'Rain?',
      description: null,
      betType: 'yes_no',
      state: 'active',
      betTypeConfig: { yesLabel: 'Yes', noLabel: 'No' },
      baseWagerAmount: 1,
      groupId: 7,
      createdBy: 1,
      expiresAt: '2030-01-01T00:00:00.000Z',
      correctAnswer: null,
      resolvedAt: null,
      resolvedBy: null,
      createdAt: '2029-12-31T00:00:00.000Z',
      updatedAt: '2029-12-31T00:00:00.000Z',
    };
    const state = {
      groups: { '7': { id: 7, name: 'Friday Football' }, '8': { id: 8 } },
      currentUserMemberships: {
        '7': { groupId: 7, userId: 1, userName: 'Ann', totalPoints: 100, availablePoints: 99 },
      },
      unwageredBets: { '3': bet },
      betsToResolve: {},
    };
    expect(memberStateResponseSchema.parse(state)).toEqual(state);
  });

  it('refuses a bet missing its expiry', () => {
    expect(
      memberStateResponseSchema.safeParse({
        groups: {},
        currentUserMemberships: {},
        unwageredBets: { '1': { id: 1 } },
        betsToResolve: {},
      }).success,
    ).toBe(false);
  });
});
