import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group, GroupPrivacy } from '../../../src/domain/groups';
import { startTestServer, type TestServer } from '../harness';
import { assertLedgerMatchesMemberships } from '../ledger-assertions';
import {
  befriend,
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  makeAdmin,
  uniqueGroupName,
} from './group.factories';

// Who may call what (spec 02 §6, and our decisions where it is silent): every groups
// endpoint × visitor (no token), signed-in non-member, member, admin and creator.

const ROLES = ['visitor', 'nonMember', 'member', 'admin', 'creator'] as const;
type Role = (typeof ROLES)[number];

interface Scenario {
  group: Group;
  creator: AuthResponse;
  admin: AuthResponse;
  member: AuthResponse;
  outsider: AuthResponse;
  /** Another plain member, whom calls act on. */
  target: AuthResponse;
  /** Another admin, whom calls demote. */
  secondAdmin: AuthResponse;
  /** A user in no group, whom calls add. */
  newcomer: AuthResponse;
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
  call: (scenario: Scenario) => Call;
  expected: Record<Role, number>;
}

const everyone = (status: number): Record<Role, number> => ({
  visitor: 401,
  nonMember: status,
  member: status,
  admin: status,
  creator: status,
});
const readable = { visitor: 401, nonMember: 403, member: 200, admin: 200, creator: 200 };
const adminsOnly = { visitor: 401, nonMember: 403, member: 403, admin: 200, creator: 200 };

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
    name: 'GET /groups/{id}/membership, own (public)',
    privacy: 'public',
    mutates: false,
    call: (s) => ({ method: 'GET', path: `/api/groups/${s.group.id}/membership` }),
    expected: { visitor: 401, nonMember: 404, member: 200, admin: 200, creator: 200 },
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
    expected: adminsOnly,
  },
  {
    name: 'DELETE /groups/{id}/members/{member}',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/members/${s.target.user.id}`,
    }),
    expected: adminsOnly,
  },
  {
    name: 'DELETE /groups/{id}/members/{creator}',
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/members/${s.creator.user.id}`,
    }),
    expected: { visitor: 401, nonMember: 403, member: 403, admin: 422, creator: 422 },
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
    expected: adminsOnly,
  },
  {
    name: 'DELETE /groups/{id}/admins/{admin}',
    privacy: 'private',
    mutates: true,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/admins/${s.secondAdmin.user.id}`,
    }),
    expected: adminsOnly,
  },
  {
    name: 'DELETE /groups/{id}/admins/{creator}',
    privacy: 'private',
    mutates: false,
    call: (s) => ({
      method: 'DELETE',
      path: `/api/groups/${s.group.id}/admins/${s.creator.user.id}`,
    }),
    expected: { visitor: 401, nonMember: 403, member: 403, admin: 422, creator: 422 },
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
    expected: everyone(200),
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
    expected: everyone(200),
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
    expected: everyone(403),
  },
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
    expected: { visitor: 401, nonMember: 403, member: 200, admin: 200, creator: 422 },
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
];

let server: TestServer;
const shared = new Map<GroupPrivacy, Scenario>();

async function createScenario(privacy: GroupPrivacy): Promise<Scenario> {
  const roles = await createGroupWithRoles(server, { privacy });
  const [target, secondAdmin, newcomer] = await Promise.all([
    createPlayer(server, 'Target'),
    createPlayer(server, 'Second admin'),
    createPlayer(server, 'Newcomer'),
  ]);
  await joinGroup(server, target, roles.group);
  await joinGroup(server, secondAdmin, roles.group);
  await makeAdmin(server, roles.creator, roles.group, secondAdmin);
  // Admins add by id only a friend: the newcomer shares another group with them.
  await befriend(server, newcomer, roles.creator, roles.admin);
  return { ...roles, target, secondAdmin, newcomer };
}

function tokenOf(scenario: Scenario, role: Role): string | undefined {
  return role === 'visitor'
    ? undefined
    : {
        nonMember: scenario.outsider,
        member: scenario.member,
        admin: scenario.admin,
        creator: scenario.creator,
      }[role].accessToken;
}

beforeAll(async () => {
  server = await startTestServer();
  shared.set('public', await createScenario('public'));
  shared.set('private', await createScenario('private'));
});
afterAll(() => server.close());
afterEach(() => assertLedgerMatchesMemberships(server.database));

const cases = ENDPOINTS.flatMap((endpoint) =>
  ROLES.map((role) => ({ endpoint, role, status: endpoint.expected[role] })),
);

describe('the groups permission table', () => {
  it.each(cases)('$endpoint.name as $role answers $status', async ({ endpoint, role, status }) => {
    // A visitor is refused before anything is looked up, so they never need a fresh group.
    const scenario =
      endpoint.mutates && role !== 'visitor'
        ? await createScenario(endpoint.privacy)
        : shared.get(endpoint.privacy)!;
    const { method, path, body } = endpoint.call(scenario);
    const response = await server.request(method, path, { token: tokenOf(scenario, role), body });
    expect(response.status, response.text).toBe(status);
    if (status === 401) expect(response.body.code).toBe('authentication_required');
  });
});
