import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closesSoonLeadMs } from '../../../src/domain/notifications';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import {
  cancel,
  createBet,
  DAY,
  expiresIn,
  HOUR,
  placeWager,
  resolve,
} from '../bets/bet.factories';
import {
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  recordEvents,
} from '../groups/group.factories';
import { resolveReminders } from '../../../src/server/db/schema';
import { startTestServer, useTestServer, type TestServer } from '../harness';
import { inboxOf, mute, NO_TIMERS, sendReminders } from './notification.factories';

// The reminders job: "closes soon" once per bet per member who has not picked,
// 2 hours before it closes (a bet made with less time left, in the last half of its time); the
// creator reminded to resolve at close, then once a day. Exactly
// once however many instances run it at once, and across a restart.

const server = useTestServer(NO_TIMERS);
const MINUTE = 60 * 1000;

let second: TestServer | undefined;
afterEach(async () => {
  await second?.close();
  second = undefined;
});

/** Runs the job at `when`; answers who got an entry of `kind` about `bet` (other tests' bets share the database). */
async function remind(bet: Bet, when: Date, kind = 'closesSoon', target: TestServer = server) {
  const recorder = recordEvents(target, { withInbox: true });
  await sendReminders(target, when);
  recorder.stop();
  return recorder.events
    .filter(
      (e) =>
        e.event === 'notificationSaved' && e.payload.betId === bet.id && e.payload.kind === kind,
    )
    .map((e) => ('userId' in e.audience ? e.audience.userId : 0))
    .sort((a, b) => a - b);
}

const ids = (...users: AuthResponse[]) => users.map((user) => user.user.id).sort((a, b) => a - b);

const at = (bet: Bet, offsetMs: number) => new Date(Date.parse(bet.expiresAt) + offsetMs);

async function kindsOf(user: AuthResponse, kind: string, betId?: number) {
  const { notifications } = await inboxOf(server, user);
  return notifications.filter((n) => n.kind === kind && (betId === undefined || n.betId === betId));
}

/** A group with a bet closing in 3 hours on which `member` wagered; a member who left and one who joined late. */
async function closingBet() {
  const { group, creator, admin, member } = await createGroupWithRoles(server);
  const quiet = await createPlayer(server, 'Quiet');
  await joinGroup(server, quiet, group);
  const leaver = await createPlayer(server, 'Leaver');
  await joinGroup(server, leaver, group);
  const bet = await createBet(server, creator, group, {
    title: 'Pizza or tacos?',
    expiresAt: expiresIn(server, 3 * HOUR),
  });
  await placeWager(server, member, bet, 'yes', 1);
  const left = await server.request('POST', `/api/groups/${group.id}/leave`, {
    token: leaver.accessToken,
  });
  expect(left.status).toBe(200);
  return { group, creator, admin, member, quiet, leaver, bet };
}

describe('closes soon', () => {
  it('reminds each member who has not picked once, 2 hours before the close; never one who wagered or left', async () => {
    const { creator, admin, member, quiet, leaver, bet } = await closingBet();
    expect(await remind(bet, at(bet, -2 * HOUR - MINUTE))).toEqual([]);

    const recorder = recordEvents(server, { withInbox: true });
    expect(await remind(bet, at(bet, -2 * HOUR + MINUTE))).toEqual(ids(admin, creator, quiet));
    recorder.stop();
    const [entry] = await kindsOf(quiet, 'closesSoon', bet.id);
    expect(entry).toMatchObject({
      kind: 'closesSoon',
      betId: bet.id,
      count: 1,
      readAt: null,
      payload: { betTitle: 'Pizza or tacos?', expiresAt: bet.expiresAt },
    });
    expect(await kindsOf(admin, 'closesSoon', bet.id)).toHaveLength(1);
    expect(await kindsOf(creator, 'closesSoon', bet.id)).toHaveLength(1);
    expect(await kindsOf(member, 'closesSoon', bet.id)).toEqual([]);
    expect(await kindsOf(leaver, 'closesSoon', bet.id)).toEqual([]);
    // Push is asked for each entry.
    expect(
      recorder.events.filter(
        (e) => e.event === 'notificationPushDue' && e.payload.betId === bet.id,
      ),
    ).toHaveLength(3);

    // Later runs, even after reading it, send nothing more.
    await server.request('POST', '/api/notifications/read', {
      token: quiet.accessToken,
      body: { ids: [entry!.id] },
    });
    expect(await remind(bet, at(bet, -HOUR))).toEqual([]);
    expect(await remind(bet, at(bet, -MINUTE))).toEqual([]);
    expect(await kindsOf(quiet, 'closesSoon', bet.id)).toHaveLength(1);
  });

  it('reminds a bet made with less than 2 hours to go in the last half of its time; none once it has closed', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    // A 90-minute bet: due 45 minutes before it closes, not before.
    const short = await createBet(server, creator, group, {
      expiresAt: expiresIn(server, 90 * MINUTE),
    });
    expect(await remind(short, at(short, -46 * MINUTE))).toEqual([]);
    expect(await remind(short, at(short, -44 * MINUTE))).toEqual(ids(admin, creator, member));
    expect(await remind(short, at(short, -MINUTE))).toEqual([]);
    const long = await createBet(server, creator, group, {
      expiresAt: expiresIn(server, 3 * HOUR),
    });
    expect(await remind(long, at(long, MINUTE))).toEqual([]);
  });

  it('reminds every bet exactly once before it closes, whatever its length, never before its due time', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    await fc.assert(
      fc.asyncProperty(
        // From 4 minutes to 3 days open; the job's runs fall at random moments of the bet's life.
        fc.integer({ min: 4 * MINUTE, max: 3 * DAY }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        async (openMs, moments) => {
          const created = server.clock.now();
          const bet = await createBet(server, creator, group, {
            expiresAt: expiresIn(server, openMs),
          });
          const closes = Date.parse(bet.expiresAt);
          const dueAt = closes - closesSoonLeadMs(created, new Date(closes), 2 * HOUR);
          // The job runs at least once a minute: a run falls in every minute of the bet's life.
          const runs = [...moments.map((m) => created.getTime() + m * openMs), closes - MINUTE / 2]
            .map((t) => Math.min(t, closes - 1000))
            .sort((a, b) => a - b);
          const reminded: number[] = [];
          for (const when of runs) {
            const got = await remind(bet, new Date(when));
            if (when < dueAt) expect(got).toEqual([]);
            reminded.push(...got);
          }
          expect(reminded.sort((a, b) => a - b)).toEqual(ids(admin, creator, member));
          server.clock.advance(openMs + MINUTE);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('is not sent for a bet closed early, its resolution undone after everyone saw the picks', async () => {
    const { creator, bet } = await closingBet();
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    const undone = await server.request('POST', `/api/bets/${bet.id}/undo-resolution`, {
      token: creator.accessToken,
    });
    expect(undone.status).toBe(200);
    expect(await remind(bet, at(bet, -2 * HOUR + MINUTE))).toEqual([]);
  });

  it('skips a member who muted the group or the bet', async () => {
    const { group, creator, admin, member, quiet, bet } = await closingBet();
    expect((await mute(server, admin, { groupId: group.id })).status).toBe(200);
    expect((await mute(server, quiet, { betId: bet.id })).status).toBe(200);
    expect((await mute(server, member, { betId: bet.id })).status).toBe(200);
    expect((await mute(server, member, { betId: bet.id }, false)).status).toBe(200);
    expect(await remind(bet, at(bet, -HOUR))).toEqual(ids(creator));
    expect(await kindsOf(admin, 'closesSoon', bet.id)).toEqual([]);
    expect(await kindsOf(quiet, 'closesSoon', bet.id)).toEqual([]);
  });

  it('is sent exactly once when two instances run the job at the same moment', async () => {
    const { admin, quiet, creator, bet } = await closingBet();
    second = await startTestServer({ ...NO_TIMERS, database: server.database });
    const when = at(bet, -HOUR);
    const [one, two] = await Promise.all([
      remind(bet, when, 'closesSoon', server),
      remind(bet, when, 'closesSoon', second),
    ]);
    // Between them, each person once: whichever instance wrote the entry announced it.
    expect([...one, ...two].sort((a, b) => a - b)).toEqual(ids(admin, creator, quiet));
    for (const user of [admin, quiet, creator])
      expect(await kindsOf(user, 'closesSoon', bet.id)).toHaveLength(1);
  });

  it('survives a restart: nothing sent twice, and what fell due while down is sent after', async () => {
    const first = await closingBet();
    expect(await remind(first.bet, at(first.bet, -HOUR))).toHaveLength(3);
    const later = await createBet(server, first.creator, first.group, {
      expiresAt: new Date(Date.parse(first.bet.expiresAt) + HOUR).toISOString(),
    });
    await server.restart();
    // Due while the server was down: the next run after the restart sends it, and the first bet's not again.
    const when = at(later, -HOUR);
    expect(await remind(later, when)).toEqual(
      ids(first.admin, first.creator, first.member, first.quiet),
    );
    expect(await remind(first.bet, when)).toEqual([]);
    expect(await kindsOf(first.quiet, 'closesSoon', first.bet.id)).toHaveLength(1);
    expect(await kindsOf(first.quiet, 'closesSoon', later.id)).toHaveLength(1);
    expect(await kindsOf(first.member, 'closesSoon', later.id)).toHaveLength(1);
  });
});

describe('resolve reminder', () => {
  it('reminds the creator at close, then once a day, until the bet is resolved', async () => {
    const { group, creator, admin } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, {
      title: 'Rain at the match?',
      expiresAt: expiresIn(server, HOUR),
    });
    await placeWager(server, admin, bet, 'yes', 1);
    expect(await remind(bet, at(bet, -MINUTE), 'resolveReminder')).toEqual([]);
    expect(await remind(bet, at(bet, MINUTE), 'resolveReminder')).toEqual(ids(creator));
    const [first] = await kindsOf(creator, 'resolveReminder', bet.id);
    expect(first).toMatchObject({
      count: 1,
      readAt: null,
      payload: { betTitle: 'Rain at the match?' },
    });
    expect(await kindsOf(admin, 'resolveReminder')).toEqual([]);

    await server.request('POST', '/api/notifications/read', {
      token: creator.accessToken,
      body: { ids: [first!.id] },
    });
    expect(await remind(bet, at(bet, 12 * HOUR), 'resolveReminder')).toEqual([]);
    const recorder = recordEvents(server, { withInbox: true });
    expect(await remind(bet, at(bet, DAY + 2 * MINUTE), 'resolveReminder')).toEqual(ids(creator));
    recorder.stop();
    // The same entry, unread again, counted twice; pushed only the first time.
    const [again] = await kindsOf(creator, 'resolveReminder', bet.id);
    expect(again).toMatchObject({ id: first!.id, count: 2, readAt: null });
    expect(
      recorder.events.filter(
        (e) => e.event === 'notificationPushDue' && e.payload.betId === bet.id,
      ),
    ).toEqual([]);

    const settled = recordEvents(server, { withInbox: true });
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    await inboxOf(server, creator);
    settled.stop();
    // Resolved: the reminder calls for nothing any more, and every device of the creator hears it.
    const [done] = await kindsOf(creator, 'resolveReminder', bet.id);
    expect(done).toMatchObject({ id: first!.id, readAt: expect.any(String) });
    expect(
      settled.events.filter(
        (e) =>
          e.event === 'notificationSaved' &&
          e.payload.kind === 'resolveReminder' &&
          e.payload.readAt !== null,
      ),
    ).toHaveLength(1);
    expect(await remind(bet, at(bet, 3 * DAY), 'resolveReminder')).toEqual([]);
  });

  it('is read once its bet is cancelled', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, HOUR) });
    expect(await remind(bet, at(bet, MINUTE), 'resolveReminder')).toEqual(ids(creator));
    expect((await cancel(server, creator, bet)).status).toBe(200);
    await inboxOf(server, creator);
    const [done] = await kindsOf(creator, 'resolveReminder', bet.id);
    expect(done?.readAt).not.toBeNull();
  });
});

describe('resolve reminder schedule', () => {
  /** The bet's row of the schedule: when the job next looks at it (null: it has none). */
  async function dueAtOf(bet: Bet): Promise<string | null> {
    const [row] = await server.database.db
      .select({ dueAt: resolveReminders.dueAt })
      .from(resolveReminders)
      .where(eq(resolveReminders.betId, bet.id));
    return row ? row.dueAt.toISOString() : null;
  }

  it('reminds a bet closed early (resolved before its close, then undone) at its close, not before', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, 3 * HOUR) });
    expect(await dueAtOf(bet)).toBe(bet.expiresAt);
    expect((await resolve(server, creator, bet, 'yes')).status).toBe(200);
    expect(await dueAtOf(bet)).toBeNull();
    const undone = await server.request('POST', `/api/bets/${bet.id}/undo-resolution`, {
      token: creator.accessToken,
    });
    expect(undone.status).toBe(200);
    expect(await dueAtOf(bet)).toBe(bet.expiresAt);
    expect(await remind(bet, at(bet, -MINUTE), 'resolveReminder')).toEqual([]);
    expect(await remind(bet, at(bet, MINUTE), 'resolveReminder')).toEqual(ids(creator));
    expect(await dueAtOf(bet)).toBe(at(bet, MINUTE + DAY).toISOString());
  });

  it('reminds a resolved bet whose resolution was undone again, a day after the last reminder', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, HOUR) });
    expect(await remind(bet, at(bet, MINUTE), 'resolveReminder')).toEqual(ids(creator));
    server.clock.advance(2 * HOUR);
    expect((await resolve(server, creator, bet, 'no')).status).toBe(200);
    const undone = await server.request('POST', `/api/bets/${bet.id}/undo-resolution`, {
      token: creator.accessToken,
    });
    expect(undone.status).toBe(200);
    // Due at its close again, but reminded within the day: the pass moves it on, silently.
    expect(await dueAtOf(bet)).toBe(bet.expiresAt);
    expect(await remind(bet, at(bet, 3 * HOUR), 'resolveReminder')).toEqual([]);
    expect(await dueAtOf(bet)).toBe(at(bet, MINUTE + DAY).toISOString());
    expect(await remind(bet, at(bet, DAY + 2 * MINUTE), 'resolveReminder')).toEqual(ids(creator));
    const [again] = await kindsOf(creator, 'resolveReminder', bet.id);
    expect(again).toMatchObject({ count: 2, readAt: null });
  });

  it('reads only the bets whose reminder is due, not every bet waiting for its result', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const waiting: Bet[] = [];
    for (let i = 0; i < 5; i += 1)
      waiting.push(await createBet(server, creator, group, { expiresAt: expiresIn(server, HOUR) }));
    const cancelled = await createBet(server, creator, group, {
      expiresAt: expiresIn(server, HOUR),
    });
    expect((await cancel(server, creator, cancelled)).status).toBe(200);
    expect(await dueAtOf(cancelled)).toBeNull();
    const last = waiting.at(-1)!;
    const when = at(last, MINUTE);
    // The first pass reads and reminds every due bet (other tests' too); a second at the same
    // moment reads none, though the five still wait for their result.
    const first = await sendReminders(server, when);
    expect(first.resolveRead).toBeGreaterThanOrEqual(5);
    for (const bet of waiting)
      expect(await kindsOf(creator, 'resolveReminder', bet.id)).toHaveLength(1);
    const second = await sendReminders(server, when);
    expect(second).toMatchObject({ resolveReminders: 0, resolveRead: 0 });
    // A day on, each is due (and read) once more.
    const dayOn = new Date(when.getTime() + DAY);
    const third = await sendReminders(server, dayOn);
    expect(third.resolveRead).toBeGreaterThanOrEqual(5);
    expect(await sendReminders(server, dayOn)).toMatchObject({ resolveRead: 0 });
    for (const bet of waiting)
      expect(await kindsOf(creator, 'resolveReminder', bet.id)).toMatchObject([{ count: 2 }]);
  });
});

describe('pruning', () => {
  it('drops entries whose last activity is more than 30 days old', async () => {
    const { group, creator, admin } = await createGroupWithRoles(server);
    await createBet(server, creator, group);
    expect((await kindsOf(admin, 'betCreated')).some((n) => n.groupId === group.id)).toBe(true);
    const outcome = await sendReminders(server, new Date(Date.now() + 31 * DAY));
    expect(outcome.pruned).toBeGreaterThan(0);
    expect((await kindsOf(admin, 'betCreated')).some((n) => n.groupId === group.id)).toBe(false);
  });
});
