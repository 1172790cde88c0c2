// @vitest-environment node
import '../node-browser';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCommentActions } from '../../../src/client/bets/comment-actions';
import { readBetComments } from '../../../src/client/bets/use-comments';
import { ApiError } from '../../../src/client/data/api-client';
import type { Comment } from '../../../src/domain/comments';
import { createBet, NO_EXPIRY_TIMER } from '../../server/bets/bet.factories';
import { addComment, deleteComment, listComments } from '../../server/comments/comment.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { startTestServer, type TestServer } from '../../server/harness';
import { openDevice, type Device } from './device.fixture';
import { SYNC_PUSH_PATH } from '../../../src/domain/constants';

// Comments in the mirror and the outbox (docs/architecture.md §8) against the real
// server: a thread is readable from the mirror; a comment written offline shows at once, marked
// pending, survives pulls, and arrives exactly once; a refusal takes it back with the server's
// message; deletions travel as tombstones, by pull or by event, and never come back.

let server: TestServer;
const devices: Device[] = [];

beforeAll(async () => {
  server = await startTestServer(NO_EXPIRY_TIMER);
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await Promise.all(devices.splice(0).map((device) => device.close()));
});

async function setUp({ withSocket = false, on = server } = {}) {
  const server = on;
  const [me, friend] = [await createPlayer(server, 'Me'), await createPlayer(server, 'Friend')];
  const group = await createGroup(server, friend);
  await joinGroup(server, me, group);
  const bet = await createBet(server, friend, group, { title: 'Rain?' });
  const phone = await openDevice(server, me, { withSocket });
  devices.push(phone);
  if (withSocket) {
    phone.local.start();
    await vi.waitFor(() => expect(phone.socket!.getSnapshot().status).toBe('connected'), {
      timeout: 5000,
    });
  }
  await phone.local.sync();
  await phone.local.whenIdle();
  const actions = createCommentActions({
    db: phone.db,
    session: phone.session,
    local: phone.local,
  });
  return { me, friend, group, bet, phone, actions };
}

const texts = async (device: Device, betId: number) =>
  (await readBetComments(device.db, betId)).map((comment) => comment.text);

describe('reading', () => {
  it('holds every comment of the player’s groups after one sync, readable offline', async () => {
    const { friend, bet, phone } = await setUp();
    await addComment(server, friend, bet, 'First!');
    await addComment(server, friend, bet, 'Second');
    await phone.local.sync();
    phone.setOffline(true);
    expect(await texts(phone, bet.id)).toEqual(['First!', 'Second']);
  });
});

describe('a comment written offline', () => {
  it('shows at once marked pending, survives a pull, and arrives exactly once', async () => {
    const { me, friend, bet, phone, actions } = await setUp();
    phone.setOffline(true);

    expect(await actions.postComment(bet.id, '  Called it  ')).toBe('queued');
    expect(phone.toasts.infos).toEqual([
      "You're offline. Your comment will be sent when you're back.",
    ]);
    const [pending] = await readBetComments(phone.db, bet.id);
    expect(pending).toMatchObject({
      text: 'Called it',
      userId: me.user.id,
      userName: me.user.displayName,
      pendingWriteId: expect.any(String),
    });
    expect(pending!.id).toBeLessThan(0);

    // A friend talks meanwhile; the device pulls before it sends: the pending comment stays, last.
    await addComment(server, friend, bet, 'No way');
    phone.setOffline(false);
    await phone.local.syncEngine.pull();
    expect(await texts(phone, bet.id)).toEqual(['No way', 'Called it']);
    expect((await readBetComments(phone.db, bet.id))[1]?.pendingWriteId).toBe(
      pending!.pendingWriteId,
    );

    // Two flushes at once, then a full sync: one request, one comment.
    await Promise.all([phone.local.outbox.flush(), phone.local.outbox.flush(), phone.local.sync()]);
    await phone.local.whenIdle();
    const onServer = (await listComments(server, friend, bet)).body;
    expect(onServer.map((comment: Comment) => comment.text)).toEqual(['No way', 'Called it']);
    expect(phone.requests.filter((request) => request === `POST ${SYNC_PUSH_PATH}`)).toHaveLength(
      1,
    );
    const mine = await readBetComments(phone.db, bet.id);
    expect(mine.map((comment) => [comment.id, comment.text, comment.pendingWriteId])).toEqual(
      onServer.map((comment: Comment) => [comment.id, comment.text, undefined]),
    );
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.shadow.count()).toBe(0);
  });

  it('taken back before it was sent, is never sent', async () => {
    const { bet, phone, actions, friend } = await setUp();
    phone.setOffline(true);
    await actions.postComment(bet.id, 'Typo');
    const [pending] = await readBetComments(phone.db, bet.id);

    await actions.deleteComment(pending!);

    expect(await texts(phone, bet.id)).toEqual([]);
    expect(await phone.db.outbox.count()).toBe(0);
    phone.setOffline(false);
    await phone.local.sync();
    expect((await listComments(server, friend, bet)).body).toEqual([]);
  });
});

describe('a comment held by the rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ ...NO_EXPIRY_TIMER, rateLimits: { commentsPerUser: 1 } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('says "Slow down — sent in a moment", not that the player is offline, and waits', async () => {
    const { bet, phone, actions } = await setUp({ on: limited });
    expect(await actions.postComment(bet.id, 'First')).toBe('sent');

    expect(await actions.postComment(bet.id, 'Second')).toBe('queued');
    expect(phone.toasts.infos).toEqual(['Slow down — sent in a moment']);
    expect(phone.toasts.errors).toEqual([]);
    const [, held] = await readBetComments(phone.db, bet.id);
    expect(held).toMatchObject({ text: 'Second', pendingWriteId: expect.any(String) });
    expect(await phone.db.outbox.toArray()).toMatchObject([{ status: 'pending' }]);
  });
});

describe('a refused comment', () => {
  it('disappears with the server’s message', async () => {
    const { group, bet, phone, actions, me } = await setUp();
    // The player left on another device: the server refuses, this device still shows the bet.
    expect(
      (await server.request('POST', `/api/groups/${group.id}/leave`, { token: me.accessToken }))
        .status,
    ).toBe(200);

    const refusal = actions.postComment(bet.id, 'Still here?');

    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    await expect(refusal).rejects.toMatchObject({
      status: 403,
      code: 'not_member',
      message: "You're not a member of this group",
    });
    expect(await phone.db.comments.count()).toBe(0);
    expect(await phone.db.outbox.count()).toBe(0);
  });
});

describe('deleting', () => {
  it('hides the comment at once, and the pull keeps it hidden as a tombstone', async () => {
    const { bet, phone, actions } = await setUp();
    await actions.postComment(bet.id, 'Regret');
    await phone.local.whenIdle();
    const [posted] = await readBetComments(phone.db, bet.id);

    phone.setOffline(true);
    expect(await actions.deleteComment(posted!)).toBe('queued');
    expect(await texts(phone, bet.id)).toEqual([]);
    await phone.local.syncEngine.pull().catch(() => undefined);
    expect(await texts(phone, bet.id)).toEqual([]);

    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    expect(await phone.db.comments.get(posted!.id)).toMatchObject({
      text: '',
      deletedAt: expect.any(String),
      version: expect.any(Number),
    });
    expect(await phone.db.outbox.count()).toBe(0);
  });

  it('rolls back a refused delete of someone else’s comment with the server’s message', async () => {
    const { friend, bet, phone, actions } = await setUp();
    await addComment(server, friend, bet, 'Mine, not yours');
    await phone.local.sync();
    const [theirs] = await readBetComments(phone.db, bet.id);

    await expect(actions.deleteComment(theirs!)).rejects.toMatchObject({
      code: 'cannot_delete_comment',
    });

    expect(await texts(phone, bet.id)).toEqual(['Mine, not yours']);
  });
});

describe('live', () => {
  it('a friend’s comment and its deletion arrive by event, without a pull, and an older copy never revives it', async () => {
    const { friend, bet, phone } = await setUp({ withSocket: true });
    const pullsBefore = phone.requests.filter((request) =>
      request.startsWith('GET /api/member/state'),
    ).length;

    const comment = await addComment(server, friend, bet, 'Live banter');
    await vi.waitFor(async () => expect(await texts(phone, bet.id)).toEqual(['Live banter']), {
      timeout: 5000,
    });
    const stored = await phone.db.comments.get(comment.id);
    expect((await deleteComment(server, friend, comment)).status).toBe(200);
    await vi.waitFor(async () => expect(await texts(phone, bet.id)).toEqual([]), { timeout: 5000 });

    // The post's event arriving late (after the tombstone) changes nothing.
    await phone.local.realtime!.apply('commentPosted', { ...comment, version: stored!.version! });
    expect(await texts(phone, bet.id)).toEqual([]);
    await phone.local.whenIdle();
    expect(
      phone.requests.filter((request) => request.startsWith('GET /api/member/state')).length,
    ).toBe(pullsBefore);
  });

  it('knows the player’s own comment by its mutation, never by its text', async () => {
    const { me, friend, bet, phone, actions } = await setUp({ withSocket: true });
    phone.setOffline(true);
    expect(await actions.postComment(bet.id, 'Same words')).toBe('queued');
    const [entry] = await phone.db.outbox.toArray();
    expect(entry).toMatchObject({
      status: 'pending',
      clientID: expect.any(String),
      mutationID: expect.any(Number),
    });

    // The player's other device says the same words meanwhile: they arrive beside the pending one.
    const other = await addComment(server, me, bet, 'Same words');
    await vi.waitFor(async () => expect(await phone.db.comments.get(other.id)).toBeDefined(), {
      timeout: 5000,
    });
    expect(await texts(phone, bet.id)).toEqual(['Same words', 'Same words']);

    // The author's copy of this device's own write, heard before its answer (a push commits,
    // then answers): left to the answer, so the thread never shows it twice.
    const ownEvent = {
      ...other,
      id: other.id + 1000,
      version: 1,
      clientID: entry!.clientID!,
      mutationID: entry!.mutationID!,
    };
    await phone.local.realtime!.apply('commentPosted', ownEvent);
    expect(await phone.db.comments.get(ownEvent.id)).toBeUndefined();
    expect(await texts(phone, bet.id)).toEqual(['Same words', 'Same words']);

    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    const onServer = (await listComments(server, friend, bet)).body as Comment[];
    expect(onServer.map((comment) => comment.text)).toEqual(['Same words', 'Same words']);
    expect((await readBetComments(phone.db, bet.id)).map((comment) => comment.id)).toEqual(
      onServer.map((comment) => comment.id),
    );
  });
});
