import { asc, eq, or } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet, CreateBetRequest } from '../../../src/domain/bets';
import type { Group } from '../../../src/domain/groups';
import { runBetRepeats } from '../../../src/server/bets/bet-repeats';
import { betRepeats } from '../../../src/server/db/repeat-schema';
import { bets } from '../../../src/server/db/schema';
import { createGroupWithRoles, recordEvents } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { betRequest, cancel, DAY, HOUR, NO_EXPIRY_TIMER } from './bet.factories';

// Bets that come back (docs/rules.md "Bets that come back"): POST /api/bets with `repeat`; when
// the latest bet of the series closes, the job opens the next one (same title, description,
// type, options and base; the close shifted by the period), announced like a new bet, until
// `until`. The race of two instances is in tests/server/db/stake-repeat-races.ts.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, PICKS_REVEAL_INTERVAL_MS: '0' } });

const WEEK = 7 * DAY;

type Answer = Bet & Partial<{ code: string; message: string; fieldErrors: Record<string, string> }>;

function postBet(user: AuthResponse, body: CreateBetRequest | Record<string, unknown>) {
  return server.request<Answer>('POST', '/api/bets', { token: user.accessToken, body });
}

const repeats = (at = server.clock.now()) =>
  runBetRepeats({ db: server.database.db, events: server.app.events }, at);

/** The bets of a series, first first. */
async function seriesOf(first: Pick<Bet, 'id'>) {
  return server.database.db
    .select()
    .from(bets)
    .where(or(eq(bets.id, first.id), eq(bets.repeatOf, first.id)))
    .orderBy(asc(bets.id));
}

function weeklyRequest(group: Group, until?: number): CreateBetRequest {
  return betRequest(server, group, {
    title: 'Who wins the Thursday quiz?',
    description: 'Pub quiz, as every week',
    betType: 'multiple_choice',
    betTypeConfig: { options: ['Ana', 'Ben', 'Cy'] },
    baseWagerAmount: 2,
    expiresAt: new Date(server.clock.now().getTime() + HOUR).toISOString(),
    repeat: {
      every: 'week',
      ...(until === undefined
        ? {}
        : { until: new Date(server.clock.now().getTime() + until).toISOString() }),
    },
  });
}

describe('a repeating bet', () => {
  it('opens its next bet when the last closes, the same but a week later, and tells the group', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const created = await postBet(member, weeklyRequest(group, 2 * WEEK + 2 * HOUR));
    expect(created.status, created.text).toBe(201);
    const first = created.body;

    // Still open: nothing is due.
    expect(await repeats()).toEqual([]);
    server.clock.advance(HOUR);
    const recorder = recordEvents(server);
    const [second] = await repeats();
    recorder.stop();
    expect(second).toMatchObject({
      groupId: group.id,
      title: 'Who wins the Thursday quiz?',
      description: 'Pub quiz, as every week',
      betType: 'multiple_choice',
      betTypeConfig: { options: ['Ana', 'Ben', 'Cy'] },
      baseWagerAmount: 2,
      state: 'active',
      createdBy: member.user.id,
      repeatOf: first.id,
      repeatSlot: 1,
    });
    expect(second!.expiresAt.getTime()).toBe(Date.parse(first.expiresAt) + WEEK);
    expect(recorder.events).toEqual([
      expect.objectContaining({
        event: 'betCreated',
        payload: expect.objectContaining({ betId: second!.id, groupId: group.id }) as object,
        audience: { groupId: group.id },
      }),
    ]);
    // The group reads it like any bet; the creator's inbox is left out, the others hear it.
    const read = await server.request<Bet>('GET', `/api/bets/${second!.id}`, {
      token: creator.accessToken,
    });
    expect(read.body).toMatchObject({
      title: first.title,
      expiresAt: second!.expiresAt.toISOString(),
    });

    // A pass before the next close opens nothing; the next close opens the third.
    expect(await repeats()).toEqual([]);
    server.clock.advance(WEEK);
    expect((await repeats()).map((bet) => bet.repeatSlot)).toEqual([2]);
    // The fourth would close after `until`: the series ends.
    server.clock.advance(WEEK);
    expect(await repeats()).toEqual([]);
    server.clock.advance(WEEK);
    expect(await repeats()).toEqual([]);
    expect((await seriesOf(first)).map((bet) => bet.repeatSlot)).toEqual([null, 1, 2]);
    const [series] = await server.database.db
      .select()
      .from(betRepeats)
      .where(eq(betRepeats.betId, first.id));
    expect(series).toMatchObject({ lastSlot: 2, nextDueAt: null });
  });

  it('skips the slots missed while no instance ran, never opening one already closed', async () => {
    const { group, member } = await createGroupWithRoles(server);
    const first = (await postBet(member, { ...weeklyRequest(group), repeat: { every: 'day' } }))
      .body;
    server.clock.advance(3 * DAY + 2 * HOUR);
    const [next] = await repeats();
    expect(next!.repeatSlot).toBe(4);
    expect(next!.expiresAt.getTime()).toBe(Date.parse(first.expiresAt) + 4 * DAY);
    expect(next!.expiresAt.getTime()).toBeGreaterThan(server.clock.now().getTime());
  });

  it('ends when its latest bet is cancelled', async () => {
    const { group, member } = await createGroupWithRoles(server);
    const first = (await postBet(member, weeklyRequest(group))).body;
    await cancel(server, member, first);
    server.clock.advance(2 * HOUR);
    expect(await repeats()).toEqual([]);
    expect(await seriesOf(first)).toHaveLength(1);
  });

  it('ends when the group no longer offers its base', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const first = (await postBet(member, weeklyRequest(group))).body;
    const changed = await server.request('PATCH', `/api/groups/${group.id}`, {
      token: creator.accessToken,
      body: { stakeTiers: [5, 10, 15] },
    });
    expect(changed.status).toBe(200);
    server.clock.advance(2 * HOUR);
    expect(await repeats()).toEqual([]);
    expect(await seriesOf(first)).toHaveLength(1);
  });
});

describe('POST /api/bets with repeat', () => {
  it('refuses an end before the bet closes, an unknown period or time zone, and creates nothing', async () => {
    const { group, member } = await createGroupWithRoles(server);
    const request = weeklyRequest(group);
    const past = await postBet(member, {
      ...request,
      repeat: { every: 'week', until: new Date(server.clock.now().getTime() - DAY).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({
      code: 'validation_failed',
      message: 'Repeat end must be after the bet closes',
      fieldErrors: { 'repeat.until': 'Repeat end must be after the bet closes' },
    });
    const atClose = await postBet(member, {
      ...request,
      repeat: { every: 'week', until: request.expiresAt },
    });
    expect(atClose.status).toBe(400);
    const yearly = await postBet(member, { ...request, repeat: { every: 'year' } });
    expect(yearly.status).toBe(400);
    expect(yearly.body.fieldErrors).toEqual({
      'repeat.every': 'Repeat must be every day, week or month',
    });
    const nowhere = await postBet(member, {
      ...request,
      repeat: { every: 'day', timeZone: 'Mars/Olympus_Mons' },
    });
    expect(nowhere.status).toBe(400);
    const garbled = await postBet(member, { ...request, repeat: { every: 'day', until: 'soon' } });
    expect(garbled.status).toBe(400);
    const mine = await server.request<Bet[]>('GET', `/api/bets/group/${group.id}`, {
      token: member.accessToken,
    });
    expect(mine.body).toEqual([]);
  });
});
