import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import {
  bets,
  groups,
  idempotencyKeys,
  ledger,
  memberships,
  users,
  wagers,
} from '../../../src/server/db/schema';
import { createBet, NO_EXPIRY_TIMER, placeWager, pointsOf } from '../bets/bet.factories';
import {
  createGroup,
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  uniqueGroupName,
} from '../groups/group.factories';
import { useTestServer, type RequestOptions, type TestResponse } from '../harness';

// The Idempotency-Key header on the REST writes (docs/architecture.md §4): a program resends a
// write until it has an answer, so ten sends with one key must apply it once and answer the
// same each time, sequentially and concurrently (a crash between the commit and the answer:
// tests/server/sync/push-crash.test.ts).

const server = useTestServer(NO_EXPIRY_TIMER);

let keySequence = 0;
function newKey(): string {
  keySequence += 1;
  return `key-${process.pid}-${keySequence}-${Math.random().toString(36).slice(2, 10)}`;
}

type Send = () => Promise<TestResponse>;

function sender(
  method: string,
  path: string,
  user: AuthResponse,
  key: string,
  options: RequestOptions = {},
): Send {
  return () =>
    server.request(method, path, {
      ...options,
      token: user.accessToken,
      headers: { 'idempotency-key': key, ...options.headers },
    });
}

async function sendSequentially(send: Send, times = 10): Promise<TestResponse[]> {
  const responses: TestResponse[] = [];
  for (let i = 0; i < times; i++) responses.push(await send());
  return responses;
}

function sendConcurrently(send: Send, times = 10): Promise<TestResponse[]> {
  return Promise.all(Array.from({ length: times }, () => send()));
}

/** Every answer is the first one, byte for byte; every answer but the one that ran is marked replayed. */
function expectOneAnswer(responses: TestResponse[], status: number): TestResponse {
  const first = responses.find((response) => response.headers.get('idempotent-replayed') === null);
  expect(first, 'exactly one answer ran the request').toBeDefined();
  expect(first!.status).toBe(status);
  for (const response of responses) {
    expect(response.status).toBe(status);
    expect(response.text).toBe(first!.text);
    expect(response.headers.get('content-type')).toBe(first!.headers.get('content-type'));
  }
  const replays = responses.filter(
    (response) => response.headers.get('idempotent-replayed') === 'true',
  );
  expect(replays).toHaveLength(responses.length - 1);
  return first!;
}

async function ledgerRows(
  userId: number,
  groupId: number,
  kind: (typeof ledger.kind.enumValues)[number],
): Promise<number> {
  const [row] = await server.database.db
    .select({ n: count() })
    .from(ledger)
    .where(and(eq(ledger.userId, userId), eq(ledger.groupId, groupId), eq(ledger.kind, kind)));
  return row!.n;
}

describe.each(['sequentially', 'concurrently'] as const)('ten sends with one key, %s', (mode) => {
  const sendTen = (send: Send) =>
    mode === 'sequentially' ? sendSequentially(send) : sendConcurrently(send);

  it('create a group: one group', async () => {
    const owner = await createPlayer(server);
    const name = uniqueGroupName();
    const responses = await sendTen(
      sender('POST', '/api/groups', owner, newKey(), {
        body: { name, privacy: 'public', defaultPoints: 100 },
      }),
    );
    expectOneAnswer(responses, 201);
    const [row] = await server.database.db
      .select({ n: count() })
      .from(groups)
      .where(eq(groups.name, name));
    expect(row!.n).toBe(1);
  });

  it('join a group: one membership, one grant', async () => {
    const owner = await createPlayer(server);
    const joiner = await createPlayer(server);
    const group = await createGroup(server, owner, { privacy: 'private' });
    const responses = await sendTen(
      sender('POST', '/api/groups/join-private', joiner, newKey(), {
        body: { groupId: group.id, inviteCode: group.inviteCode },
      }),
    );
    expectOneAnswer(responses, 200);
    expect(await ledgerRows(joiner.user.id, group.id, 'join_grant')).toBe(1);
    expect(await pointsOf(server, joiner, group)).toEqual({ total: 100, available: 100 });
  });

  it('create a bet: one bet', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const title = `Will it snow? ${newKey()}`;
    const expiresAt = new Date(server.clock.now().getTime() + 86_400_000).toISOString();
    const responses = await sendTen(
      sender('POST', '/api/bets', creator, newKey(), {
        body: {
          title,
          betType: 'yes_no',
          betTypeConfig: {},
          baseWagerAmount: 1,
          expiresAt,
          groupId: group.id,
        },
      }),
    );
    expectOneAnswer(responses, 201);
    const [row] = await server.database.db
      .select({ n: count() })
      .from(bets)
      .where(eq(bets.title, title));
    expect(row!.n).toBe(1);
  });

  it('place a wager: one wager, one debit', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
    const responses = await sendTen(
      sender('POST', '/api/bets/wagers', member, newKey(), {
        body: { betId: bet.id, prediction: 'yes', points: 4 },
      }),
    );
    expectOneAnswer(responses, 201);
    const [row] = await server.database.db
      .select({ n: count() })
      .from(wagers)
      .where(eq(wagers.betId, bet.id));
    expect(row!.n).toBe(1);
    expect(await ledgerRows(member.user.id, group.id, 'wager_placed')).toBe(1);
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 96 });
  });

  it('update a wager: one change', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { baseWagerAmount: 2 });
    const wager = await placeWager(server, member, bet, 'yes', 2);
    const responses = await sendTen(
      sender('PUT', `/api/bets/wagers/${wager.id}`, member, newKey(), {
        body: { prediction: 'no', points: 6 },
      }),
    );
    expectOneAnswer(responses, 200);
    expect(await ledgerRows(member.user.id, group.id, 'wager_changed')).toBe(1);
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 94 });
  });

  it('resolve a bet: paid once, every answer 200', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    await placeWager(server, creator, bet, 'yes', 1);
    await placeWager(server, member, bet, 'no', 3);
    const responses = await sendTen(
      sender('PUT', `/api/bets/${bet.id}/resolve`, creator, newKey(), {
        body: { correctAnswer: 'yes' },
      }),
    );
    expect(expectOneAnswer(responses, 200).body.state).toBe('resolved');
    expect(await ledgerRows(creator.user.id, group.id, 'payout')).toBe(1);
    expect(await pointsOf(server, creator, group)).toEqual({ total: 103, available: 103 });
  });

  it('cancel a bet: refunded once, every answer 200', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    await placeWager(server, member, bet, 'no', 3);
    const responses = await sendTen(
      sender('POST', `/api/bets/${bet.id}/cancel`, creator, newKey()),
    );
    expect(expectOneAnswer(responses, 200).body.state).toBe('cancelled');
    expect(await ledgerRows(member.user.id, group.id, 'refund')).toBe(1);
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 100 });
  });

  it('leave a group: left once, every answer 200', async () => {
    const { group, member } = await createGroupWithRoles(server);
    const responses = await sendTen(
      sender('POST', `/api/groups/${group.id}/leave`, member, newKey()),
    );
    expect(expectOneAnswer(responses, 200).body).toEqual({ message: 'You left the group.' });
    const [row] = await server.database.db
      .select({ leftAt: memberships.leftAt })
      .from(memberships)
      .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, member.user.id)));
    expect(row!.leftAt).not.toBeNull();
  });
});

describe('keys belong to a user and a request', () => {
  it("keeps another user's same key separate", async () => {
    const { group, creator, member, admin } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const key = newKey();
    const mine = await sender('POST', '/api/bets/wagers', member, key, {
      body: { betId: bet.id, prediction: 'yes', points: 1 },
    })();
    const theirs = await sender('POST', '/api/bets/wagers', admin, key, {
      body: { betId: bet.id, prediction: 'no', points: 2 },
    })();
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.userId).toBe(admin.user.id);
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 99 });
    expect(await pointsOf(server, admin, group)).toEqual({ total: 100, available: 98 });
  });

  it('refuses the same key with another body (422 idempotency_key_reused) and applies nothing', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const key = newKey();
    expect(
      (
        await sender('POST', '/api/bets/wagers', member, key, {
          body: { betId: bet.id, prediction: 'yes', points: 1 },
        })()
      ).status,
    ).toBe(201);
    const reused = await sender('POST', '/api/bets/wagers', member, key, {
      body: { betId: bet.id, prediction: 'yes', points: 3 },
    })();
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    const otherPath = await sender('POST', `/api/bets/${bet.id}/cancel`, creator, key)();
    expect(otherPath.status).toBe(200); // the creator's key space, not the member's
    const otherRequest = await sender('PUT', `/api/bets/${bet.id}/resolve`, member, key, {
      body: { correctAnswer: 'yes' },
    })();
    expect(otherRequest.status).toBe(422);
    expect(otherRequest.body.code).toBe('idempotency_key_reused');
    expect(await pointsOf(server, member, group)).toEqual({ total: 100, available: 100 }); // refunded by the cancel, debited once
  });

  it('treats the same JSON with its fields in another order as the same request', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const key = newKey();
    const first = await sender('POST', '/api/bets/wagers', member, key, {
      rawBody: JSON.stringify({ betId: bet.id, prediction: 'yes', points: 1 }),
    })();
    const again = await sender('POST', '/api/bets/wagers', member, key, {
      rawBody: JSON.stringify({ points: 1, prediction: 'yes', betId: bet.id }),
    })();
    expect(again.status).toBe(first.status);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('which answers are kept', () => {
  it('replays a 4xx first answer and does not run the request again', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const outsider = await createPlayer(server);
    const key = newKey();
    const leave = sender('POST', `/api/groups/${group.id}/leave`, outsider, key);
    const refused = await leave();
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    await joinGroup(server, outsider, group);
    // Run again, leaving would now succeed; the replay keeps the first answer and the membership.
    const replayed = await leave();
    expect(replayed.status).toBe(refused.status);
    expect(replayed.text).toBe(refused.text);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await pointsOf(server, outsider, group)).toEqual({ total: 100, available: 100 });
    void creator;
  });

  it('replays insufficient points (422) as it was', async () => {
    const { group, creator, member } = await createGroupWithRoles(server, { defaultPoints: 5 });
    const bet = await createBet(server, creator, group, { baseWagerAmount: 3 });
    const responses = await sendSequentially(
      sender('POST', '/api/bets/wagers', member, newKey(), {
        body: { betId: bet.id, prediction: 'yes', points: 9 },
      }),
      3,
    );
    expect(expectOneAnswer(responses, 422).body.code).toBe('insufficient_points');
  });

  it('does not keep a 401: after a token refresh the same key runs', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const key = newKey();
    const body = { betId: bet.id, prediction: 'yes', points: 1 };
    const expired = await server.request('POST', '/api/bets/wagers', {
      body,
      token: 'not-a-token',
      headers: { 'idempotency-key': key },
    });
    expect(expired.status).toBe(401);
    const fresh = await sender('POST', '/api/bets/wagers', member, key, { body })();
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours: the same key runs again', async () => {
    const owner = await createPlayer(server);
    const key = newKey();
    const send = sender('POST', '/api/groups', owner, key, {
      body: { name: uniqueGroupName(), privacy: 'private', defaultPoints: 100 },
    });
    const first = await send();
    await server.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(and(eq(idempotencyKeys.userId, owner.user.id), eq(idempotencyKeys.key, key)));
    const later = await send();
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
  });
});

describe('the header', () => {
  it.each([
    ['empty', ''],
    ['with a space', 'two words'],
    ['longer than 255 characters', 'k'.repeat(256)],
  ])('refuses a key %s with 400 invalid_idempotency_key', async (_name, key) => {
    const owner = await createPlayer(server);
    const response = await sender('POST', '/api/groups', owner, key, {
      body: { name: uniqueGroupName(), privacy: 'public', defaultPoints: 100 },
    })();
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'invalid_idempotency_key',
      message:
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, for example).',
    });
  });

  it('accepts a 255-character key and a UUID', async () => {
    const owner = await createPlayer(server);
    for (const key of ['k'.repeat(255), crypto.randomUUID()]) {
      const response = await sender('POST', '/api/groups', owner, key, {
        body: { name: uniqueGroupName(), privacy: 'public', defaultPoints: 100 },
      })();
      expect(response.status).toBe(201);
    }
  });

  it('without the header, each send runs: a second wager is 409 wager_exists', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const body = { betId: bet.id, prediction: 'yes', points: 1 };
    expect(
      (await server.request('POST', '/api/bets/wagers', { body, token: member.accessToken }))
        .status,
    ).toBe(201);
    const second = await server.request('POST', '/api/bets/wagers', {
      body,
      token: member.accessToken,
    });
    expect(second.status).toBe(409);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });

  it('is refused (400 idempotency_key_not_supported) by a write the push does not carry, which then applies nothing', async () => {
    const player = await createPlayer(server);
    const response = await sender('PUT', '/auth/users/me', player, newKey(), {
      body: { displayName: 'Renamed once' },
    })();
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('idempotency_key_not_supported');
    const [row] = await server.database.db
      .select({ displayName: users.displayName })
      .from(users)
      .where(eq(users.id, player.user.id));
    expect(row!.displayName).toBe(player.user.displayName);
  });

  it('leaves anonymous calls alone: two guest sign-ups with one key are two guests', async () => {
    const headers = { 'idempotency-key': newKey() };
    const body = { displayName: 'Guest', appName: 'hunch' };
    const first = await server.request('POST', '/auth/register-guest', { body, headers });
    const second = await server.request('POST', '/auth/register-guest', { body, headers });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.user.id).not.toBe(first.body.user.id);
  });
});
