import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import type { Group } from '../../../src/domain/groups';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import { mirrorPullResponseSchema } from '../../../src/server/mirror/synced-tables';
import type { Notification } from '../../../src/domain/notifications';
import { createGroup, createPlayer, joinGroup } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { connectSocket, syncSockets, type TestSocket } from '../realtime/test-socket';
import {
  createBet,
  DAY,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  resolve,
} from './bet.factories';

// While betting is open nobody can tell who picked what. An observer reads everything a member
// can read (the mirror's pulls, member state, memberships, leaderboards, stats, bets, inbox and
// its socket) before and after another member's wager, and finds that only the bet's anonymous
// totals moved: another member's points set aside in open wagers are theirs alone.

const server = useTestServer({
  env: {
    ...NO_EXPIRY_TIMER.env,
    PICKS_REVEAL_INTERVAL_MS: '0',
    REMINDER_INTERVAL_MS: '0',
    SEASONS_INTERVAL_MS: '0',
  },
});

type Answer = { status: number; body: unknown };

const read = async (user: AuthResponse, path: string): Promise<Answer> => {
  const response = await server.request('GET', path, { token: user.accessToken });
  return { status: response.status, body: response.body as unknown };
};

async function pull(user: AuthResponse, cursor: string): Promise<MirrorPullResponse> {
  const response = await server.request(
    'GET',
    `/api/member/state?cursor=${encodeURIComponent(cursor)}`,
    { token: user.accessToken },
  );
  expect(response.status, response.text).toBe(200);
  return mirrorPullResponseSchema.parse(response.body);
}

interface Table {
  creator: AuthResponse;
  observer: AuthResponse;
  wagerers: [AuthResponse, AuthResponse];
  group: Group;
  bets: Bet[];
  /** The answers each bet takes, by bet index. */
  answers: string[][];
  /** The wagers placed so far, by `${wagerer}:${bet}`. */
  placed: Map<string, number>;
  /** The period leaderboard's query (this week and the one before). */
  period: string;
}

/** A group of 1000 points each: a settled past (for stats), two open bets, the observer backing the first. */
async function table(): Promise<Table> {
  const creator = await createPlayer(server, 'Creator');
  const observer = await createPlayer(server, 'Observer');
  const wagerers: [AuthResponse, AuthResponse] = [
    await createPlayer(server, 'Wagerer'),
    await createPlayer(server, 'Wagerer'),
  ];
  const group = await createGroup(server, creator, { privacy: 'private', defaultPoints: 1000 });
  for (const user of [observer, ...wagerers]) await joinGroup(server, user, group);
  const past = await createBet(server, creator, group, {
    title: 'Past',
    expiresAt: expiresIn(server, HOUR),
  });
  await placeWager(server, observer, past, 'yes', 1);
  await placeWager(server, wagerers[0], past, 'no', 2);
  expect((await resolve(server, creator, past, 'yes')).status).toBe(200);
  const bets = [
    await createBet(server, creator, group, { title: 'Rain?', baseWagerAmount: 3 }),
    await createBet(server, creator, group, {
      title: 'Colour?',
      betType: 'multiple_choice',
      betTypeConfig: { options: ['Red', 'Blue', 'Green'] },
      baseWagerAmount: 2,
      expiresAt: expiresIn(server, 2 * DAY),
    }),
  ];
  await placeWager(server, observer, bets[0]!, 'yes', 3);
  const now = server.clock.now().getTime();
  const from = new Date(now - 7 * DAY).toISOString();
  const previousFrom = new Date(now - 14 * DAY).toISOString();
  return {
    creator,
    observer,
    wagerers,
    group,
    bets,
    answers: [
      ['yes', 'no'],
      ['Red', 'Blue', 'Green'],
    ],
    placed: new Map(),
    period: `from=${from}&previousFrom=${previousFrom}`,
  };
}

/** Everything the observer can read about the group, each REST answer by its path. */
async function observe(t: Table): Promise<{ answers: Record<string, Answer>; cursor: string }> {
  await server.app.notifications.idle();
  const { observer, creator, wagerers, group, bets } = t;
  const g = `/api/groups/${group.id}`;
  const everyone = [creator, observer, ...wagerers];
  const paths = [
    '/api/member/state',
    '/api/groups',
    g,
    `${g}/membership`,
    ...everyone.map((user) => `${g}/membership?user=${user.user.id}`),
    `${g}/leaderboard`,
    `${g}/leaderboard/period?${t.period}`,
    ...everyone.map((user) => `${g}/members/${user.user.id}/stats?vs=${observer.user.id}`),
    ...wagerers.map((user) => `${g}/members/${observer.user.id}/stats?vs=${user.user.id}`),
    `${g}/bets`,
    `/api/bets/group/${group.id}`,
    `${g}/seasons`,
    '/api/bets/user/wagers',
    '/api/notifications',
    '/api/notification-settings',
    ...bets.flatMap((bet) =>
      ['', '/user-context', '/statistics', '/picks', '/history', '/comments'].map(
        (tail) => `/api/bets/${bet.id}${tail}`,
      ),
    ),
  ];
  const answers: Record<string, Answer> = {};
  for (const path of paths) answers[path] = await read(observer, path);
  const full = await pull(observer, MIRROR_START_CURSOR);
  expect(full.hasMore).toBe(false);
  const { cursor, ...rest } = full;
  answers['mirror: first pull'] = { status: 200, body: rest };
  return { answers, cursor };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The odds entries of the bet: the observer's own pick, the pool and what it pays, nothing else. */
function isOddsEntryOf(value: unknown, betId: number): value is Notification {
  if (!isRecord(value) || value.kind !== 'oddsChanged' || value.betId !== betId) return false;
  for (const key of Object.keys(value.payload as object))
    expect(['groupName', 'betTitle', 'answer', 'multiplier', 'pool']).toContain(key);
  return true;
}

/**
 * The answers without what a wager on `betId` may change: the bet's anonymous totals (its
 * answer totals, wager count, version and statistics) and the observer's own odds entries.
 */
function withoutTotals(value: unknown, betId: number, path = ''): unknown {
  if (path.endsWith(`/bets/${betId}/statistics`)) return '(the bet’s totals)';
  if (Array.isArray(value))
    return value
      .filter((item) => !isOddsEntryOf(item, betId))
      .map((item) => withoutTotals(item, betId));
  if (!isRecord(value)) return value;
  const entries = Object.entries(value);
  const isTheBet = value.id === betId && 'betType' in value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    if (isTheBet && ['answerTotals', 'wagerCount', 'version', 'statistics'].includes(key)) continue;
    out[key] = withoutTotals(item, betId, key === 'body' ? path : `${path}/${key}`);
  }
  if (Array.isArray(value.notifications) && typeof value.unreadCount === 'number') {
    const unreadOdds = value.notifications.filter(
      (item) => isOddsEntryOf(item, betId) && item.readAt === null,
    ).length;
    out.unreadCount = value.unreadCount - unreadOdds;
  }
  return out;
}

interface WagerPlan {
  who: number;
  bet: number;
  choice: number;
  multiple: number;
}

const wagerPlan: fc.Arbitrary<WagerPlan> = fc.record({
  who: fc.nat(1),
  bet: fc.nat(1),
  choice: fc.nat(2),
  multiple: fc.integer({ min: 1, max: 3 }),
});

/** Places the wagerer's wager on the bet, or changes the one they placed. */
async function wager(t: Table, plan: WagerPlan) {
  const user = t.wagerers[plan.who]!;
  const bet = t.bets[plan.bet]!;
  const answers = t.answers[plan.bet]!;
  const prediction = answers[plan.choice % answers.length]!;
  const points = bet.baseWagerAmount * plan.multiple;
  const key = `${plan.who}:${plan.bet}`;
  const existing = t.placed.get(key);
  const response =
    existing === undefined
      ? await server.request('POST', '/api/bets/wagers', {
          token: user.accessToken,
          body: { betId: bet.id, prediction, points },
        })
      : await server.request('PUT', `/api/bets/wagers/${existing}`, {
          token: user.accessToken,
          body: { prediction, points },
        });
  expect(response.status, response.text).toBe(existing === undefined ? 201 : 200);
  t.placed.set(key, response.body.id as number);
  return bet;
}

/** Waits for the group's announcement of the bet's totals (gathered over a second), then for everything sent before it. */
async function socketSettled(socket: TestSocket, t: Table, bet: Bet, version: number) {
  await socket.waitFor('wagerPlaced', (p) => p.betId === bet.id && p.version >= version);
  await syncSockets(server, { client: socket, userId: t.observer.user.id });
}

describe('an observer while betting is open', () => {
  it('reads nothing but the bet’s anonymous totals move when another member wagers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(wagerPlan, { minLength: 1, maxLength: 3 }), async (plans) => {
        const t = await table();
        const socket = await connectSocket(server, t.observer.accessToken);
        try {
          for (const plan of plans) {
            const before = await observe(t);
            const heardBefore = socket.received.length;
            const bet = await wager(t, plan);
            const after = await observe(t);

            expect(withoutTotals(after.answers, bet.id)).toEqual(
              withoutTotals(before.answers, bet.id),
            );

            // A pull from just before the wager brings the bet's new totals and nothing else:
            // no membership row (its arrival next to the totals would name the wagerer).
            const delta = await pull(t.observer, before.cursor);
            const { cursor: _cursor, bets, notifications, ...others } = delta;
            expect(others).toEqual({
              reset: false,
              hasMore: false,
              groups: [],
              memberships: [],
              wagers: [],
              statistics: [],
              comments: [],
              betHistory: [],
              seasons: [],
              rounds: [],
              notificationSettings: null,
              removedGroupIds: [],
              removedMemberships: [],
            });
            expect(bets.map((row) => row.id)).toEqual([bet.id]);
            expect(notifications.every((entry) => isOddsEntryOf(entry, bet.id))).toBe(true);

            const mirrored = (
              after.answers['mirror: first pull']!.body as MirrorPullResponse
            ).bets.find((row) => row.id === bet.id)!;
            await socketSettled(socket, t, bet, mirrored.version);
            for (const { event, payload } of socket.received.slice(heardBefore)) {
              if (event === 'notificationSaved') {
                expect(isOddsEntryOf(payload, bet.id)).toBe(true);
                continue;
              }
              expect(event).toBe('wagerPlaced');
              expect(Object.keys(payload as object).sort()).toEqual(
                ['answerTotals', 'betId', 'groupId', 'pool', 'version', 'wagerCount'].sort(),
              );
            }
          }
        } finally {
          socket.close();
        }
      }),
      { numRuns: 4 },
    );
  }, 180_000);

  it('sees another member’s total as their available points; each member sees their own', async () => {
    const t = await table();
    const w = t.wagerers[1];
    await placeWager(server, w, t.bets[0]!, 'no', 9);
    const theirs = await read(t.observer, `/api/groups/${t.group.id}/membership?user=${w.user.id}`);
    expect(theirs.body).toMatchObject({ totalPoints: 1000, availablePoints: 1000 });
    expect(await pointsOf(server, w, t.group)).toEqual({ total: 1000, available: 991 });
    expect(await pointsOf(server, t.observer, t.group)).toEqual({ total: 1002, available: 999 });

    const mirror = async (user: AuthResponse) =>
      new Map(
        (await pull(user, MIRROR_START_CURSOR)).memberships.map((row) => [
          row.userId,
          [row.totalPoints, row.availablePoints],
        ]),
      );
    expect((await mirror(t.observer)).get(w.user.id)).toEqual([1000, 1000]);
    expect((await mirror(t.observer)).get(t.observer.user.id)).toEqual([1002, 999]);
    expect((await mirror(w)).get(w.user.id)).toEqual([1000, 991]);
  });

  it('hears a member coming back with their total points only', async () => {
    const t = await table();
    const w = t.wagerers[1];
    await placeWager(server, w, t.bets[0]!, 'no', 9);
    expect(
      (
        await server.request('POST', `/api/groups/${t.group.id}/leave`, {
          token: w.accessToken,
        })
      ).status,
    ).toBe(200);
    const socket = await connectSocket(server, t.observer.accessToken);
    try {
      const { cursor } = await pull(t.observer, MIRROR_START_CURSOR);
      await joinGroup(server, w, t.group);
      const heard = await socket.waitFor('userJoinedGroup', (p) => p.userId === w.user.id);
      expect(heard).toMatchObject({ totalPoints: 1000, availablePoints: 1000 });
      const delta = await pull(t.observer, cursor);
      expect(delta.memberships.find((row) => row.userId === w.user.id)).toMatchObject({
        totalPoints: 1000,
        availablePoints: 1000,
      });
      expect(await pointsOf(server, w, t.group)).toEqual({ total: 1000, available: 991 });
    } finally {
      socket.close();
    }
  });
});
