import type { AuthResponse } from '../../../src/domain/auth';
import type { CreateGroupRequest, Group } from '../../../src/domain/groups';
import type { PublishedEvent } from '../../../src/server/events';
import { and, eq } from 'drizzle-orm';
import { ledger, memberships } from '../../../src/server/db/schema';
import { createGuest, type TestServer } from '../harness';

// Factories for the groups tests (and the bets tests after them): users are guests, which
// skip password hashing and keep the permission table fast; everything goes through HTTP.

let sequence = 0;

/** A unique group name, so public names never clash between tests of one file. */
export function uniqueGroupName(prefix = 'Group'): string {
  sequence += 1;
  return `${prefix} ${process.pid}-${sequence}-${Math.random().toString(36).slice(2, 6)}`;
}

/** A signed-in guest user. */
export function createPlayer(server: TestServer, displayName = 'Player'): Promise<AuthResponse> {
  sequence += 1;
  return createGuest(server, `${displayName} ${sequence}`);
}

export async function createGroup(
  server: TestServer,
  owner: AuthResponse,
  overrides: Partial<CreateGroupRequest> = {},
): Promise<Group> {
  const body: CreateGroupRequest = {
    name: uniqueGroupName(),
    privacy: 'public',
    defaultPoints: 100,
    ...overrides,
  };
  const response = await server.request<Group>('POST', '/api/groups', {
    token: owner.accessToken,
    body,
  });
  if (response.status !== 201)
    throw new Error(`createGroup failed: ${response.status} ${response.text}`);
  return response.body;
}

/** Joins by the path a real client would take: by name for a public group, by id and code for a private one. */
export async function joinGroup(
  server: TestServer,
  user: AuthResponse,
  group: Group,
  inviteCode = group.inviteCode,
): Promise<Group> {
  const response =
    group.privacy === 'public'
      ? await server.request<Group>('POST', '/api/groups/join-public', {
          token: user.accessToken,
          body: { groupName: group.name },
        })
      : await server.request<Group>('POST', '/api/groups/join-private', {
          token: user.accessToken,
          body: { groupId: group.id, inviteCode },
        });
  if (response.status !== 200)
    throw new Error(`joinGroup failed: ${response.status} ${response.text}`);
  return response.body;
}

export async function makeAdmin(
  server: TestServer,
  admin: AuthResponse,
  group: Group,
  user: AuthResponse,
): Promise<void> {
  const response = await server.request('POST', `/api/groups/${group.id}/admins`, {
    token: admin.accessToken,
    body: { userId: user.user.id },
  });
  if (response.status !== 200)
    throw new Error(`makeAdmin failed: ${response.status} ${response.text}`);
}

/** Makes the users friends (docs/security.md): one public group of theirs, so an admin among them may add the others by id. */
export async function befriend(server: TestServer, ...users: AuthResponse[]): Promise<Group> {
  const [first, ...others] = users;
  const group = await createGroup(server, first!, { name: uniqueGroupName('Friends') });
  for (const user of others) await joinGroup(server, user, group);
  return group;
}

/** A group with one user in each role, and an outsider. */
export async function createGroupWithRoles(
  server: TestServer,
  overrides: Partial<CreateGroupRequest> = {},
) {
  const [creator, admin, member, outsider] = await Promise.all([
    createPlayer(server, 'Creator'),
    createPlayer(server, 'Admin'),
    createPlayer(server, 'Member'),
    createPlayer(server, 'Outsider'),
  ]);
  const created = await createGroup(server, creator, overrides);
  await joinGroup(server, admin, created);
  await joinGroup(server, member, created);
  await makeAdmin(server, creator, created, admin);
  return { group: created, creator, admin, member, outsider };
}

/** The inbox's per-user events (src/server/notifications), written on a later turn: only its own tests record them. */
const INBOX_EVENTS = new Set(['notificationSaved', 'notificationPushDue']);

/** Records every event published on the app's bus until stopped (the inbox's only with `withInbox`). */
export function recordEvents(server: TestServer, { withInbox = false } = {}) {
  const events: PublishedEvent[] = [];
  const stop = server.app.events.subscribe((published) => {
    if (withInbox || !INBOX_EVENTS.has(published.event)) events.push(published);
  });
  return { events, stop };
}

/** A membership row as stored (left, removed and points included). */
export async function membershipRow(server: TestServer, group: Pick<Group, 'id'>, userId: number) {
  const [row] = await server.database.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, userId)));
  return row;
}

/** How many join grants the ledger holds for a player in a group. */
export async function grantsOf(server: TestServer, group: Pick<Group, 'id'>, userId: number) {
  const rows = await server.database.db
    .select()
    .from(ledger)
    .where(
      and(eq(ledger.groupId, group.id), eq(ledger.userId, userId), eq(ledger.kind, 'join_grant')),
    );
  return rows.length;
}
