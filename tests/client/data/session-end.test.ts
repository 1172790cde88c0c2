// @vitest-environment node
import '../node-browser';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { STORAGE_KEYS } from '../../../src/domain/constants';
import { createBetActions } from '../../../src/client/bets/bet-actions';
import { createCommentActions } from '../../../src/client/bets/comment-actions';
import { createActiveGroupStore } from '../../../src/client/data/active-group-store';
import { openHunchDb, type HunchDb, type OutboxEntry } from '../../../src/client/data/db';
import { isLocalDataLeftOver } from '../../../src/client/data/local-data-owner';
import {
  endLocalSession,
  forgetLeftoverLocalData,
  type SessionEndReason,
} from '../../../src/client/data/session-end';
import { createSessionStore } from '../../../src/client/data/session-store';
import { createBet } from '../../server/bets/bet.factories';
import { addComment, listComments } from '../../server/comments/comment.factories';
import {
  createGroup,
  createPlayer,
  joinGroup,
  uniqueGroupName,
} from '../../server/groups/group.factories';
import { createUser, login } from '../../server/harness';
import { NO_TIMERS } from '../../server/notifications/notification.factories';
import { MemoryStorage } from '../node-browser';
import { useDeviceServer, type Device } from './device.fixture';

// A session ends in many ways: the player signs out, the tab holding a session that was not
// remembered closes (its tokens go with it), the refresh is refused (signed out everywhere from
// another device), the socket is refused for the same reason, the account is deleted. Each
// way leaves the device without the mirror, the outbox or the inbox, before anything of them
// can be shown again. What was still waiting to be sent is held for its own player's last
// decision at their next sign-in, and never for anyone else.

const { server, openDevice } = useDeviceServer(NO_TIMERS);

/** A private group with a bet, a friend's comment and an inbox entry, synced onto my device. */
async function privateGroupOnDevice(me: AuthResponse, { withSocket = false } = {}) {
  const friend = await createPlayer(server, 'Friend');
  const group = await createGroup(server, friend, {
    privacy: 'private',
    name: uniqueGroupName('Secret club'),
  });
  await joinGroup(server, me, group);
  const bet = await createBet(server, friend, group, { title: 'Secret bet title' });
  await addComment(server, friend, bet, 'Secret comment by a friend');
  await server.app.push.idle();
  const phone = await openDevice(me, { withSocket });
  phone.local.start();
  if (withSocket)
    await vi.waitFor(() => expect(phone.socket!.getSnapshot().status).toBe('connected'), {
      timeout: 5000,
    });
  await phone.local.whenIdle();
  // What a stranger must never read from this browser afterwards.
  expect(await phone.db.groups.get(group.id)).toMatchObject({ name: group.name });
  expect(await phone.db.bets.get(bet.id)).toMatchObject({ title: 'Secret bet title' });
  expect(await phone.db.comments.count()).toBe(1);
  expect(await phone.db.notifications.count()).toBeGreaterThan(0);
  expect(phone.storage.getItem(STORAGE_KEYS.activeGroup)).toContain(group.name);
  const secrets = [group.name, 'Secret bet title', 'Secret comment by a friend'];
  return { friend, group, bet, phone, secrets };
}

/** A comment written offline: it waits in the outbox. */
async function commentOffline(phone: Device, betId: number, text: string) {
  phone.setOffline(true);
  await createCommentActions({ db: phone.db, session: phone.session, local: phone.local })
    .postComment(betId, text)
    .catch(() => undefined);
  expect(await phone.db.outbox.count()).toBe(1);
}

/** Every table but the held writes, with the number of rows each still holds (none is the goal). */
async function leftovers(db: HunchDb): Promise<Record<string, number>> {
  const left: Record<string, number> = {};
  for (const table of db.tables) {
    if (table.name === 'held') continue;
    const count = await table.count();
    if (count > 0) left[table.name] = count;
  }
  return left;
}

/** The device after its session ended: nothing of the mirror, only the player's own words held. */
async function expectForgotten(phone: Device, secrets: string[]) {
  await phone.local.whenIdle();
  expect(await leftovers(phone.db)).toEqual({});
  expect(phone.storage.getItem(STORAGE_KEYS.activeGroup)).toBeNull();
  expect(phone.activeGroup.getSnapshot()).toBeUndefined();
  // Nothing half written is left for the next person (data/drafts.ts).
  expect(draftKeys(phone)).toEqual([]);
  const held = JSON.stringify(await phone.db.held.toArray());
  for (const secret of secrets) expect(held).not.toContain(secret);
}

/** The keys this browser keeps that start with `prefix`. */
const keysStartingWith = (phone: Device, prefix: string) =>
  Array.from({ length: phone.storage.length }, (_, index) => phone.storage.key(index)).filter(
    (key) => key?.startsWith(prefix),
  );
/** The client groups of the push (src/client/data/sync-client.ts) this browser remembers. */
const clientGroupKeys = (phone: Device) => keysStartingWith(phone, 'hunch_sync_client_group_');
/** The drafts (src/client/data/drafts.ts) this browser keeps. */
const draftKeys = (phone: Device) => keysStartingWith(phone, 'draft:');

const heldOf = (phone: Device, userId: number) =>
  phone.db.held.where('userId').equals(userId).toArray();

async function serverCommentTexts(user: AuthResponse, betId: number): Promise<string[]> {
  const response = await listComments(server, user, { id: betId });
  return (response.body as Array<{ text: string }>).map((comment) => comment.text);
}

describe('signing out', () => {
  it('forgets the mirror, the outbox and the inbox, and holds the waiting comment for its player only', async () => {
    const me = await createPlayer(server, 'Me');
    const { bet, phone, secrets } = await privateGroupOnDevice(me);
    await commentOffline(phone, bet.id, 'My own words');
    phone.storage.setItem(`draft:${bet.groupId}:comment:${bet.id}`, '"Half a thought"');

    await phone.session.logout();

    await expectForgotten(phone, secrets);
    expect(await heldOf(phone, me.user.id)).toMatchObject([
      { userId: me.user.id, mutator: 'postComment', args: { betId: bet.id, text: 'My own words' } },
    ]);
    // The held write is asked about under the same client group at the next sign-in.
    expect(clientGroupKeys(phone)).toEqual([`hunch_sync_client_group_${me.user.id}`]);
  });

  it('forgets the client group too when no write is held', async () => {
    const me = await createPlayer(server, 'Me');
    const { bet, phone } = await privateGroupOnDevice(me);
    await createCommentActions({ db: phone.db, session: phone.session, local: phone.local })
      .postComment(bet.id, 'Sent at once')
      .catch(() => undefined);
    await phone.local.whenIdle();
    expect(clientGroupKeys(phone)).toEqual([`hunch_sync_client_group_${me.user.id}`]);

    await phone.session.logout();

    await phone.local.whenIdle();
    expect(await phone.db.held.count()).toBe(0);
    expect(clientGroupKeys(phone)).toEqual([]);
  });

  it('has forgotten everything once it returns, even with a pull in flight', async () => {
    const me = await createPlayer(server, 'Me');
    const { phone } = await privateGroupOnDevice(me);
    const pulling = phone.local.sync();

    expect(phone.storage.getItem(STORAGE_KEYS.localDataOwner)).toBe(String(me.user.id));

    await phone.session.logout();

    // Done, not merely begun: the owner is struck off only once the data is gone.
    expect(phone.storage.getItem(STORAGE_KEYS.localDataOwner)).toBeNull();
    expect(await leftovers(phone.db)).toEqual({});
    await pulling;
    await phone.local.whenIdle();
    expect(await leftovers(phone.db)).toEqual({});
  });

  it('lets no late live event write into the forgotten mirror', async () => {
    const me = await createPlayer(server, 'Me');
    const { bet, phone } = await privateGroupOnDevice(me);
    const stored = await phone.db.bets.get(bet.id);

    await phone.session.logout();
    // An event handler that began before the sign-out writes its row after it.
    await phone.local.rebaser.serverWrite(me.user.id, async () => {
      await phone.db.bets.put({ ...stored!, version: stored!.version! + 1 });
    });

    await phone.local.whenIdle();
    expect(await leftovers(phone.db)).toEqual({});
  });
});

describe('a session that ended elsewhere', () => {
  it('is forgotten when the refresh is refused (signed out everywhere from another device)', async () => {
    const account = await createUser(server);
    const { bet, phone, secrets } = await privateGroupOnDevice(account);
    await commentOffline(phone, bet.id, 'Sent from the train');
    const elsewhere = (await login(server, account.email, account.password)).body;
    expect(
      (await server.request('DELETE', '/auth/users/me/sessions', { token: elsewhere.accessToken }))
        .status,
    ).toBe(200);
    // This device's access token is refused next, as it is once it expires.
    phone.session.replaceUser(account.user, { accessToken: 'expired-access-token' });

    phone.setOffline(false);
    await phone.local.sync();

    expect(phone.session.getSnapshot()).toEqual({ user: null, signedOutBy: 'expired' });
    await expectForgotten(phone, secrets);
    expect(await heldOf(phone, account.user.id)).toMatchObject([
      { args: { text: 'Sent from the train' } },
    ]);
    const again = (await login(server, account.email, account.password)).body;
    expect(await serverCommentTexts(again, bet.id)).not.toContain('Sent from the train');
  });

  it('is forgotten when the socket is refused because the session ended', async () => {
    const account = await createUser(server);
    const { phone, secrets } = await privateGroupOnDevice(account, { withSocket: true });
    const elsewhere = (await login(server, account.email, account.password)).body;

    await server.request('DELETE', '/auth/users/me/sessions', { token: elsewhere.accessToken });

    // The server drops the socket; its reconnection is refused, then so is the refresh.
    await vi.waitFor(() => expect(phone.session.user).toBeNull(), { timeout: 10_000 });
    expect(phone.socket!.getSnapshot().status).toBe('signed-out');
    await expectForgotten(phone, secrets);
  });
});

describe('deleting the account', () => {
  it('forgets everything, the writes held from an earlier session included', async () => {
    const me = await createPlayer(server, 'Me');
    const { bet, phone, secrets } = await privateGroupOnDevice(me);
    await commentOffline(phone, bet.id, 'Never to be sent');
    await phone.session.logout();
    await phone.local.whenIdle();
    phone.setOffline(false);
    phone.session.signIn(me, true);
    await phone.local.whenIdle();
    expect(await heldOf(phone, me.user.id)).toHaveLength(1);

    // What the profile's deletion does (data/account-data-api.ts), on this device.
    await phone.api.request('/auth/users/me', { method: 'DELETE', body: {} });
    await phone.session.logout('deleted');

    await expectForgotten(phone, secrets);
    expect(await phone.db.held.count()).toBe(0);
  });
});

describe('a tab-only session whose tab closed', () => {
  it('leaves nothing behind once the app starts again without its tokens', async () => {
    const me = await createPlayer(server, 'Me');
    const { bet, phone, secrets } = await privateGroupOnDevice(me);
    // Signed in without "Remember me": the tokens live in the tab's sessionStorage only.
    phone.session.signIn(me, false);
    await phone.local.whenIdle();
    await commentOffline(phone, bet.id, 'Typed before closing the tab');
    // The tab closes: the local data stops with it, sessionStorage goes.
    phone.local.stop();
    await phone.local.whenIdle();
    const reopened = createSessionStore({
      storages: { persistent: phone.storage, temporary: new MemoryStorage() },
    });
    expect(reopened.restore()).toBeNull();
    const told: string[] = [];

    expect(isLocalDataLeftOver(phone.storage, null)).toBe(true);
    await forgetLeftoverLocalData({
      db: phone.db,
      storage: phone.storage,
      activeGroup: phone.activeGroup,
      postToWorker: (message) => void told.push(message.type),
    });

    expect(told).toEqual(['outbox-clear']);
    await expectForgotten(phone, secrets);
    expect(isLocalDataLeftOver(phone.storage, null)).toBe(false);
    expect(await heldOf(phone, me.user.id)).toMatchObject([
      { args: { text: 'Typed before closing the tab' } },
    ]);
  });

  it('is not mistaken for the live session of the same player, nor a first visit', async () => {
    const storage = new MemoryStorage();
    expect(isLocalDataLeftOver(storage, null)).toBe(false);
    storage.setItem(STORAGE_KEYS.localDataOwner, '7');
    expect(isLocalDataLeftOver(storage, 7)).toBe(false);
    expect(isLocalDataLeftOver(storage, 8)).toBe(true);
    expect(isLocalDataLeftOver(storage, null)).toBe(true);
    // A device from before the owner was written down: its active group gives it away.
    const older = new MemoryStorage();
    older.setItem(
      STORAGE_KEYS.activeGroup,
      JSON.stringify({ id: 1, name: 'Old', availablePoints: 1 }),
    );
    expect(isLocalDataLeftOver(older, null)).toBe(true);
  });
});

describe('the held writes', () => {
  it('wait for the same player, who sends one and discards another; nothing goes by itself', async () => {
    const me = await createPlayer(server, 'Me');
    const { bet, phone } = await privateGroupOnDevice(me);
    await commentOffline(phone, bet.id, 'Keep this one');
    await createCommentActions({ db: phone.db, session: phone.session, local: phone.local })
      .postComment(bet.id, 'Drop this one')
      .catch(() => undefined);
    await createBetActions({
      db: phone.db,
      api: phone.api,
      session: phone.session,
      local: phone.local,
    })
      .placeWager(bet.id, 'yes', 1)
      .catch(() => undefined);
    await phone.session.logout();
    await phone.local.whenIdle();
    phone.setOffline(false);

    phone.session.signIn(me, true);
    await phone.local.whenIdle();

    const held = await heldOf(phone, me.user.id);
    expect(held.map((write) => write.mutator)).toEqual([
      'postComment',
      'postComment',
      'placeWager',
    ]);
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await serverCommentTexts(me, bet.id)).toEqual(['Secret comment by a friend']);

    await phone.local.held.send(held[0]!.id);
    await phone.local.held.discard(held[1]!.id);
    await phone.local.whenIdle();

    expect(await serverCommentTexts(me, bet.id)).toEqual([
      'Secret comment by a friend',
      'Keep this one',
    ]);
    expect((await heldOf(phone, me.user.id)).map((write) => write.mutator)).toEqual(['placeWager']);
    expect(await phone.db.outbox.count()).toBe(0);
    // A second tap on Send finds nothing left to send.
    await phone.local.held.send(held[0]!.id);
    await phone.local.whenIdle();
    expect(await serverCommentTexts(me, bet.id)).toHaveLength(2);
  });

  it('are dropped when another player signs in, and nothing is sent under their account', async () => {
    const me = await createPlayer(server, 'Me');
    const { bet, phone, group } = await privateGroupOnDevice(me);
    await commentOffline(phone, bet.id, 'Not for the next person');
    await phone.session.logout();
    await phone.local.whenIdle();
    phone.setOffline(false);
    const stranger = await createPlayer(server, 'Stranger');
    await joinGroup(server, stranger, group);

    phone.session.signIn(stranger, true);
    await phone.local.whenIdle();

    expect(await phone.db.held.count()).toBe(0);
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await serverCommentTexts(stranger, bet.id)).toEqual(['Secret comment by a friend']);
    // And the stranger cannot send what they never see.
    expect(await phone.local.held.list(stranger.user.id)).toEqual([]);
  });
});

describe('whatever ended the session and whatever was waiting', () => {
  let databases = 0;
  const ENDS: SessionEndReason[] = ['user', 'expired', 'deleted', 'tokens-gone'];
  /** Words the player typed: never the marker the mirror's rows carry. */
  const ownWords = fc.string({ maxLength: 30 }).filter((text) => !text.includes('§'));
  const write = fc.record({
    userId: fc.constantFrom(1, 2),
    status: fc.constantFrom<OutboxEntry['status']>('pending', 'sending', 'answered', 'failed'),
    text: ownWords,
  });

  it('leaves no row of the mirror, and holds exactly the waiting writes, each as its player wrote it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { maxLength: 6 }),
        fc.array(fc.record({ userId: fc.constantFrom(1, 2), text: ownWords }), { maxLength: 3 }),
        fc.constantFrom(...ENDS),
        fc.string({ minLength: 1, maxLength: 20 }).map((name) => `§${name}`),
        async (outbox, heldBefore, reason, secret) => {
          databases += 1;
          const db = openHunchDb(`session-end-property-${process.pid}-${databases}`);
          const storage = new MemoryStorage();
          storage.setItem(STORAGE_KEYS.localDataOwner, '1');
          const activeGroup = createActiveGroupStore(storage);
          activeGroup.set({ id: 1, name: secret, availablePoints: 5 });
          await db.groups.put({ id: 1, name: secret, version: 1 });
          await db.bets.put({ id: 1, groupId: 1, title: secret, version: 1 } as never);
          await db.comments.put({ id: 1, betId: 1, groupId: 1, text: secret, version: 1 } as never);
          await db.notifications.put({ id: 1, title: secret, updatedAt: '2024-01-01' } as never);
          await db.memberStats.put({
            key: '1:1:',
            stats: { name: secret } as never,
            fetchedAt: '',
          });
          await db.shadow.put({ id: 'bets:1', table: 'bets', key: 1, value: { title: secret } });
          await db.meta.put({ key: 'mirrorCursor', value: { userId: 1, cursor: secret } });
          await db.outbox.bulkPut(
            outbox.map((entry, index) => ({
              id: `w${index}`,
              userId: entry.userId,
              mutator: 'postComment',
              args: { tempId: -1 - index, betId: 1, text: entry.text },
              createdAt: 100 + index,
              status: entry.status,
              attempts: 0,
              clientGroupID: 'device',
              clientID: 'tab',
              mutationID: index + 1,
            })),
          );
          await db.held.bulkPut(
            heldBefore.map((entry, index) => ({
              id: `h${index}`,
              userId: entry.userId,
              mutator: 'postComment',
              args: { tempId: -50 - index, betId: 1, text: entry.text },
              createdAt: index,
            })),
          );
          const told: string[] = [];

          await endLocalSession(
            { db, storage, activeGroup, postToWorker: (message) => void told.push(message.type) },
            { reason, userId: 1 },
          );

          expect(await leftovers(db)).toEqual({});
          expect(told).toEqual(['outbox-clear']);
          expect(activeGroup.getSnapshot()).toBeUndefined();
          expect(storage.length).toBe(0);
          const stillComing = (userId: number) => !(reason === 'deleted' && userId === 1);
          const expected = [
            ...heldBefore.map((entry, index) => ({ id: `h${index}`, ...entry })),
            ...outbox
              .map((entry, index) => ({ id: `w${index}`, ...entry }))
              .filter((entry) => entry.status === 'pending' || entry.status === 'sending'),
          ].filter((entry) => stillComing(entry.userId));
          const held = await db.held.toArray();
          expect(
            held.map((row) => [row.id, row.userId, (row.args as { text: string }).text]).sort(),
          ).toEqual(expected.map((entry) => [entry.id, entry.userId, entry.text]).sort());
          for (const row of held) {
            // A write of this session keeps its client and number: sent later, it applies once.
            const numbered = row.id.startsWith('w') ? ['clientID', 'mutationID'] : [];
            expect(Object.keys(row).sort()).toEqual(
              ['args', 'createdAt', 'id', 'mutator', 'userId', ...numbered].sort(),
            );
            if (row.id.startsWith('w'))
              expect(row).toMatchObject({
                clientID: 'tab',
                mutationID: Number(row.id.slice(1)) + 1,
              });
          }
          expect(JSON.stringify(held)).not.toContain('§');
          db.close();
          await db.delete();
        },
      ),
      { numRuns: 30 },
    );
  });
});
