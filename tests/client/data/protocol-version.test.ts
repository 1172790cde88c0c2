// @vitest-environment node
import '../node-browser';
import { describe, expect, it } from 'vitest';
import { createBetActions } from '../../../src/client/bets/bet-actions';
import { onUpdateNeeded } from '../../../src/client/data/update-needed';
import {
  OLDEST_SYNC_PROTOCOL_VERSION,
  SYNC_PROTOCOL_VERSION,
} from '../../../src/domain/sync-protocol';
import { createBet, NO_EXPIRY_TIMER } from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { useDeviceServer } from './device.fixture';

// A device whose sync protocol the server does not speak (docs/architecture.md §8, "Protocol
// version") loses no write: refused `client_too_old`, the write waits and the app hears that it
// must update; refused `server_too_old` (a rolling deploy), it waits and is sent again. Once
// the device speaks a version the server does, the write lands once.

const { server, openDevice } = useDeviceServer(NO_EXPIRY_TIMER);

async function setUp() {
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const group = await createGroup(server, friend);
  await joinGroup(server, me, group);
  const bet = await createBet(server, friend, group, { title: 'Rain?', baseWagerAmount: 2 });
  const phone = await openDevice(me);
  await phone.local.sync();
  const actions = createBetActions({
    db: phone.db,
    api: phone.api,
    session: phone.session,
    local: phone.local,
  });
  return { me, bet, phone, actions };
}

async function serverWagerCount(betId: number, token: string) {
  const response = await server.request('GET', `/api/bets/${betId}`, { token });
  return response.body.wagerCount as number;
}

describe('a device older than the server speaks', () => {
  it('keeps its write waiting, hears that it must update, and once updated sends it', async () => {
    const { me, bet, phone, actions } = await setUp();
    let reports = 0;
    const stopListening = onUpdateNeeded(() => (reports += 1));
    const before = reports;
    phone.setProtocolVersion(OLDEST_SYNC_PROTOCOL_VERSION - 1);

    phone.setOffline(true);
    const queued = await actions.placeWager(bet.id, 'yes', 4);
    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();

    expect(reports).toBeGreaterThan(before);
    expect(await phone.db.outbox.toArray()).toMatchObject([
      { id: queued.pendingWriteId, status: 'pending' },
    ]);
    expect(await serverWagerCount(bet.id, me.accessToken)).toBe(0);

    // The updated app speaks the server's version: the same outbox sends the write, once.
    phone.setProtocolVersion(SYNC_PROTOCOL_VERSION);
    await phone.local.sync();
    await phone.local.whenIdle();
    await phone.local.sync();
    await phone.local.whenIdle();
    expect(await serverWagerCount(bet.id, me.accessToken)).toBe(1);
    expect(await phone.db.outbox.count()).toBe(0);
    stopListening();
  });
});

describe('a device newer than the server speaks (a rolling deploy)', () => {
  it('keeps its write waiting and sends it once the server speaks its version', async () => {
    const { me, bet, phone, actions } = await setUp();
    phone.setProtocolVersion(SYNC_PROTOCOL_VERSION + 1);

    const queued = await actions.placeWager(bet.id, 'yes', 4);
    expect(queued.pendingWriteId).toBeDefined();
    expect(await phone.db.outbox.get(queued.pendingWriteId!)).toMatchObject({
      status: 'pending',
    });
    expect(await serverWagerCount(bet.id, me.accessToken)).toBe(0);

    // The deploy reaches this instance: the retry lands.
    phone.setProtocolVersion(SYNC_PROTOCOL_VERSION);
    await expect.poll(() => serverWagerCount(bet.id, me.accessToken)).toBe(1);
    await phone.local.whenIdle();
    await phone.local.sync();
    await phone.local.whenIdle();
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await serverWagerCount(bet.id, me.accessToken)).toBe(1);
  });
});
