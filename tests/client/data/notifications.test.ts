// @vitest-environment node
import '../node-browser';
import { describe, expect, it, vi } from 'vitest';
import { createInboxActions } from '../../../src/client/inbox/inbox-actions';
import {
  countUnreadNotifications,
  readInbox,
  readNotificationSettings,
} from '../../../src/client/data/use-notifications';
import type { NotificationRow } from '../../../src/client/data/db';
import { createBet } from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { inboxOf, NO_TIMERS } from '../../server/notifications/notification.factories';
import { useDeviceServer, type Device } from './device.fixture';
import { SYNC_PUSH_PATH } from '../../../src/domain/constants';

// The inbox in the mirror and the outbox (docs/architecture.md §8) against the real server: after
// one sync the entries are readable offline; a new entry arrives live by socket; reading and
// the choices written offline show at once, survive pulls and reach the server exactly once.

const { server, openDevice } = useDeviceServer(NO_TIMERS);

const readEntries = async (db: Device['db']) => (await readInbox(db)).entries;

async function setUp({ withSocket = false } = {}) {
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const group = await createGroup(server, friend);
  await joinGroup(server, me, group);
  await createBet(server, friend, group, { title: 'Rain?' });
  await server.app.push.idle();
  const phone = await openDevice(me, { withSocket });
  if (withSocket) {
    phone.local.start();
    await vi.waitFor(() => expect(phone.socket!.getSnapshot().status).toBe('connected'), {
      timeout: 5000,
    });
  }
  await phone.local.sync();
  await phone.local.whenIdle();
  const actions = createInboxActions({
    session: phone.session,
    local: phone.local,
    toasts: { success: () => 0 },
  });
  return { me, friend, group, phone, actions };
}

describe('the inbox in the mirror', () => {
  it('is readable offline after one sync, with its unread count', async () => {
    const { phone } = await setUp();
    phone.setOffline(true);
    const entries = await readEntries(phone.db);
    expect(entries.map((entry) => [entry.kind, entry.payload.betTitle])).toEqual([
      ['betCreated', 'Rain?'],
    ]);
    expect(await countUnreadNotifications(phone.db)).toBe(1);
  });

  it("names each entry's group as it is called now, and no group while the player is in one", async () => {
    const { me, friend, group, phone } = await setUp();
    const renamed = await server.request('PATCH', `/api/groups/${group.id}`, {
      token: friend.accessToken,
      body: { name: 'Renamed friends' },
    });
    expect(renamed.status).toBe(200);
    await phone.local.sync();
    const alone = await readInbox(phone.db);
    expect(alone.entries.map((entry) => entry.payload.groupName)).toEqual(['Renamed friends']);
    expect(alone.namesGroups).toBe(false);

    await joinGroup(server, me, await createGroup(server, friend));
    await phone.local.sync();
    expect((await readInbox(phone.db)).namesGroups).toBe(true);
  });

  it('leaves out an entry whose every comment was deleted (count 0)', async () => {
    const { phone } = await setUp();
    const [entry] = await readEntries(phone.db);
    await phone.db.notifications.put({ ...entry!, kind: 'comments', count: 0, readAt: null });
    expect(await readEntries(phone.db)).toEqual([]);
    expect(await countUnreadNotifications(phone.db)).toBe(0);
  });

  it('leaves out an entry of a kind this version does not know (a newer server’s)', async () => {
    const { phone } = await setUp();
    const [entry] = await readEntries(phone.db);
    const future = { ...entry!, kind: 'somethingNew', readAt: null } as unknown as NotificationRow;
    await phone.db.notifications.put(future);
    expect(await readEntries(phone.db)).toEqual([]);
    expect(await countUnreadNotifications(phone.db)).toBe(0);
  });

  it('hears a new entry live and gathers a burst into it', async () => {
    const { friend, group, phone } = await setUp({ withSocket: true });
    await createBet(server, friend, group, { title: 'Snow?' });
    await vi.waitFor(
      async () => {
        const [entry] = await readEntries(phone.db);
        expect(entry).toMatchObject({ count: 2, payload: { betTitle: 'Snow?' } });
      },
      { timeout: 5000 },
    );
    expect(await countUnreadNotifications(phone.db)).toBe(1);
  });
});

describe('writes offline', () => {
  it('reads entries at once, keeps them read through a pull, and sends the read once', async () => {
    const { me, phone, actions } = await setUp();
    const [entry] = await readEntries(phone.db);
    phone.setOffline(true);
    await actions.markAllRead(entry!.updatedAt);
    expect(await countUnreadNotifications(phone.db)).toBe(0);
    // Quiet: the bell has said it (the mutator's own description).
    expect(phone.toasts.infos).toEqual([]);
    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    expect(await countUnreadNotifications(phone.db)).toBe(0);
    expect((await inboxOf(server, me)).unreadCount).toBe(0);
    expect(phone.requests.filter((r) => r === `POST ${SYNC_PUSH_PATH}`)).toHaveLength(1);
  });

  it('mutes a group and turns a push kind off offline; both reach the server', async () => {
    const { me, group, phone, actions } = await setUp();
    phone.setOffline(true);
    await actions.muteGroup(group.id, true);
    await actions.setPushKinds(['memberJoined']);
    expect(await readNotificationSettings(phone.db)).toMatchObject({
      mutedGroupIds: [group.id],
      pushOff: ['memberJoined'],
    });
    expect(phone.toasts.infos).toEqual([
      "You're offline. Your choice will be saved when you're back.",
      "You're offline. Your choice will be saved when you're back.",
    ]);
    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    const settings = await server.request('GET', '/api/notification-settings', {
      token: me.accessToken,
    });
    expect(settings.body).toMatchObject({ mutedGroupIds: [group.id], pushOff: ['memberJoined'] });
    expect(await readNotificationSettings(phone.db)).toMatchObject({
      mutedGroupIds: [group.id],
      pushOff: ['memberJoined'],
      version: settings.body.version,
    });
  });
});
