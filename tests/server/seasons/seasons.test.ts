import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { notificationLink, notificationText } from '../../../src/domain/notification-texts';
import type { Season, SeasonList } from '../../../src/domain/seasons';
import { seasonPodium } from '../../../src/domain/seasons';
import { runSeasonsJob } from '../../../src/server/jobs/seasons.job';
import {
  createBet,
  DAY,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
  placeWager,
  pointsOf,
  resolve,
} from '../bets/bet.factories';
import {
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  recordEvents,
} from '../groups/group.factories';
import { inboxOf } from '../notifications/notification.factories';
import { useTestServer } from '../harness';
import { assertLedgerMatchesMemberships } from '../ledger-assertions';

// Seasons through the API: starting one (admins, one at a time, a sensible end date), its end
// (now, or by the job exactly once), the archived standings from the ledger, the reset, and the
// mirror's pull carrying them.

const server = useTestServer({ env: { ...NO_EXPIRY_TIMER.env, SEASONS_INTERVAL_MS: '0' } });

async function startSeason(token: string, groupId: number, body: Record<string, unknown> = {}) {
  return server.request<Season & { code?: string; fieldErrors?: Record<string, string> }>(
    'POST',
    `/api/groups/${groupId}/seasons`,
    {
      token,
      body: { name: 'Autumn cup', endsAt: expiresIn(server, 5 * DAY), ...body },
    },
  );
}

describe('starting a season', () => {
  it('refuses a second running season, an end in the past or beyond a year, and a bad name', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const token = admin.accessToken;
    const past = await startSeason(token, group.id, { endsAt: expiresIn(server, -HOUR) });
    expect(past.status).toBe(400);
    expect(past.body.fieldErrors).toEqual({ endsAt: 'The end date must be in the future' });
    const far = await startSeason(token, group.id, { endsAt: expiresIn(server, 400 * DAY) });
    expect(far.body.fieldErrors).toEqual({ endsAt: 'A season can last a year at most' });
    const long = await startSeason(token, group.id, { name: 'x'.repeat(41) });
    expect(long.body.fieldErrors).toEqual({ name: 'A season name is at most 40 characters' });
    const blank = await startSeason(token, group.id, { name: '   ' });
    expect(blank.body.fieldErrors).toEqual({ name: 'Give the season a name' });

    const first = await startSeason(token, group.id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'Autumn cup', state: 'active', resetPoints: false });
    const second = await startSeason(token, group.id, { name: 'Winter cup' });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('season_active');
  });

  it('ends a season whose date passed before starting the next one', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const first = await startSeason(admin.accessToken, group.id, {
      endsAt: expiresIn(server, HOUR),
    });
    server.clock.advance(2 * HOUR);
    const next = await startSeason(admin.accessToken, group.id, { name: 'Winter cup' });
    expect(next.status).toBe(201);
    const list = await server.request<SeasonList>('GET', `/api/groups/${group.id}/seasons`, {
      token: admin.accessToken,
    });
    expect(list.body.seasons.map((s) => [s.id, s.state])).toEqual([
      [next.body.id, 'active'],
      [first.body.id, 'ended'],
    ]);
  });
});

describe('ending a season', () => {
  it('archives standings from the season’s results and resets points, open wagers still held', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server, {
      defaultPoints: 100,
    });
    // Before the season: a result that must not count.
    const early = await createBet(server, creator, group, { expiresAt: expiresIn(server, DAY) });
    await placeWager(server, member, early, 'yes', 3);
    await placeWager(server, admin, early, 'no', 3);
    await resolve(server, creator, early, 'yes');
    server.clock.advance(1000);

    const season = await startSeason(admin.accessToken, group.id, { resetPoints: true });
    const recorded = recordEvents(server);
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, DAY) });
    await placeWager(server, admin, bet, 'yes', 2);
    await placeWager(server, member, bet, 'no', 2);
    await resolve(server, creator, bet, 'yes');
    // Still open at the end: its held points carry over.
    const open = await createBet(server, creator, group, { expiresAt: expiresIn(server, DAY) });
    await placeWager(server, member, open, 'yes', 3);

    const ended = await server.request<Season>(
      'POST',
      `/api/groups/${group.id}/seasons/${season.body.id}/end`,
      { token: admin.accessToken },
    );
    expect(ended.status).toBe(200);
    expect(ended.body.state).toBe('ended');
    const ranks = ended.body.standings.map((s) => [s.userId, s.rank, s.points]);
    expect(ranks).toEqual([
      [admin.user.id, 1, 2],
      [creator.user.id, 2, 0],
      [member.user.id, 3, -2],
    ]);
    expect(ended.body.standings[2]!.totalPoints).toBe(101);
    expect(seasonPodium(ended.body, group.name).places.map((p) => p.rank)).toEqual([1, 2, 3]);
    recorded.stop();
    expect(recorded.events.map((e) => e.event)).toContain('seasonEnded');

    expect(await pointsOf(server, admin, group)).toEqual({ total: 100, available: 100 });
    expect(await pointsOf(server, member, group)).toEqual({ total: 103, available: 100 });
    await assertLedgerMatchesMemberships(server.database);

    const again = await server.request(
      'POST',
      `/api/groups/${group.id}/seasons/${season.body.id}/end`,
      { token: admin.accessToken },
    );
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('season_over');
    const byMember = await server.request(
      'POST',
      `/api/groups/${group.id}/seasons/${season.body.id}/end`,
      { token: member.accessToken },
    );
    expect(byMember.body.code).toBe('not_group_admin');
  });

  it('is ended by the job exactly once when two instances run it together', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const season = await startSeason(admin.accessToken, group.id, {
      endsAt: expiresIn(server, HOUR),
      resetPoints: true,
    });
    const at = new Date(server.clock.now().getTime() + 2 * HOUR);
    const deps = { db: server.database.db, events: server.app.events };
    const [one, two] = await Promise.all([runSeasonsJob(deps, at), runSeasonsJob(deps, at)]);
    const ids = [...one, ...two].map((s) => s.id).filter((id) => id === season.body.id);
    expect(ids).toEqual([season.body.id]);
    expect((await runSeasonsJob(deps, at)).map((s) => s.id)).not.toContain(season.body.id);
    await assertLedgerMatchesMemberships(server.database);
  });
});

describe('leaving before a reset and joining again', () => {
  it('gives the returning member what they would have had by staying, held wagers still held', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server, {
      defaultPoints: 100,
    });
    const season = await startSeason(admin.accessToken, group.id, { resetPoints: true });
    const won = await createBet(server, creator, group, { expiresAt: expiresIn(server, DAY) });
    await placeWager(server, member, won, 'yes', 3);
    await placeWager(server, admin, won, 'no', 3);
    await resolve(server, creator, won, 'yes');
    const open = await createBet(server, creator, group, { expiresAt: expiresIn(server, DAY) });
    await placeWager(server, member, open, 'yes', 2);
    expect(await pointsOf(server, member, group)).toEqual({ total: 103, available: 101 });

    // Leaving with 103 before the reset, and back after it: 100 available like everyone who
    // stayed, and the 2 points on the open bet still held.
    const left = await server.request('POST', `/api/groups/${group.id}/leave`, {
      token: member.accessToken,
    });
    expect(left.status).toBe(200);
    const ended = await server.request(
      'POST',
      `/api/groups/${group.id}/seasons/${season.body.id}/end`,
      { token: admin.accessToken },
    );
    expect(ended.status, ended.text).toBe(200);
    await joinGroup(server, member, group);
    expect(await pointsOf(server, admin, group)).toEqual({ total: 100, available: 100 });
    expect(await pointsOf(server, member, group)).toEqual({ total: 102, available: 100 });
  });
});

describe('the inbox at a season’s end', () => {
  async function entriesOf(user: AuthResponse, seasonGroupId: number) {
    const inbox = await inboxOf(server, user);
    return inbox.notifications
      .filter((entry) => entry.kind === 'seasonEnded' && entry.groupId === seasonGroupId)
      .map((entry) => ({ ...notificationText(entry), link: notificationLink(entry) }));
  }

  it('tells each member where they finished and who won, once, with a push under Results', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server, {
      defaultPoints: 100,
    });
    const season = await startSeason(admin.accessToken, group.id, {
      name: 'Spring cup',
      endsAt: expiresIn(server, HOUR),
      resetPoints: true,
    });
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, DAY) });
    await placeWager(server, admin, bet, 'yes', 2);
    await placeWager(server, member, bet, 'no', 2);
    await resolve(server, creator, bet, 'yes');

    const recorded = recordEvents(server, { withInbox: true });
    const at = new Date(server.clock.now().getTime() + 2 * HOUR);
    const deps = { db: server.database.db, events: server.app.events };
    const runs = await Promise.all([runSeasonsJob(deps, at), runSeasonsJob(deps, at)]);
    expect(runs.flat().map((ended) => ended.id)).toContain(season.body.id);
    await runSeasonsJob(deps, at);
    recorded.stop();

    const link = `/group/${group.id}/seasons`;
    const title = `Spring cup is over in ${group.name}`;
    expect(await entriesOf(admin, group.id)).toEqual([
      { title, body: 'You won it, +2 points! Everyone starts again at 100 points.', link },
    ]);
    expect(await entriesOf(creator, group.id)).toEqual([
      {
        title,
        body: `You finished 2nd of 3, 0 points. ${admin.user.displayName} won it. Everyone starts again at 100 points.`,
        link,
      },
    ]);
    expect(await entriesOf(member, group.id)).toEqual([
      {
        title,
        body: `You finished 3rd of 3, −2 points. ${admin.user.displayName} won it. Everyone starts again at 100 points.`,
        link,
      },
    ]);
    const pushed = recorded.events.filter(
      (e) => e.event === 'notificationPushDue' && e.payload.kind === 'seasonEnded',
    );
    const pushedTo = pushed.map((e) => ('userId' in e.audience ? e.audience.userId : 0));
    expect(pushedTo.sort()).toEqual([creator, admin, member].map((p) => p.user.id).sort());
  });

  it('names the players sharing first place, and nobody when no point moved', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const quiet = await startSeason(admin.accessToken, group.id, { name: 'Quiet cup' });
    await server.request('POST', `/api/groups/${group.id}/seasons/${quiet.body.id}/end`, {
      token: admin.accessToken,
    });
    expect((await entriesOf(member, group.id)).map((entry) => entry.body)).toEqual([
      'Nobody won or lost points in it.',
    ]);

    const tied = await startSeason(admin.accessToken, group.id, { name: 'Tied cup' });
    // Admin and member both call it and win the same; the creator, who did not play, trails.
    const bet = await createBet(server, creator, group, { expiresAt: expiresIn(server, DAY) });
    await placeWager(server, admin, bet, 'yes', 2);
    await placeWager(server, member, bet, 'yes', 2);
    const loser = await createPlayer(server, 'Loser');
    await joinGroup(server, loser, group);
    await placeWager(server, loser, bet, 'no', 2);
    await resolve(server, creator, bet, 'yes');
    await server.request('POST', `/api/groups/${group.id}/seasons/${tied.body.id}/end`, {
      token: admin.accessToken,
    });
    const [latest] = await entriesOf(member, group.id);
    expect(latest!.title).toBe(`Tied cup is over in ${group.name}`);
    expect(latest!.body).toBe(`You shared first place with ${admin.user.displayName}, +1 point.`);
    const [last] = await entriesOf(loser, group.id);
    expect(last!.body).toBe(
      `You finished 4th of 4, −2 points. ${admin.user.displayName} and ${member.user.displayName} won it.`,
    );
  });
});

describe('the mirror', () => {
  it('carries a season and its standings to a device, whole and then as a change', async () => {
    const { group, admin } = await createGroupWithRoles(server);
    const first = await server.request('GET', '/api/member/state?cursor=0', {
      token: admin.accessToken,
    });
    expect(first.body.seasons).toEqual([]);
    const season = await startSeason(admin.accessToken, group.id);
    await server.request('POST', `/api/groups/${group.id}/seasons/${season.body.id}/end`, {
      token: admin.accessToken,
    });
    const next = await server.request(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(first.body.cursor)}`,
      { token: admin.accessToken },
    );
    expect(next.body.seasons).toHaveLength(1);
    expect(next.body.seasons[0]).toMatchObject({ id: season.body.id, state: 'ended' });
    expect(next.body.seasons[0].standings).toHaveLength(3);
  });
});
