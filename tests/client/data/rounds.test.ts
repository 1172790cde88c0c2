// @vitest-environment node
import '../node-browser';
import { describe, expect, it } from 'vitest';
import { placeWagerMutator } from '../../../src/client/data/bet-mutators';
import { createRoundMutator, updateRoundMutator } from '../../../src/client/data/round-mutators';
import { readSeasonTotals } from '../../../src/client/data/round-results';
import type { RoundList } from '../../../src/domain/schemas/rounds';
import { NO_EXPIRY_TIMER, resolve } from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { createRound, csvLine, tip } from '../../server/rounds/round.factories';
import { useDeviceServer } from './device.fixture';

// Tipping rounds on a device against the real server: a round made (or rescored) offline goes
// through the outbox and is created once; rounds reach every member's mirror with their
// matches, so a round page opens offline; a tip typed offline lands once, or is refused and
// said so when its kick-off passed meanwhile.

const { server, openDevice } = useDeviceServer(NO_EXPIRY_TIMER);
const HOUR = 3_600_000;

async function setUp() {
  const [admin, friend] = [await createPlayer(server, 'Ana'), await createPlayer(server, 'Ben')];
  const group = await createGroup(server, admin);
  await joinGroup(server, friend, group);
  return { admin, friend, group };
}

const csvOf = (...lines: string[]) => ['date,time,home,away', ...lines].join('\n');

async function roundsOnServer(group: { id: number }, token: string): Promise<RoundList> {
  const response = await server.request<RoundList>('GET', `/api/groups/${group.id}/rounds`, {
    token,
  });
  return response.body;
}

describe('a round made on a device', () => {
  it('shows at once offline and is created once when back, reaching a friend with its matches', async () => {
    const { admin, friend, group } = await setUp();
    const phone = await openDevice(admin);
    await phone.local.sync();
    phone.setOffline(true);
    const csv = csvOf(
      csvLine(server, 2 * HOUR, 'Ajax', 'PSV'),
      csvLine(server, 3 * HOUR, 'AZ', 'Twente'),
    );
    const tempId = phone.local.outbox.tempId();
    const sent = phone.local.run(createRoundMutator, {
      tempId,
      groupId: group.id,
      request: { name: 'Matchday 1', csv },
    });
    await expect(sent).resolves.toBeDefined();
    expect(phone.toasts.infos).toContain(
      "You're offline. The round will be created when you're back.",
    );
    const drawn = await phone.db.rounds.get(tempId);
    expect(drawn).toMatchObject({ name: 'Matchday 1', groupId: group.id });
    expect(drawn?.matches.map((match) => match.home)).toEqual(['Ajax', 'AZ']);

    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    const { rounds } = await roundsOnServer(group, admin.accessToken);
    expect(rounds).toHaveLength(1);
    expect(await phone.db.rounds.count()).toBe(1);
    const [stored] = await phone.db.rounds.toArray();
    expect(stored).toMatchObject({ id: rounds[0]!.id, name: 'Matchday 1' });
    expect(stored?.pendingWriteId).toBeUndefined();

    const friendPhone = await openDevice(friend);
    await friendPhone.local.sync();
    const held = await friendPhone.db.rounds.get(rounds[0]!.id);
    expect(held?.matches).toHaveLength(2);
    for (const match of held!.matches)
      expect(await friendPhone.db.bets.get(match.betId)).toMatchObject({ betType: 'score_tip' });
  });

  it('is refused whole with the line and field named, and nothing is created', async () => {
    const { admin, group } = await setUp();
    const phone = await openDevice(admin);
    await phone.local.sync();
    const csv = csvOf(csvLine(server, 2 * HOUR, 'Ajax', 'PSV'), '2026-13-40,15:30,AZ,Twente');
    const sent = phone.local.run(createRoundMutator, {
      tempId: phone.local.outbox.tempId(),
      groupId: group.id,
      request: { name: 'Matchday 1', csv },
    });
    await expect(sent).rejects.toThrow(/Line 3, date/);
    await phone.local.whenIdle();
    expect(await phone.db.rounds.count()).toBe(0);
    expect((await roundsOnServer(group, admin.accessToken)).rounds).toHaveLength(0);
  });
});

describe('a round in the mirror', () => {
  it('takes a new scoring table through the outbox, and a friend pulls it', async () => {
    const { admin, friend, group } = await setUp();
    const round = await createRound(server, admin, group, {
      name: 'Matchday 2',
      csv: csvOf(csvLine(server, 2 * HOUR, 'Ajax', 'PSV')),
    });
    const phone = await openDevice(admin);
    const friendPhone = await openDevice(friend);
    await phone.local.sync();
    await friendPhone.local.sync();
    const scoring = { exact: 5, difference: 3, tendency: 1 };
    await phone.local.run(updateRoundMutator, { groupId: group.id, roundId: round.id, scoring });
    await phone.local.whenIdle();
    await friendPhone.local.sync();
    expect((await friendPhone.db.rounds.get(round.id))?.scoring).toEqual(scoring);
  });

  it('lands a tip typed offline once, and refuses one whose kick-off passed meanwhile', async () => {
    const { admin, friend, group } = await setUp();
    const round = await createRound(server, admin, group, {
      name: 'Matchday 3',
      csv: csvOf(
        csvLine(server, 2 * HOUR, 'Ajax', 'PSV'),
        csvLine(server, 5 * HOUR, 'AZ', 'Twente'),
      ),
    });
    const [early, late] = round.matches;
    const phone = await openDevice(friend);
    await phone.local.sync();
    phone.setOffline(true);
    const tips = [
      phone.local.run(placeWagerMutator, {
        betId: early!.betId,
        prediction: '2-1',
        points: 0,
        tempId: phone.local.outbox.tempId(),
      }),
      phone.local.run(placeWagerMutator, {
        betId: late!.betId,
        prediction: '0-0',
        points: 0,
        tempId: phone.local.outbox.tempId(),
      }),
    ];
    await Promise.all(tips);
    expect(phone.toasts.infos).toContain("You're offline. Your tip will be sent when you're back.");
    // The first match kicks off while the phone is on the train.
    server.clock.advance(3 * HOUR);
    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    expect(phone.toasts.errors.join(' ')).toMatch(/Your tip on 'Ajax – PSV' wasn't saved/);
    const wagers = await phone.db.wagers.toArray();
    expect(wagers.map((wager) => [wager.betId, wager.prediction])).toEqual([[late!.betId, '0-0']]);
    // Sent again, it is not applied twice.
    const again = await tip(server, friend, late!.betId, '0-0');
    expect(again.status).toBe(409);
  });
});

describe("the season's running total", () => {
  it('is worked out on the device as the server works it out, over the running season', async () => {
    const { admin, friend, group } = await setUp();
    /** A one-match round kicking off in an hour, tipped, then played and resolved 2-1. */
    const playRound = async (name: string, tips: Array<[typeof admin, string]>) => {
      const round = await createRound(server, admin, group, {
        name,
        csv: csvOf(csvLine(server, HOUR, 'Ajax', 'PSV')),
      });
      const betId = round.matches[0]!.betId;
      for (const [user, prediction] of tips)
        expect((await tip(server, user, betId, prediction)).status).toBe(201);
      server.clock.advance(2 * HOUR);
      expect((await resolve(server, admin, { id: betId }, '2-1')).status).toBe(200);
    };
    const phone = await openDevice(friend);
    const sameAsServer = async () => {
      await phone.local.sync();
      const device = await readSeasonTotals(group.id, phone.db);
      const { totals } = await roundsOnServer(group, friend.accessToken);
      expect(device.table.map(({ name: _name, ...line }) => line)).toEqual(totals);
      return device;
    };
    await playRound('Matchday 7', [
      [admin, '2-1'],
      [friend, '1-0'],
    ]);
    await playRound('Matchday 8', [[friend, '2-1']]);
    // No season runs: every round counts.
    const before = await sameAsServer();
    expect(before.season).toBeNull();
    expect(before.table[0]).toMatchObject({ userId: friend.user.id, points: 7 });
    expect(before.table[0]!.name).toMatch(/^Ben/);

    const season = await server.request('POST', `/api/groups/${group.id}/seasons`, {
      token: admin.accessToken,
      body: { name: 'Winter', endsAt: new Date(server.clock.now().getTime() + 30 * 24 * HOUR) },
    });
    expect(season.status, season.text).toBe(201);
    await playRound('Matchday 9', [[admin, '2-1']]);
    const during = await sameAsServer();
    expect(during.season).toBe('Winter');
    expect(during.table[0]).toMatchObject({ userId: admin.user.id, points: 4 });
    expect(during.table.find((line) => line.userId === friend.user.id)?.points).toBe(0);
  });
});
