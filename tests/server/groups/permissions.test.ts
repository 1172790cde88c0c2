import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet, Wager } from '../../../src/domain/bets';
import type { Group, GroupPrivacy } from '../../../src/domain/groups';
import { useTestServer } from '../harness';
import { createBet, DAY, expiresIn, placeWager } from '../bets/bet.factories';
import {
  befriend,
  createGroup,
  createPlayer,
  joinGroup,
  makeAdmin,
  uniqueGroupName,
} from './group.factories';

// Who may call what (docs/groups-and-bets.md §6, and our decisions where it is silent), the table that holds
// src/server/groups/group-access.ts to its rules: every groups, bets and comments endpoint × visitor (no
// token), signed-in non-member, member who left, member an admin removed, member, admin, group
// creator, bet creator and a bet creator who left. A refusal names its code too.

const ROLES = [
  'visitor',
  'nonMember',
  'leftMember',
  'removedMember',
  'member',
  'admin',
  'creator',
  'betCreator',
  'departedBetCreator',
] as const;
type Role = (typeof ROLES)[number];

/** A status, or a status and the error code that comes with it: `'403 not_member'`. */
type Outcome = number | `${number} ${string}`;

interface Scenario {
  group: Group;
  creator: AuthResponse;
  admin: AuthResponse;
  member: AuthResponse;
  outsider: AuthResponse;
  /** Joined, wagered on `bet`, then left. */
  leftMember: AuthResponse;
  /** Joined, then removed by an admin: kept out until an admin adds them back. */
  removedMember: AuthResponse;
  /** A plain member who created `bet`. */
  betCreator: AuthResponse;
  /** Created `orphanBet`, then left. */
  departedBetCreator: AuthResponse;
  /** Another plain member, whom calls act on. */
  target: AuthResponse;
  /** Another admin, whom calls demote. */
  secondAdmin: AuthResponse;
  /** A user in no group, whom calls add. */
  newcomer: AuthResponse;
  /** An active bet whose creator is still a member; `member` and `leftMember` wagered on it. */
  bet: Bet;
  memberWager: Wager;
  leftMemberWager: Wager;
  /** An active bet whose creator has left, nobody's wager on it yet. */
  orphanBet: Bet;
  /** `member`'s comment on `bet`. */
  memberComment: { id: number };
  /** Resolved by `betCreator` and disputed by `member`; `admin` and `member` wagered on it. */
  disputedBet: Bet;
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

interface Endpoint {
  name: string;
  privacy: GroupPrivacy;
  /** A call that changes the group gets a fresh group for each role. */
  mutates: boolean;
  /** `caller` is the role's user (undefined for a visitor). */
  call: (scenario: Scenario, caller: AuthResponse | undefined) => Call;
  expected: Record<Role, Outcome>;
}

/** An id no group or bet has. */
const MISSING_ID = 999_999;

const everyone = (outcome: Outcome): Record<Role, Outcome> => ({
  visitor: 401,
  nonMember: outcome,
  leftMember: outcome,
  removedMember: outcome,
  member: outcome,
  admin: outcome,
  creator: outcome,
  betCreator: outcome,
  departedBetCreator: outcome,
});
/** Current members get `outcome`; whoever is signed in but not a member now gets `refusal`. */
const membersOnly = (
  outcome: Outcome,
  refusal: Outcome = '403 not_member',
): Record<Role, Outcome> => ({
  visitor: 401,
  nonMember: refusal,
  leftMember: refusal,
  removedMember: refusal,
  member: outcome,
  admin: outcome,
  creator: outcome,
  betCreator: outcome,
  departedBetCreator: refusal,
});
/** Current admins (the creator is one) get `outcome`; plain members are not admins, non-members not members. */
const adminsOnly = (outcome: Outcome): Record<Role, Outcome> => ({
  ...membersOnly(outcome),
  member: '403 not_group_admin',
  betCreator: '403 not_group_admin',
});
const readable = membersOnly(200);
/** Only `owner` gets `outcome`; everyone else signed in gets `refusal`. */
const onlyFor = (owner: Role, outcome: Outcome, refusal: Outcome): Record<Role, Outcome> => ({
  ...everyone(refusal),
  [owner]: outcome,
});

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST /groups',
    privacy: 'public',
    mutates: false,
    call: () => ({ method: 'POST', path: '/api/groups', body: { name: uniqueGroupName() } }),
    expected: everyone(201),
  },
  {
    name: 'GET /groups',
    privacy: 'public',
    mutates: false,
    call: () => ({ method: 'GET', path: '/api/groups' }),
    expected: everyone(200),
  },
  {
    name: 'GET /groups?membership=mine',
    privacy: 'public',
    mutates: false,
    call: () => ({ method: 'GET', path: '/api/groups?membership=mine&managed_by=mine' }),
    expected: everyone(200),
  },
  {
    name: 'GET /groups/{id} (private)',
    privacy: 'private',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}` }),
    expected: readable,
  },
  {
    name: 'GET /groups/{id} (public)',
    privacy: 'public',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}` }),
    expected: everyone(200),
  },
  {
    name: 'GET /groups/{missing id}',
    privacy: 'public',
    mutates: false,
    call: () => ({ method: 'GET', path: `/api/groups/${MISSING_ID}` }),
    expected: everyone('404 not_found'),
  },
  {
    name: 'GET /groups/{id}/membership?user=creator (private)',
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'GET',
      path: `/api/groups/${s.group.id}/membership?user=${s.creator.user.id}`,
    }),
    expected: readable,
  },
  {
    name: 'GET /groups/{id}/membership?user=creator (public)',
    privacy: 'public',
    mutates: false,
    call: (s) => ({
      method: 'GET',
      path: `/api/groups/${s.group.id}/membership?user=${s.creator.user.id}`,
    }),
    expected: everyone(200),
  },
  {
    name: 'GET /groups/{id}/membership, own (public)',
    privacy: 'public',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}/membership` }),
    expected: membersOnly(200, '404 not_found'),
  },
  {
    name: 'POST /groups/{id}/members',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'POST',
      path: `/api/groups/${s.group.id}/members`,
      body: { userId: s.newcomer.user.id },
    }),
    expected: adminsOnly(200),
  },
  {
    name: 'DELETE /groups/{id}/members/{member}',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/members/${s.target.user.id}`,
    }),
    expected: adminsOnly(200),
  },
  {
    // The group policy: an admin may remove another admin (the creator stays an admin).
    name: 'DELETE /groups/{id}/members/{another admin}',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/members/${s.secondAdmin.user.id}`,
    }),
    expected: adminsOnly(200),
  },
  {
    name: 'DELETE /groups/{id}/members/{creator}',
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/members/${s.creator.user.id}`,
    }),
    // The creator removing themself is leaving, which they cannot.
    expected: { ...adminsOnly('422 cannot_remove_creator'), creator: '422 creator_cannot_leave' },
  },
  {
    name: 'POST /groups/{id}/admins',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'POST',
      path: `/api/groups/${s.group.id}/admins`,
      body: { userId: s.target.user.id },
    }),
    expected: adminsOnly(200),
  },
  {
    name: 'DELETE /groups/{id}/admins/{admin}',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/admins/${s.secondAdmin.user.id}`,
    }),
    expected: adminsOnly(200),
  },
  {
    name: 'DELETE /groups/{id}/admins/{creator}',
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/admins/${s.creator.user.id}`,
    }),
    expected: adminsOnly('422 cannot_demote_creator'),
  },
  {
    name: 'POST /groups/join-public',
    privacy: 'public',
    mutates: true,
    call: (s) => ({
      method: 'POST',
      path: '/api/groups/join-public',
      body: { groupName: s.group.name },
    }),
    expected: { ...everyone(200), removedMember: '403 removed_from_group' },
  },
  {
    name: 'POST /groups/join-private, right code',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'POST',
      path: '/api/groups/join-private',
      body: { groupId: s.group.id, inviteCode: s.group.inviteCode },
    }),
    expected: { ...everyone(200), removedMember: '403 removed_from_group' },
  },
  {
    name: 'POST /groups/join-private, wrong code',
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'POST',
      path: '/api/groups/join-private',
      body: { groupId: s.group.id, inviteCode: 'not-the-code' },
    }),
    expected: everyone('403 invalid_invite_code'),
  },
  {
    name: 'POST /groups/join-private, a public group with any code',
    privacy: 'public',
    mutates: true,
    call: (s) => ({
      method: 'POST',
      path: '/api/groups/join-private',
      body: { groupId: s.group.id, inviteCode: 'not-the-code' },
    }),
    expected: { ...everyone(200), removedMember: '403 removed_from_group' },
  },
  ...(['private', 'public'] as const).map((privacy): Endpoint => ({
    name: `POST /groups/{id}/invite-code (${privacy})`,
    privacy,
    mutates: privacy === 'private',
    call: (s) => ({ method: 'POST', path: `/api/groups/${s.group.id}/invite-code` }),
    expected: adminsOnly(privacy === 'private' ? 200 : '422 no_invite_code'),
  })),
  {
    name: 'GET /groups/public',
    privacy: 'public',
    mutates: false,
    call: (s) => ({
      method: 'GET',
      path: `/api/groups/public?search=${encodeURIComponent(s.group.name)}`,
    }),
    expected: everyone(200),
  },
  {
    name: 'POST /groups/{id}/leave',
    privacy: 'private',
    mutates: true,
    call: (s) => ({ method: 'POST', path: `/api/groups/${s.group.id}/leave` }),
    expected: { ...membersOnly(200), creator: '422 creator_cannot_leave' },
  },
  {
    name: 'DELETE /groups/{id}/members/{self} (leaving)',
    privacy: 'private',
    mutates: true,
    call: (s, caller) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/members/${(caller ?? s.member).user.id}`,
    }),
    expected: { ...membersOnly(200), creator: '422 creator_cannot_leave' },
  },
  {
    name: 'GET /groups/{id}/settings (public)',
    privacy: 'public',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}/settings` }),
    expected: adminsOnly(200),
  },
  {
    name: 'PATCH /groups/{id}/settings',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'PATCH',
      path: `/api/groups/${s.group.id}/settings`,
      body: { floorTopUp: false },
    }),
    expected: adminsOnly(200),
  },
  {
    name: 'PATCH /groups/{id} (rename, describe)',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'PATCH',
      path: `/api/groups/${s.group.id}`,
      body: { description: 'Renamed by an admin' },
    }),
    expected: adminsOnly(200),
  },
  {
    name: 'POST /groups/{id}/seasons',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'POST',
      path: `/api/groups/${s.group.id}/seasons`,
      body: { name: 'Autumn cup', endsAt: new Date(Date.now() + 7 * DAY).toISOString() },
    }),
    expected: adminsOnly(201),
  },
  {
    name: 'GET /groups/{id}/seasons (private)',
    privacy: 'private',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}/seasons` }),
    expected: readable,
  },
  {
    name: 'GET /groups/{id}/seasons (public)',
    privacy: 'public',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}/seasons` }),
    expected: everyone(200),
  },
  {
    name: 'GET /groups/{id}/leaderboard (private)',
    privacy: 'private',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}/leaderboard` }),
    expected: readable,
  },
  {
    name: 'GET /groups/{id}/leaderboard (public)',
    privacy: 'public',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}/leaderboard` }),
    expected: everyone(200),
  },
  {
    name: 'GET /member/state',
    privacy: 'public',
    mutates: false,
    call: () => ({ method: 'GET', path: '/api/member/state' }),
    expected: everyone(200),
  },
  ...(['private', 'public'] as const).map((privacy): Endpoint => ({
    name: `POST /bets (${privacy})`,
    privacy,
    mutates: false,
    call: (s) => ({
      method: 'POST',
      path: '/api/bets',
      body: {
        title: 'Will it snow?',
        betType: 'yes_no',
        betTypeConfig: {},
        baseWagerAmount: 1,
        expiresAt: expiresIn(server, DAY),
        groupId: s.group.id,
      },
    }),
    expected: membersOnly(201),
  })),
  {
    name: 'POST /bets in a missing group',
    privacy: 'public',
    mutates: false,
    call: () => ({
      method: 'POST',
      path: '/api/bets',
      body: {
        title: 'Will it snow?',
        betType: 'yes_no',
        betTypeConfig: {},
        baseWagerAmount: 1,
        expiresAt: expiresIn(server, DAY),
        groupId: MISSING_ID,
      },
    }),
    expected: everyone('404 not_found'),
  },
  ...(['private', 'public'] as const).flatMap((privacy): Endpoint[] =>
    (
      [
        ['/bets/{id}', (s) => `/api/bets/${s.bet.id}`],
        ['/bets/{id}/user-context', (s) => `/api/bets/${s.bet.id}/user-context`],
        ['/bets/{id}/statistics', (s) => `/api/bets/${s.bet.id}/statistics`],
        ['/bets/group/{groupId}', (s) => `/api/bets/group/${s.group.id}`],
        ['/groups/{id}/bets', (s) => `/api/groups/${s.group.id}/bets`],
      ] as Array<[string, (s: Scenario) => string]>
    ).map(([name, path]) => ({
      name: `GET ${name} (${privacy})`,
      privacy,
      mutates: false,
      call: (s) => ({ method: 'GET', path: path(s) }),
      expected: privacy === 'public' ? everyone(200) : readable,
    })),
  ),
  {
    name: 'GET /bets/{missing id}',
    privacy: 'public',
    mutates: false,
    call: () => ({ method: 'GET', path: `/api/bets/${MISSING_ID}` }),
    expected: everyone('404 bet_not_found'),
  },
  {
    name: 'GET /bets/user/wagers?group=',
    privacy: 'private',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/bets/user/wagers?group=${s.group.id}` }),
    expected: everyone(200),
  },
  ...(['private', 'public'] as const).map((privacy): Endpoint => ({
    name: `POST /bets/wagers (${privacy})`,
    privacy,
    // Each role wagers once, as a different user: the shared group serves.
    mutates: false,
    call: (s) => ({
      method: 'POST',
      path: '/api/bets/wagers',
      body: { betId: s.orphanBet.id, prediction: 'yes', points: 1 },
    }),
    expected: membersOnly(201),
  })),
  {
    name: "PUT /bets/wagers/{member's wager}",
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'PUT',
      path: `/api/bets/wagers/${s.memberWager.id}`,
      body: { prediction: 'no', points: 2 },
    }),
    expected: onlyFor('member', 200, '403 not_wager_owner'),
  },
  {
    name: "PUT /bets/wagers/{left member's wager}",
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'PUT',
      path: `/api/bets/wagers/${s.leftMemberWager.id}`,
      body: { prediction: 'no', points: 2 },
    }),
    expected: onlyFor('leftMember', '403 not_member', '403 not_wager_owner'),
  },
  {
    name: 'PUT /bets/{id}/resolve, its creator a member',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'PUT',
      path: `/api/bets/${s.bet.id}/resolve`,
      body: { correctAnswer: 'yes' },
    }),
    expected: onlyFor('betCreator', 200, '403 not_bet_creator'),
  },
  {
    name: 'PUT /bets/{id}/resolve, its creator gone',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'PUT',
      path: `/api/bets/${s.orphanBet.id}/resolve`,
      body: { correctAnswer: 'yes' },
    }),
    expected: {
      ...everyone('403 not_bet_creator'),
      admin: 200,
      creator: 200,
      departedBetCreator: '403 not_member',
    },
  },
  {
    name: 'POST /bets/{id}/cancel, its creator a member',
    privacy: 'private',
    mutates: true,
    call: (s) => ({ method: 'POST', path: `/api/bets/${s.bet.id}/cancel` }),
    expected: {
      ...everyone('403 cannot_cancel_bet'),
      admin: 200,
      creator: 200,
      betCreator: 200,
    },
  },
  {
    name: 'POST /bets/{id}/cancel, its creator gone',
    privacy: 'private',
    mutates: true,
    call: (s) => ({ method: 'POST', path: `/api/bets/${s.orphanBet.id}/cancel` }),
    expected: {
      ...everyone('403 cannot_cancel_bet'),
      admin: 200,
      creator: 200,
      departedBetCreator: '403 not_member',
    },
  },
  // Fair resolution on `bet`, still open and unresolved: each refusal names its rule.
  {
    name: 'GET /bets/{id}/picks while betting is open',
    privacy: 'private',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/bets/${s.bet.id}/picks` }),
    expected: membersOnly('403 picks_hidden'),
  },
  {
    name: 'GET /bets/{id}/history',
    privacy: 'private',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/bets/${s.bet.id}/history` }),
    expected: readable,
  },
  {
    name: 'POST /bets/{id}/undo-resolution, nobody resolved it',
    privacy: 'private',
    mutates: false,
    call: (s) => ({ method: 'POST', path: `/api/bets/${s.bet.id}/undo-resolution` }),
    expected: membersOnly('403 cannot_undo_resolution'),
  },
  {
    name: 'POST /bets/{id}/dispute, not resolved',
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'POST',
      path: `/api/bets/${s.bet.id}/dispute`,
      body: { reason: 'Wrong' },
    }),
    expected: { ...membersOnly('403 cannot_dispute'), member: '422 bet_not_active' },
  },
  {
    name: 'POST /bets/{id}/dispute/dismiss, no dispute',
    privacy: 'private',
    mutates: false,
    call: (s) => ({ method: 'POST', path: `/api/bets/${s.bet.id}/dispute/dismiss` }),
    expected: {
      ...membersOnly('422 no_open_dispute'),
      member: '403 cannot_review_dispute',
      betCreator: '403 cannot_review_dispute',
    },
  },
  // An open dispute: neither its disputer nor anyone who wagered judges it (`admin` did), so
  // the admins without a stake do, and plain members only when every admin has one.
  {
    name: 'POST /bets/{id}/dispute/dismiss, an admin wagered',
    privacy: 'private',
    mutates: true,
    call: (s) => ({ method: 'POST', path: `/api/bets/${s.disputedBet.id}/dispute/dismiss` }),
    expected: {
      ...membersOnly('403 cannot_review_dispute'),
      creator: 200,
    },
  },
  {
    name: 'PUT /bets/{id}/re-resolve, an admin wagered',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'PUT',
      path: `/api/bets/${s.disputedBet.id}/re-resolve`,
      body: { correctAnswer: 'no' },
    }),
    expected: {
      ...membersOnly('403 cannot_review_dispute'),
      creator: 200,
    },
  },
  {
    name: 'GET /bets/{id}/comments, even in a public group',
    privacy: 'public',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/bets/${s.bet.id}/comments` }),
    expected: readable,
  },
  {
    name: 'POST /bets/{id}/comments',
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'POST',
      path: `/api/bets/${s.bet.id}/comments`,
      body: { text: 'Who brings the snacks?' },
    }),
    expected: membersOnly(201),
  },
  {
    name: "DELETE /comments/{id}, a member's comment",
    privacy: 'private',
    mutates: true,
    call: (s) => ({ method: 'DELETE', path: `/api/comments/${s.memberComment.id}` }),
    expected: {
      ...membersOnly('403 cannot_delete_comment'),
      member: 200,
      admin: 200,
      creator: 200,
    },
  },
  ...(['private', 'public'] as const).map((privacy): Endpoint => ({
    name: `PUT /groups/{id}/mute (${privacy})`,
    privacy,
    mutates: false,
    call: (s) => ({ method: 'PUT', path: `/api/groups/${s.group.id}/mute`, body: { muted: true } }),
    expected: membersOnly(200),
  })),
  {
    name: 'PUT /bets/{id}/mute, even in a public group',
    privacy: 'public',
    mutates: false,
    call: (s) => ({ method: 'PUT', path: `/api/bets/${s.bet.id}/mute`, body: { muted: true } }),
    expected: membersOnly(200),
  },
];

const server = useTestServer();
const shared = new Map<GroupPrivacy, Scenario>();

async function leave(user: AuthResponse, group: Group): Promise<void> {
  const response = await server.request('POST', `/api/groups/${group.id}/leave`, {
    token: user.accessToken,
  });
  if (response.status !== 200) throw new Error(`leave failed: ${response.status} ${response.text}`);
}

/** The people of every scenario: created once, since only groups change between scenarios. */
type Cast = Omit<
  Scenario,
  | 'group'
  | 'bet'
  | 'memberWager'
  | 'leftMemberWager'
  | 'orphanBet'
  | 'memberComment'
  | 'disputedBet'
>;
let cast: Cast | undefined;

async function createCast(): Promise<Cast> {
  const names = [
    'creator',
    'admin',
    'member',
    'outsider',
    'target',
    'secondAdmin',
    'newcomer',
    'leftMember',
    'removedMember',
    'betCreator',
    'departedBetCreator',
  ] as const;
  const players = await Promise.all(names.map((name) => createPlayer(server, name)));
  const created = Object.fromEntries(names.map((name, i) => [name, players[i]!])) as Cast;
  // Admins add by id only a friend: the newcomer shares another group with them.
  await befriend(server, created.newcomer, created.creator, created.admin);
  return created;
}

/** A fresh group of `privacy` in the state the table's calls expect, played by the cast. */
async function createScenario(privacy: GroupPrivacy): Promise<Scenario> {
  cast ??= await createCast();
  const { creator, admin, member, target, secondAdmin, leftMember, removedMember } = cast;
  const { betCreator, departedBetCreator } = cast;
  const group = await createGroup(server, creator, { privacy });
  for (const user of [admin, member, target, secondAdmin, leftMember, removedMember]) {
    await joinGroup(server, user, group);
  }
  await joinGroup(server, betCreator, group);
  await joinGroup(server, departedBetCreator, group);
  const removed = await server.request(
    'DELETE',
    `/api/groups/${group.id}/members/${removedMember.user.id}`,
    { token: creator.accessToken },
  );
  if (removed.status !== 200) throw new Error(`remove failed: ${removed.status} ${removed.text}`);
  await makeAdmin(server, creator, group, admin);
  await makeAdmin(server, creator, group, secondAdmin);
  const [bet, orphanBet, disputedBet] = await Promise.all([
    createBet(server, betCreator, group),
    createBet(server, departedBetCreator, group),
    createBet(server, betCreator, group),
  ]);
  await placeWager(server, admin, disputedBet, 'yes', 1);
  await placeWager(server, member, disputedBet, 'no', 1);
  for (const [who, path, body] of [
    [betCreator, `/api/bets/${disputedBet.id}/resolve`, { correctAnswer: 'yes' }],
    [member, `/api/bets/${disputedBet.id}/dispute`, { reason: 'It said no.' }],
  ] as const) {
    const response = await server.request(path.endsWith('resolve') ? 'PUT' : 'POST', path, {
      token: who.accessToken,
      body,
    });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
  }
  const [memberWager, leftMemberWager] = await Promise.all([
    placeWager(server, member, bet, 'yes', 1),
    placeWager(server, leftMember, bet, 'no', 1),
  ]);
  await Promise.all([leave(leftMember, group), leave(departedBetCreator, group)]);
  const comment = await server.request<{ id: number }>('POST', `/api/bets/${bet.id}/comments`, {
    token: member.accessToken,
    body: { text: 'I say yes.' },
  });
  if (comment.status !== 201) throw new Error(`comment failed: ${comment.status} ${comment.text}`);
  return {
    ...cast,
    group,
    bet,
    memberWager,
    leftMemberWager,
    orphanBet,
    memberComment: comment.body,
    disputedBet,
  };
}

function callerOf(scenario: Scenario, role: Role): AuthResponse | undefined {
  return role === 'visitor' ? undefined : scenario[role === 'nonMember' ? 'outsider' : role];
}

beforeAll(async () => {
  shared.set('public', await createScenario('public'));
  shared.set('private', await createScenario('private'));
});

const cases = ENDPOINTS.flatMap((endpoint) =>
  ROLES.map((role) => ({ endpoint, role, outcome: endpoint.expected[role] })),
);

describe('the permission table', () => {
  it.each(cases)(
    '$endpoint.name as $role answers $outcome',
    async ({ endpoint, role, outcome }) => {
      // Only a call that succeeds changes its group: a refusal leaves the shared one as it was.
      const scenario =
        endpoint.mutates && String(outcome).startsWith('2')
          ? await createScenario(endpoint.privacy)
          : shared.get(endpoint.privacy)!;
      const caller = callerOf(scenario, role);
      const { method, path, body } = endpoint.call(scenario, caller);
      const response = await server.request(method, path, { token: caller?.accessToken, body });
      const [status, code] = String(outcome).split(' ');
      expect(response.status, response.text).toBe(Number(status));
      if (status === '401') expect(response.body.code).toBe('authentication_required');
      if (code) expect(response.body.code).toBe(code);
    },
  );
});
