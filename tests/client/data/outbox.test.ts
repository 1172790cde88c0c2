import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActiveGroupStore, type ActiveGroupStore } from '../../../src/client/data/active-group-store';
import { createApiClient } from '../../../src/client/data/api-client';
import { openHunchDb, type HunchDb, type OutboxKind } from '../../../src/client/data/db';
import { createOutbox, type Outbox, type RowChange } from '../../../src/client/data/outbox';
import { createSessionStore, type SessionStore } from '../../../src/client/data/session-store';
import { fetchUnlessOffline, startStandIn, type StandIn } from '../stand-in-server';

// The outbox (ARCHITECTURE.md §8) against a real local HTTP stand-in that honours
// Idempotency-Key like the server (same key: the first answer again) and a real
// (fake-indexeddb) Dexie database.

const me = { id: 7, appName: 'hunch', email: 'me@example.com', username: 'me', firstName: 'Me', lastName: 'Myself', displayName: 'Me Myself', isTemporary: false, roles: [] as string[], profilePictureUrl: null };
const other = { ...me, id: 8, email: 'o@example.com', username: 'other', displayName: 'Other' };

const group = { id: 50, name: 'Friends', description: null, privacy: 'public', defaultPoints: 100, createdByUserId: me.id, admins: [me.id], memberUserIds: [me.id], createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' };
const bet = (id: number, state = 'active') => ({ id, groupId: 50, createdBy: me.id, title: 'Rain?', description: null, betType: 'yes_no', state, expiresAt: '2030-01-01T00:00:00.000Z', correctAnswer: null, resolvedAt: null, resolvedBy: null, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' });
const wager = (id: number, points: number) => ({ id, betId: 3, userId: me.id, prediction: 'yes', points, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' });

let delayMs = 0;
/** The access token the stand-in accepts; anything else is 401 (the token expired meanwhile). */
let validToken: string | null = null;
let refreshes = 0;
let refusal: { status: number; message: string; code: string } | null = null;
let applied: Array<{ method: string; path: string; key: string | undefined }> = [];
const answers = new Map<string, { status: number; body: unknown }>();
let standIn: StandIn;
let baseUrl: string;

function answerFor(method: string, path: string): { status: number; body: unknown } {
  if (refusal) return { status: refusal.status, body: { message: refusal.message, code: refusal.code } };
  if (path === '/api/groups' || path.startsWith('/api/groups/join')) return { status: 201, body: group };
  if (path === '/api/bets/wagers') return { status: 201, body: wager(90, 20) };
  if (path.startsWith('/api/bets/wagers/')) return { status: 200, body: wager(90, 30) };
  if (path === '/api/bets') return { status: 201, body: bet(60) };
  if (path.endsWith('/resolve')) return { status: 200, body: bet(3, 'resolved') };
  if (path.endsWith('/cancel')) return { status: 200, body: bet(3, 'cancelled') };
  return { status: 404, body: { message: 'Not found', code: 'not_found' } };
}

beforeAll(async () => {
  standIn = await startStandIn((req, res) => {
    const key = req.headers['idempotency-key'] as string | undefined;
    req.resume();
    req.on('end', () => {
      if (req.url === '/auth/refresh-token') {
        refreshes += 1;
        validToken = `fresh-${refreshes}`;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ accessToken: validToken, refreshToken: `refresh-${refreshes}`, user: me }));
        return;
      }
      if (validToken !== null && req.headers.authorization !== `Bearer ${validToken}`) {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: 'Unauthorized', code: 'unauthorized' }));
        return;
      }
      const stored = key ? answers.get(key) : undefined;
      const answer = stored ?? answerFor(req.method!, req.url!);
      if (!stored) {
        if (answer.status < 300) applied.push({ method: req.method!, path: req.url!, key });
        if (key) answers.set(key, answer);
      }
      const reply = () => {
        res.writeHead(answer.status, { 'Content-Type': 'application/json', ...(stored ? { 'Idempotent-Replayed': 'true' } : {}) });
        res.end(JSON.stringify(answer.body));
      };
      setTimeout(reply, delayMs);
    });
  });
  baseUrl = standIn.baseUrl;
});

afterAll(() => standIn.close());

let db: HunchDb;
let session: SessionStore;
let activeGroup: ActiveGroupStore;
let outbox: Outbox;
let offline = false;
let notified: string[] = [];
let posted: string[] = [];
let keys = 0;
let dbCount = 0;

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  refusal = null;
  delayMs = 0;
  validToken = null;
  refreshes = 0;
  applied = [];
  answers.clear();
  offline = false;
  notified = [];
  posted = [];
  keys = 0;
  db = openHunchDb(`hunch-outbox-test-${dbCount++}`);
  session = createSessionStore({ storages: { persistent: localStorage, temporary: sessionStorage } });
  activeGroup = createActiveGroupStore(localStorage);
  const api = createApiClient({
    session,
    baseUrl,
    // The browser's fetch offline: a TypeError before any answer.
    fetch: fetchUnlessOffline(() => offline),
  });
  let temp = 0;
  outbox = createOutbox({
    db,
    api,
    session,
    activeGroup,
    notifyError: (message) => notified.push(message),
    postToWorker: (message) => posted.push(message.type),
    newKey: () => `key-${(keys += 1)}`,
    tempId: () => (temp -= 1),
    retryDelayMs: 10,
  });
  session.signIn({ accessToken: 'access', refreshToken: 'refresh', user: me }, true);
  await db.groups.put(group as never);
  await db.memberships.put({ groupId: 50, userId: me.id, userName: me.displayName, totalPoints: 100, availablePoints: 100 });
  await db.bets.put({ ...bet(3), isUnwagered: true } as never);
});

afterEach(async () => {
  outbox.stop();
  db.close();
  await db.delete();
});

const wagerChanges = (points: number): RowChange[] => [
  { table: 'wagers', key: -1, value: wager(-1, points) },
  { table: 'memberships', key: [50, me.id], value: { groupId: 50, userId: me.id, userName: me.displayName, totalPoints: 100, availablePoints: 100 - points } },
  { table: 'bets', key: 3, value: { ...bet(3), isUnwagered: false } },
];
const placeWager = (points = 20) =>
  outbox.runWrite({ kind: 'placeWager', method: 'POST', path: '/api/bets/wagers', body: { betId: 3, prediction: 'yes', points }, changes: wagerChanges(points), meta: { tempId: -1 } });

describe('outbox (ARCHITECTURE.md §8)', () => {
  it('pending → sent: the optimistic rows show at once, the answer replaces them and the entry goes', async () => {
    delayMs = 300; // the answer takes a while: the pending state is visible meanwhile
    const write = placeWager();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect((await db.wagers.get(-1))?.pendingWriteId).toBe('key-1');
    const result = await write;
    expect(result).toEqual({ status: 'sent', response: wager(90, 20) });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.wagers.get(-1)).toBeUndefined();
    expect(await db.wagers.get(90)).toEqual(wager(90, 20));
    const membership = await db.memberships.get([50, me.id]);
    expect(membership).toEqual({ groupId: 50, userId: me.id, userName: me.displayName, totalPoints: 100, availablePoints: 80 });
    expect(applied).toEqual([{ method: 'POST', path: '/api/bets/wagers', key: 'key-1' }]);
  });

  it('a created group replaces its temporary id everywhere and becomes the active group', async () => {
    const result = await outbox.runWrite({
      kind: 'createGroup',
      method: 'POST',
      path: '/api/groups',
      body: { name: 'Friends' },
      meta: { tempId: -5 },
      changes: [
        { table: 'groups', key: -5, value: { ...group, id: -5 } },
        { table: 'memberships', key: [-5, me.id], value: { groupId: -5, userId: me.id, userName: me.displayName, totalPoints: 100, availablePoints: 100, role: 'creator' } },
      ],
    });
    expect(result.status).toBe('sent');
    expect(await db.groups.get(-5)).toBeUndefined();
    expect(await db.memberships.get([-5, me.id])).toBeUndefined();
    expect((await db.memberships.get([50, me.id]))?.role).toBe('creator');
    expect(activeGroup.getSnapshot()?.id).toBe(50);
  });

  it('pending → failed: a refusal rolls the change back, deletes the entry and rejects with the server message', async () => {
    refusal = { status: 400, message: 'This bet has expired', code: 'bet_expired' };
    await expect(placeWager()).rejects.toMatchObject({ status: 400, message: 'This bet has expired' });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.wagers.count()).toBe(0);
    expect((await db.memberships.get([50, me.id]))?.availablePoints).toBe(100);
    expect((await db.bets.get(3))?.isUnwagered).toBe(true);
    expect(notified).toEqual([]); // the waiting screen shows it
  });

  it('offline: the write stays pending; a later flush sends it once with the same key and the mark goes', async () => {
    offline = true;
    expect(await placeWager()).toEqual({ status: 'queued', id: 'key-1' });
    expect((await db.outbox.get('key-1'))?.status).toBe('pending');
    expect((await db.wagers.get(-1))?.pendingWriteId).toBe('key-1');
    await outbox.flush(); // still offline: nothing lost
    expect(await db.outbox.count()).toBe(1);
    offline = false;
    await Promise.all([outbox.flush(), outbox.flush()]);
    await outbox.flush();
    expect(applied).toEqual([{ method: 'POST', path: '/api/bets/wagers', key: 'key-1' }]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.wagers.get(90)).toEqual(wager(90, 20));
    expect((await db.memberships.get([50, me.id]))?.pendingWriteId).toBeUndefined();
  });

  it('a write the worker already delivered is reconciled with its first answer, not applied again', async () => {
    offline = true;
    await placeWager();
    offline = false;
    // The service worker replayed it while the page was closed.
    await fetch(`${baseUrl}/api/bets/wagers`, { method: 'POST', headers: { 'Idempotency-Key': 'key-1' } });
    await outbox.flush();
    expect(applied).toHaveLength(1);
    expect(await db.wagers.get(90)).toEqual(wager(90, 20));
    expect(await db.outbox.count()).toBe(0);
  });

  it('a replay refused after the network returned is rolled back and told to the player', async () => {
    offline = true;
    await placeWager();
    offline = false;
    refusal = { status: 400, message: 'Insufficient points', code: 'insufficient_points' };
    await outbox.flush();
    expect(notified).toEqual(['Insufficient points']);
    expect(await db.wagers.count()).toBe(0);
    expect((await db.memberships.get([50, me.id]))?.availablePoints).toBe(100);
    expect(await db.outbox.count()).toBe(0);
  });

  it('an access token that expired while offline is refreshed on replay, never a reason to drop the write', async () => {
    offline = true;
    await placeWager();
    // Offline for longer than the token lives: the server now wants a fresh one.
    validToken = 'issued-after-the-old-one-expired';
    offline = false;
    await outbox.flush();
    expect(refreshes).toBe(1);
    expect(applied).toEqual([{ method: 'POST', path: '/api/bets/wagers', key: 'key-1' }]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.wagers.get(90)).toEqual(wager(90, 20));
    expect(session.user?.id).toBe(me.id);
  });

  it('a refusal without a message shows the action default', async () => {
    offline = true;
    await placeWager();
    offline = false;
    refusal = { status: 400, message: '', code: 'bad_request' };
    await outbox.flush();
    expect(notified).toEqual(['Failed to submit wager']);
  });

  const rollbacks: Array<{ kind: OutboxKind; path: string; method: 'POST' | 'PUT'; changes: RowChange[]; check: () => Promise<void> }> = [
    {
      kind: 'createGroup',
      path: '/api/groups',
      method: 'POST',
      changes: [
        { table: 'groups', key: -5, value: { ...group, id: -5 } },
        { table: 'memberships', key: [-5, me.id], value: { groupId: -5, userId: me.id, userName: me.displayName, totalPoints: 100, availablePoints: 100 } },
      ],
      check: async () => {
        expect(await db.groups.get(-5)).toBeUndefined();
        expect(await db.memberships.get([-5, me.id])).toBeUndefined();
      },
    },
    {
      kind: 'joinGroup',
      path: '/api/groups/join-public',
      method: 'POST',
      changes: [{ table: 'memberships', key: [51, me.id], value: { groupId: 51, userId: me.id, userName: me.displayName, totalPoints: 100, availablePoints: 100 } }],
      check: async () => expect(await db.memberships.get([51, me.id])).toBeUndefined(),
    },
    {
      kind: 'createBet',
      path: '/api/bets',
      method: 'POST',
      changes: [{ table: 'bets', key: -2, value: { ...bet(-2), isToResolve: true } }],
      check: async () => expect(await db.bets.get(-2)).toBeUndefined(),
    },
    { kind: 'placeWager', path: '/api/bets/wagers', method: 'POST', changes: wagerChanges(20), check: async () => expect(await db.wagers.count()).toBe(0) },
    {
      kind: 'updateWager',
      path: '/api/bets/wagers/90',
      method: 'PUT',
      changes: [{ table: 'wagers', key: 90, value: wager(90, 30) }],
      check: async () => expect(await db.wagers.get(90)).toEqual(wager(90, 10)),
    },
    {
      kind: 'resolveBet',
      path: '/api/bets/3/resolve',
      method: 'PUT',
      changes: [{ table: 'bets', key: 3, value: { ...bet(3, 'resolved'), correctAnswer: 'yes' } }],
      check: async () => expect((await db.bets.get(3))?.state).toBe('active'),
    },
    {
      kind: 'cancelBet',
      path: '/api/bets/3/cancel',
      method: 'POST',
      changes: [{ table: 'bets', key: 3, value: bet(3, 'cancelled') }],
      check: async () => expect(await db.bets.get(3)).toEqual({ ...bet(3), isUnwagered: true }),
    },
  ];

  it.each(rollbacks)('rolls back $kind when the server refuses it', async ({ kind, path, method, changes, check }) => {
    await db.wagers.put(wager(90, 10));
    if (kind === 'placeWager') await db.wagers.delete(90);
    offline = true;
    await outbox.runWrite({ kind, method, path, changes });
    for (const change of changes) expect(((await db.table(change.table).get(change.key)) as { pendingWriteId?: string }).pendingWriteId).toBe('key-1');
    offline = false;
    refusal = { status: 422, message: 'No', code: 'refused' };
    await outbox.flush();
    await check();
    expect(await db.outbox.count()).toBe(0);
  });

  it('writes go out oldest first, and a later write waits for an earlier one', async () => {
    offline = true;
    await outbox.runWrite({ kind: 'createBet', method: 'POST', path: '/api/bets', changes: [{ table: 'bets', key: -2, value: bet(-2) }], meta: { tempId: -2 } });
    await placeWager();
    offline = false;
    await outbox.flush();
    expect(applied.map((a) => a.key)).toEqual(['key-1', 'key-2']);
    expect(await db.bets.get(60)).toMatchObject({ id: 60 });
    expect(await db.bets.get(-2)).toBeUndefined();
  });

  it('another user signing in forgets the previous user’s queue (and the worker’s), never sending it', async () => {
    outbox.start();
    offline = true;
    await placeWager();
    expect(await db.outbox.count()).toBe(1);
    session.signIn({ accessToken: 'access2', refreshToken: 'refresh2', user: other }, true);
    offline = false;
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    await outbox.flush();
    expect(applied).toEqual([]);
    expect(posted).toContain('outbox-clear');
  });

  it('signing out clears the queue and tells the worker to drop its copy', async () => {
    outbox.start();
    offline = true;
    await placeWager();
    await session.logout('user');
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(posted).toContain('outbox-clear');
  });
});
