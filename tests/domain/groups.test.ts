import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateInviteCode,
  INVITE_CODE_PATTERN,
  isGroupAdmin,
  isGroupCreator,
  isGroupMember,
  membershipAsSeenBy,
  rankLeaderboard,
  searchGroupsByName,
  shareLink,
  type Group,
} from '../../src/domain/groups';
import {
  createGroupRequestSchema,
  groupSchema,
  joinPrivateRequestSchema,
  joinPublicRequestSchema,
  leaderboardResponseSchema,
  listGroupsQuerySchema,
} from '../../src/domain/schemas/groups';

function messagesOf(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string[] {
  return result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);
}

function createGroup(overrides: Partial<Group> = {}): Group {
  return {
    id: 7,
    name: 'Friday Football',
    description: null,
    privacy: 'public',
    defaultPoints: 100,
    stakeTiers: [1, 2, 3],
    createdByUserId: 1,
    admins: [1],
    memberUserIds: [1, 2],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('createGroupRequestSchema', () => {
  it('fills the defaults of docs/groups-and-bets.md §5: public, 100 starting points', () => {
    expect(createGroupRequestSchema.parse({ name: '  Book Club ' })).toEqual({
      name: 'Book Club',
      privacy: 'public',
      defaultPoints: 100,
    });
  });

  it.each([
    [{}, 'Group name is required'],
    [{ name: '   ' }, 'Group name is required'],
    [{ name: 'ab' }, 'Group name must be at least 3 characters'],
    [{ name: 'x'.repeat(101) }, 'Group name must not exceed 100 characters'],
    [{ name: 'Book Club', privacy: 'secret' }, 'Privacy setting is required'],
    [{ name: 'Book Club', privacy: null }, 'Privacy setting is required'],
    [{ name: 'Book Club', defaultPoints: null }, 'Starting points is required'],
    [{ name: 'Book Club', defaultPoints: Number.NaN }, 'Starting points is required'],
    [{ name: 'Book Club', defaultPoints: 0 }, 'Points must be at least 1'],
    [{ name: 'Book Club', defaultPoints: 2.5 }, 'Points must be a whole number'],
    [{ name: 'Book Club', defaultPoints: 1_000_001 }, 'Points must not exceed 1,000,000'],
    [
      { name: 'Book Club', description: 'd'.repeat(501) },
      'Description must not exceed 500 characters',
    ],
    [
      { name: 'Book Club', privacy: 'private', inviteCode: 'abc' },
      'Invite code must be 6-20 characters',
    ],
    [
      { name: 'Book Club', privacy: 'private', inviteCode: 'a'.repeat(21) },
      'Invite code must be 6-20 characters',
    ],
    [
      { name: 'Book Club', privacy: 'private', inviteCode: 'abc def' },
      'Invite code may only contain letters, numbers, - and _',
    ],
  ])('refuses %j with "%s"', (input, message) => {
    expect(messagesOf(createGroupRequestSchema.safeParse(input))).toEqual([message]);
  });

  it('keeps a valid invite code on a private group', () => {
    expect(
      createGroupRequestSchema.parse({
        name: 'Secret Club',
        privacy: 'private',
        inviteCode: ' Join-Us_2025 ',
      }).inviteCode,
    ).toBe('Join-Us_2025');
  });

  it('leaves a blank invite code for the server to generate', () => {
    expect(
      createGroupRequestSchema.parse({ name: 'Secret Club', privacy: 'private', inviteCode: '  ' }),
    ).not.toHaveProperty('inviteCode');
  });

  it('drops an invite code sent with a public group', () => {
    expect(
      createGroupRequestSchema.parse({
        name: 'Open Club',
        privacy: 'public',
        inviteCode: 'abcdef',
      }),
    ).not.toHaveProperty('inviteCode');
  });

  it('refuses unknown fields', () => {
    expect(createGroupRequestSchema.safeParse({ name: 'Book Club', admin: true }).success).toBe(
      false,
    );
  });
});

describe('join requests', () => {
  it('asks to select a public group when the name is missing or blank', () => {
    expect(messagesOf(joinPublicRequestSchema.safeParse({}))).toEqual([
      'Please select a public group.',
    ]);
    expect(messagesOf(joinPublicRequestSchema.safeParse({ groupName: ' ' }))).toEqual([
      'Please select a public group.',
    ]);
  });

  it('takes the group id of a private join as a number or as the numeric string of a link', () => {
    expect(joinPrivateRequestSchema.parse({ groupId: '12', inviteCode: 'abcdef' })).toEqual({
      groupId: 12,
      inviteCode: 'abcdef',
    });
    expect(joinPrivateRequestSchema.parse({ groupId: 12, inviteCode: 'abcdef' }).groupId).toBe(12);
  });

  it('requires both the group id and the invite code of a private join', () => {
    expect(messagesOf(joinPrivateRequestSchema.safeParse({ groupId: '', inviteCode: '' }))).toEqual(
      ['Group ID is required', 'Invite code is required'],
    );
    expect(
      messagesOf(joinPrivateRequestSchema.safeParse({ groupId: 'abc', inviteCode: 'abcdef' })),
    ).toEqual(['Group ID is required']);
    expect(
      messagesOf(joinPrivateRequestSchema.safeParse({ groupId: 0, inviteCode: 'abcdef' })),
    ).toEqual(['Group ID is required']);
  });
});

describe('listGroupsQuerySchema', () => {
  it('accepts the filters of docs/groups-and-bets.md §7 and nothing else for them', () => {
    expect(
      listGroupsQuerySchema.parse({ membership: 'mine', managed_by: 'mine', privacy: 'private' }),
    ).toEqual({
      membership: 'mine',
      managed_by: 'mine',
      privacy: 'private',
      limit: 100,
      offset: 0,
    });
    expect(listGroupsQuerySchema.safeParse({ membership: 'all' }).success).toBe(false);
  });

  it('pages: at most 100 groups from an offset', () => {
    expect(listGroupsQuerySchema.parse({ limit: '20', offset: '40' })).toMatchObject({
      limit: 20,
      offset: 40,
    });
    for (const page of [{ limit: '0' }, { limit: '101' }, { offset: '-1' }])
      expect(listGroupsQuerySchema.safeParse(page).success).toBe(false);
  });
});

describe('response schemas', () => {
  it('reads a group and a leaderboard', () => {
    expect(
      groupSchema.parse(createGroup({ privacy: 'private', inviteCode: 'abcdef' })).inviteCode,
    ).toBe('abcdef');
    expect(
      leaderboardResponseSchema.parse({ users: [{ id: 1, name: 'Ann', points: 120 }] }).users,
    ).toHaveLength(1);
  });
});

describe('shareLink', () => {
  it('links to the group page of a public group', () => {
    expect(shareLink('https://hunch.example', createGroup())).toBe('https://hunch.example/group/7');
  });

  it('adds the URL-encoded invite code of a private group', () => {
    expect(
      shareLink('https://hunch.example/', createGroup({ privacy: 'private', inviteCode: 'a b&c' })),
    ).toBe('https://hunch.example/group/7?inviteCode=a%20b%26c');
  });

  it('leaves the code out when a private group has none, and never shows one for a public group', () => {
    expect(shareLink('http://localhost:3000', createGroup({ privacy: 'private' }))).toBe(
      'http://localhost:3000/group/7',
    );
    expect(shareLink('http://localhost:3000', createGroup({ inviteCode: 'abcdef' }))).toBe(
      'http://localhost:3000/group/7',
    );
  });
});

describe('generateInviteCode', () => {
  it('makes 10 URL-safe characters from any random bytes, which the create schema accepts', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 10, maxLength: 10 }), (bytes) => {
        const code = generateInviteCode(() => bytes);
        expect(code).toHaveLength(10);
        expect(INVITE_CODE_PATTERN.test(code)).toBe(true);
        expect(encodeURIComponent(code)).toBe(code);
        expect(
          createGroupRequestSchema.parse({
            name: 'Secret Club',
            privacy: 'private',
            inviteCode: code,
          }).inviteCode,
        ).toBe(code);
      }),
    );
  });

  it('gives different codes for different bytes', () => {
    expect(generateInviteCode(() => new Uint8Array(10))).not.toBe(
      generateInviteCode(() => new Uint8Array(10).fill(1)),
    );
  });

  it('refuses a random source that returns too few bytes', () => {
    expect(() => generateInviteCode(() => new Uint8Array(3))).toThrow();
  });
});

describe('roles', () => {
  it('counts admins as members and knows the creator', () => {
    const group = createGroup({ admins: [1, 3], memberUserIds: [1, 2] });
    expect(isGroupMember(group, 3)).toBe(true);
    expect(isGroupMember(group, 4)).toBe(false);
    expect(isGroupAdmin(group, 2)).toBe(false);
    expect(isGroupCreator(group, 1)).toBe(true);
  });
});

describe('searchGroupsByName', () => {
  it('finds groups by a case-insensitive part of their name, all of them for a blank query', () => {
    const groups = [
      createGroup({ id: 1, name: 'Friday Football' }),
      createGroup({ id: 2, name: 'Book Club' }),
    ];
    expect(searchGroupsByName(groups, ' FOOT ').map((group) => group.id)).toEqual([1]);
    expect(searchGroupsByName(groups, '')).toHaveLength(2);
  });

  it('finds a name however the query was typed (decomposed, with a no-break or zero-width space)', () => {
    const groups = [createGroup({ id: 1, name: 'Caf\u00e9 Crew' })];
    for (const query of ['cafe\u0301 c', 'Caf\u00e9\u00A0Crew', 'caf\u00e9\u200B crew'])
      expect(searchGroupsByName(groups, query), JSON.stringify(query)).toHaveLength(1);
  });
});

describe('rankLeaderboard', () => {
  it('ranks by points descending, ties by user id, 1..n', () => {
    const ranked = rankLeaderboard([
      { id: 3, name: 'Cy', points: 90 },
      { id: 2, name: 'Bo', points: 120 },
      { id: 1, name: 'Al', points: 90 },
    ]);
    expect(ranked.map((user) => [user.rank, user.id])).toEqual([
      [1, 2],
      [2, 1],
      [3, 3],
    ]);
  });

  it('gives the same order whatever order the users arrive in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ id: fc.nat(50), name: fc.string(), points: fc.nat(5) }), {
          selector: (user) => user.id,
        }),
        (users) => {
          expect(rankLeaderboard([...users].reverse())).toEqual(rankLeaderboard(users));
        },
      ),
    );
  });
});

describe('membershipAsSeenBy', () => {
  it('shows a member their own points, and anyone else total points only (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
        fc.nat(5000),
        fc.nat(5000),
        (userId, viewerId, available, extra) => {
          const membership = {
            groupId: 1,
            userId,
            userName: 'Bo',
            totalPoints: available + extra,
            availablePoints: available,
            role: 'member' as const,
          };
          const seen = membershipAsSeenBy(membership, viewerId);
          expect(seen).toEqual(
            viewerId === userId
              ? membership
              : { ...membership, availablePoints: membership.totalPoints },
          );
        },
      ),
    );
  });
});
