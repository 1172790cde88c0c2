import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bet } from '../../../src/domain/bets';
import type { Group, Membership } from '../../../src/domain/groups';
import type { MemberStateResponse } from '../../../src/domain/member-state';
import { createActiveGroupStore, type ActiveGroupStore } from '../../../src/client/data/active-group-store';
import { createApiClient } from '../../../src/client/data/api-client';
import { openHunchDb, type HunchDb } from '../../../src/client/data/db';
import { createSessionStore, type SessionStore } from '../../../src/client/data/session-store';
import { createSyncEngine, type SyncEngine } from '../../../src/client/data/sync-engine';
import { startStandIn, type StandIn } from '../stand-in-server';

// The sync engine against a real local HTTP stand-in for the API and a real (fake-indexeddb)
// Dexie database: what the server says is what the tables hold.

const me = { id: 7, appName: 'hunch', email: 'me@example.com', username: 'me', firstName: 'Me', lastName: 'Myself', displayName: 'Me Myself', isTemporary: false, roles: [] as string[], profilePictureUrl: null };
const them = { id: 8, displayName: 'Them Other', username: 'them', email: 'them@example.com' };

const group = (id: number, name: string, members: number[] = [me.id]): Group => ({
  id,
  name,
  description: null,
  privacy: 'public',
  defaultPoints: 100,
  createdByUserId: members[0]!,
  admins: [members[0]!],
  memberUserIds: members,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});
const membership = (groupId: number, availablePoints = 100): Membership => ({ groupId, userId: me.id, userName: me.displayName, totalPoints: 100, availablePoints });

function stateOf(groups: Group[], points: Record<number, number> = {}): MemberStateResponse {
  return {
    groups: Object.fromEntries(groups.map((g) => [String(g.id), { id: g.id, name: g.name }])),
    currentUserMemberships: Object.fromEntries(groups.map((g) => [String(g.id), membership(g.id, points[g.id] ?? 100)])),
    unwageredBets: Object.fromEntries(serverUnwagered.map((b) => [String(b.id), b])),
    betsToResolve: Object.fromEntries(serverToResolve.map((b) => [String(b.id), b])),
  };
}

// What the stand-in server answers; each test sets it.
let serverGroups: Group[] = [];
let serverPoints: Record<number, number> = {};
let serverUnwagered: Bet[] = [];
let serverToResolve: Bet[] = [];
let leaderboards: Record<number, Array<{ id: number; name: string; points: number }>> = {};
let requests: string[] = [];
let standIn: StandIn;
let baseUrl: string;

beforeAll(async () => {
  standIn = await startStandIn((req, res) => {
    const url = new URL(req.url!, 'http://x');
    requests.push(url.pathname + url.search);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/member/state') return send(200, stateOf(serverGroups, serverPoints));
    if (url.pathname === '/api/groups' && url.searchParams.get('membership') === 'mine') return send(200, serverGroups);
    const board = url.pathname.match(/^\/api\/groups\/(\d+)\/leaderboard$/);
    if (board) return send(200, { users: leaderboards[Number(board[1])] ?? [] });
    if (url.pathname === '/auth/users/ids') {
      const ids = (url.searchParams.get('ids') ?? '').split(',').map(Number);
      return send(200, [{ ...me, email: me.email }, them].filter((u) => ids.includes(u.id)).map(({ id, displayName, username, email }) => ({ id, displayName, username, email })));
    }
    return send(404, { message: 'Not found', code: 'not_found' });
  });
  baseUrl = standIn.baseUrl;
});

afterAll(() => standIn.close());

let db: HunchDb;
let session: SessionStore;
let activeGroup: ActiveGroupStore;
let engine: SyncEngine;
let online: EventTarget;
let dbCount = 0;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  serverGroups = [];
  serverPoints = {};
  serverUnwagered = [];
  serverToResolve = [];
  leaderboards = {};
  requests = [];
  db = openHunchDb(`hunch-sync-test-${dbCount++}`);
  session = createSessionStore({ storages: { persistent: localStorage, temporary: sessionStorage } });
  activeGroup = createActiveGroupStore(localStorage);
  online = new EventTarget();
  const api = createApiClient({ session, baseUrl });
  engine = createSyncEngine({ db, api, session, activeGroup, onlineEvents: online as unknown as Window });
  engine.start();
});

afterEach(async () => {
  engine.stop();
  await engine.whenIdle();
  db.close();
  await db.delete();
});

const signIn = (user = me) => session.signIn({ accessToken: 'access', refreshToken: 'refresh', user }, true);
const until = (assertion: () => Promise<void> | void) => vi.waitFor(assertion, { timeout: 3000, interval: 20 });

describe('sync engine (ARCHITECTURE.md §8)', () => {
  it('writes /member/state into Dexie at login and makes the first group active', async () => {
    serverGroups = [group(3, 'Chess Club'), group(2, 'Book Club')];
    serverPoints = { 2: 80 };
    signIn();

    await until(async () => expect(await db.groups.count()).toBe(2));
    expect((await db.groups.get(3))?.memberUserIds).toEqual([me.id]);
    expect(await db.memberships.where('userId').equals(me.id).sortBy('groupId')).toEqual([membership(2, 80), membership(3)]);
    // "the first of the user's groups": the lowest id
    await until(() => expect(activeGroup.getSnapshot()).toEqual({ id: 2, name: 'Book Club', availablePoints: 80 }));
    expect(JSON.parse(localStorage.getItem('active_group')!)).toEqual({ id: 2, name: 'Book Club', availablePoints: 80 });
  });

  it('removes the groups and memberships the server no longer lists, keeping a public group only viewed', async () => {
    await db.groups.bulkPut([group(5, 'Left Behind'), group(6, 'Still Here'), group(9, 'Seen From Outside', [them.id])]);
    await db.memberships.bulkPut([membership(5), membership(6)]);
    await db.leaderboard.put({ groupId: 5, userId: me.id, name: me.displayName, points: 100 });
    serverGroups = [group(6, 'Still Here (renamed)')];
    signIn();

    await until(async () => expect((await db.groups.get(6))?.name).toBe('Still Here (renamed)'));
    expect(await db.groups.get(5)).toBeUndefined();
    expect(await db.memberships.get([5, me.id])).toBeUndefined();
    expect(await db.leaderboard.where('groupId').equals(5).count()).toBe(0);
    expect(await db.groups.get(9)).toBeDefined();
  });

  it('moves the active group on when the player is no longer in it, and to none when they have no group', async () => {
    activeGroup.set({ id: 5, name: 'Left Behind', availablePoints: 10 });
    serverGroups = [group(6, 'Still Here')];
    signIn();
    await until(() => expect(activeGroup.getSnapshot()?.id).toBe(6));

    serverGroups = [];
    online.dispatchEvent(new Event('online'));
    await until(() => expect(activeGroup.getSnapshot()).toBeNull());
    expect(localStorage.getItem('active_group')).toBeNull();
  });

  it('loads the active group’s leaderboard and its members’ bubbles whenever the active group changes', async () => {
    serverGroups = [group(1, 'Alpha', [me.id, them.id]), group(2, 'Beta')];
    leaderboards = { 1: [{ id: me.id, name: me.displayName, points: 120 }, { id: them.id, name: them.displayName, points: 80 }], 2: [{ id: me.id, name: me.displayName, points: 100 }] };
    signIn();

    await until(async () => expect(await db.leaderboard.where('groupId').equals(1).count()).toBe(2));
    await until(async () => expect((await db.userBubbles.get(them.id))?.displayName).toBe('Them Other'));

    activeGroup.set({ id: 2, name: 'Beta', availablePoints: 100 });
    await until(async () => expect(await db.leaderboard.where('groupId').equals(2).count()).toBe(1));
    expect(requests.filter((r) => r === '/api/groups/2/leaderboard')).toHaveLength(1);
  });

  it('syncs again when the browser comes back online', async () => {
    serverGroups = [group(1, 'Alpha')];
    signIn();
    await until(async () => expect(await db.groups.count()).toBe(1));

    serverGroups = [group(1, 'Alpha'), group(4, 'Delta')];
    online.dispatchEvent(new Event('online'));
    await until(async () => expect(await db.groups.count()).toBe(2));
    expect(requests.filter((r) => r === '/api/member/state')).toHaveLength(2);
  });

  it('clears every table and the stored active group at sign-out', async () => {
    serverGroups = [group(1, 'Alpha', [me.id, them.id])];
    leaderboards = { 1: [{ id: me.id, name: me.displayName, points: 100 }] };
    signIn();
    await until(async () => expect(await db.userBubbles.count()).toBeGreaterThan(0));
    expect(localStorage.getItem('active_group')).not.toBeNull();

    await session.logout();
    await until(async () => {
      for (const table of db.tables) expect(await table.count(), table.name).toBe(0);
    });
    expect(activeGroup.getSnapshot()).toBeUndefined();
    expect(localStorage.getItem('active_group')).toBeNull();
  });

  it('starts from an empty mirror when another user signs in on this device', async () => {
    await db.meta.put({ key: 'ownerUserId', value: 99 });
    await db.groups.put(group(50, 'Someone Else’s', [99]));
    activeGroup.set({ id: 50, name: 'Someone Else’s', availablePoints: 5 });
    serverGroups = [group(1, 'Alpha')];
    signIn();

    await until(async () => expect(await db.groups.toCollection().primaryKeys()).toEqual([1]));
    await until(() => expect(activeGroup.getSnapshot()?.id).toBe(1));
    expect((await db.meta.get('ownerUserId'))?.value).toBe(me.id);
  });

  it('does not undo a local write that lands while a sync is in flight', async () => {
    serverGroups = [];
    signIn();
    // The join lands locally (as the group actions do) before the stale answer is written.
    await engine.applyLocal(() => db.transaction('rw', [db.groups, db.memberships], async () => {
      await db.groups.put(group(11, 'Just Joined'));
      await db.memberships.put(membership(11));
    }));
    serverGroups = [group(11, 'Just Joined')];
    await engine.syncMemberState();
    expect(await db.memberships.get([11, me.id])).toBeDefined();
    expect(activeGroup.getSnapshot()?.id).toBe(11);
  });

  it('writes the unwageredBets / betsToResolve maps into bets with their flags and prunes what the answer drops', async () => {
    const bet = (id: number, overrides: Partial<Bet> = {}): Bet => ({
      id, title: `Bet ${id}`, description: null, betType: 'yes_no', state: 'active', betTypeConfig: {}, baseWagerAmount: 1, groupId: 2,
      createdBy: me.id, expiresAt: '2030-01-01T00:00:00.000Z', correctAnswer: null, resolvedAt: null, resolvedBy: null,
      createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', ...overrides,
    });
    serverGroups = [group(2, 'Book Club')];
    serverUnwagered = [bet(1), bet(2)];
    serverToResolve = [bet(2), bet(3)];
    // Already known: a queue-only bet the server will drop, one a group list loaded, and a resolved one from a list.
    await db.bets.bulkPut([
      { ...bet(4), isUnwagered: true },
      { ...bet(5), isToResolve: true, isListed: true },
      { ...bet(6, { state: 'resolved', correctAnswer: 'yes' }), isListed: true },
    ]);
    signIn();

    await until(async () => expect(await db.bets.get(1)).toMatchObject({ isUnwagered: true, isToResolve: false }));
    expect(await db.bets.get(2)).toMatchObject({ isUnwagered: true, isToResolve: true });
    expect(await db.bets.get(3)).toMatchObject({ isUnwagered: false, isToResolve: true });
    expect(await db.bets.get(4)).toBeUndefined();
    expect(await db.bets.get(5)).toMatchObject({ isUnwagered: false, isToResolve: false, isListed: true });
    expect(await db.bets.get(6)).toMatchObject({ state: 'resolved' });

    // The player wagered on 1 elsewhere: the next sync takes it out of the bet queue.
    serverUnwagered = [bet(2)];
    await engine.syncMemberState();
    expect(await db.bets.get(1)).toBeUndefined();
    expect(await db.bets.get(2)).toMatchObject({ isUnwagered: true });
  });
});
