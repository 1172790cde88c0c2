import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { COMMENT_MESSAGES } from '../../../src/domain/comments';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { MirrorPullResponse } from '../../../src/server/mirror/synced-tables';
import type { SyncPushResponse } from '../../../src/domain/schemas/sync';
import { createMirrorService } from '../../../src/server/mirror/mirror.service';
import { createBet, NO_EXPIRY_TIMER, placeWager } from '../bets/bet.factories';
import {
  createGroup,
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  recordEvents,
} from '../groups/group.factories';
import { startTestServer, type TestServer } from '../harness';
import { connectSocket, syncSockets } from '../realtime/test-socket';
import { addComment, deleteComment, listComments, postComment } from './comment.factories';

// Comments on a bet: active members of the bet's group read and write them; the
// author or a group admin deletes one (a tombstone); every payload names the author and the
// text only, never a pick; the group's room hears them live and the mirror carries them.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(NO_EXPIRY_TIMER);
});
afterAll(async () => {
  await server.close();
});

/** The fields a comment carries, and nothing else (no prediction, no points). */
const COMMENT_KEYS = [
  'betId',
  'createdAt',
  'deletedAt',
  'groupId',
  'id',
  'text',
  'userId',
  'userName',
];

async function pullAll(user: AuthResponse, cursor = MIRROR_START_CURSOR) {
  const pages: MirrorPullResponse[] = [];
  for (let next = cursor; ;) {
    const response = await server.request<MirrorPullResponse>(
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(next)}`,
      { token: user.accessToken },
    );
    expect(response.status, response.text).toBe(200);
    pages.push(response.body);
    next = response.body.cursor;
    if (!response.body.hasMore) return pages;
  }
}

describe('posting and reading', () => {
  it('lists a bet’s comments oldest first, each with its author’s name', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const first = await addComment(server, creator, bet, '  Easy money  ');
    const second = await addComment(server, member, bet, 'We will see\nabout that');
    expect(first).toEqual({
      id: expect.any(Number),
      betId: bet.id,
      groupId: group.id,
      userId: creator.user.id,
      userName: creator.user.displayName,
      text: 'Easy money',
      createdAt: expect.any(String),
      deletedAt: null,
    });
    const list = await listComments(server, member, bet);
    expect(list.status).toBe(200);
    expect(list.body.map((comment) => [comment.id, comment.text])).toEqual([
      [first.id, 'Easy money'],
      [second.id, 'We will see\nabout that'],
    ]);
  });

  it('takes exactly 500 characters and refuses 501, an empty or blank text with a field message', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    expect((await postComment(server, creator, bet, 'x'.repeat(500))).status).toBe(201);
    for (const [text, message] of [
      ['x'.repeat(501), COMMENT_MESSAGES.textMax],
      ['', COMMENT_MESSAGES.textRequired],
      ['   \n  ', COMMENT_MESSAGES.textRequired],
      [undefined, COMMENT_MESSAGES.textRequired],
    ] as const) {
      const response = await postComment(server, creator, bet, text);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'validation_failed',
        message,
        fieldErrors: { text: message },
      });
    }
    const control = await postComment(server, creator, bet, 'bell\u0007');
    expect(control.status).toBe(400);
    expect(control.body.fieldErrors).toEqual({ text: 'Must not contain control characters' });
    expect((await listComments(server, creator, bet)).body).toHaveLength(1);
  });

  it('is for active members of the bet’s group only: 403 not_member, 404 for an unknown bet', async () => {
    const { group, creator, member, outsider } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const comment = await addComment(server, member, bet, 'Mine');
    const notMember = { code: 'not_member', message: "You're not a member of this group" };
    expect(await postComment(server, outsider, bet, 'Hi')).toMatchObject({
      status: 403,
      body: notMember,
    });
    expect(await listComments(server, outsider, bet)).toMatchObject({
      status: 403,
      body: notMember,
    });
    expect(await deleteComment(server, outsider, comment)).toMatchObject({
      status: 403,
      body: notMember,
    });
    // A member who left is an outsider now, even for their own comment.
    const left = await server.request('POST', `/api/groups/${group.id}/leave`, {
      token: member.accessToken,
    });
    expect(left.status).toBe(200);
    expect((await deleteComment(server, member, comment)).status).toBe(403);
    expect((await listComments(server, member, bet)).status).toBe(403);

    const unknown = await postComment(server, creator, { id: 2_000_000_000 }, 'Hi');
    expect(unknown).toMatchObject({ status: 404, body: { code: 'bet_not_found' } });
    expect((await listComments(server, creator, { id: 2_000_000_000 })).status).toBe(404);
    expect((await deleteComment(server, creator, { id: 2_000_000_000 })).body.code).toBe(
      'comment_not_found',
    );
    expect((await server.request('GET', `/api/bets/${bet.id}/comments`)).status).toBe(401);
  });

  it('keeps groups apart: another group’s member sees none of its comments', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const other = await createPlayer(server, 'Other');
    const otherGroup = await createGroup(server, other);
    const bet = await createBet(server, creator, group);
    const otherBet = await createBet(server, other, otherGroup);
    await addComment(server, creator, bet, 'Ours');
    await addComment(server, other, otherBet, 'Theirs');
    expect((await listComments(server, other, otherBet)).body.map((c) => c.text)).toEqual([
      'Theirs',
    ]);
    expect((await listComments(server, other, bet)).status).toBe(403);
    const mirrored = (await pullAll(other)).flatMap((page) => page.comments);
    expect(mirrored.map((comment) => comment.text)).toEqual(['Theirs']);
  });

  it('posts once per Idempotency-Key', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const headers = { 'idempotency-key': randomUUID() };
    const first = await postComment(server, creator, bet, 'Once', headers);
    const again = await postComment(server, creator, bet, 'Once', headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await listComments(server, creator, bet)).body).toHaveLength(1);
  });
});

describe('deleting', () => {
  it('lets the author delete their own, leaving a tombstone without its text', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const comment = await addComment(server, member, bet, 'Oops');
    const response = await deleteComment(server, member, comment);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: comment.id,
      text: '',
      deletedAt: expect.any(String),
    });
    expect((await listComments(server, creator, bet)).body).toEqual([]);
    // Again: the same tombstone, nothing changes.
    expect((await deleteComment(server, member, comment)).body).toEqual(response.body);
  });

  it('lets a group admin delete anyone’s, and refuses another member with 403', async () => {
    const { group, creator, admin, member } = await createGroupWithRoles(server);
    const bystander = await createPlayer(server, 'Bystander');
    await joinGroup(server, bystander, group);
    const bet = await createBet(server, creator, group);
    const byMember = await addComment(server, member, bet, 'Trash talk');
    const byCreator = await addComment(server, creator, bet, 'Creator talk');

    const refused = await deleteComment(server, bystander, byMember);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: 'cannot_delete_comment',
      message: 'Only the author or a group admin can delete this comment.',
    });
    // A plain member cannot delete the creator's either.
    expect((await deleteComment(server, member, byCreator)).status).toBe(403);
    expect((await deleteComment(server, admin, byMember)).status).toBe(200);
    expect((await deleteComment(server, admin, byCreator)).status).toBe(200);
    expect((await listComments(server, bystander, bet)).body).toEqual([]);
  });
});

describe('never a pick', () => {
  it('sends no prediction or wager with a comment, on REST, the bus, the socket or the mirror', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, {
      betType: 'multiple_choice',
      betTypeConfig: { options: ['Zebra', 'Okapi'] },
    });
    await placeWager(server, member, bet, 'Okapi', 3);
    const watcher = await connectSocket(server, creator.accessToken);
    const recorder = recordEvents(server);
    try {
      const posted = await addComment(server, member, bet, 'Trust me');
      const heard = await watcher.waitFor('commentPosted', (c) => c.id === posted.id);
      await deleteComment(server, member, posted);
      const deleted = await watcher.waitFor('commentDeleted', (c) => c.id === posted.id);
      const listed = (await listComments(server, creator, bet)).body;
      const mirrored = (await pullAll(creator)).flatMap((page) => page.comments);
      const published = recorder.events
        .filter((event) => event.event.startsWith('comment'))
        .map((event) => event.payload);

      expect(Object.keys(posted).sort()).toEqual(COMMENT_KEYS);
      for (const payload of [heard, deleted, ...published])
        expect(Object.keys(payload).sort()).toEqual([...COMMENT_KEYS, 'version'].sort());
      for (const payload of [posted, heard, deleted, listed, mirrored, published]) {
        const text = JSON.stringify(payload);
        expect(text).not.toMatch(/okapi|prediction|points|wager/i);
      }
    } finally {
      recorder.stop();
      watcher.close();
    }
  });
});

describe('live', () => {
  it('reaches the group’s room with the row’s version, and nobody outside it', async () => {
    const { group, creator, member, outsider } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const [memberSocket, outsiderSocket] = await Promise.all([
      connectSocket(server, member.accessToken),
      connectSocket(server, outsider.accessToken),
    ]);
    try {
      const comment = await addComment(server, creator, bet, 'Live!');
      const heard = await memberSocket.waitFor('commentPosted', (c) => c.id === comment.id);
      expect(heard).toEqual({ ...comment, version: expect.any(Number) });
      await deleteComment(server, creator, comment);
      const tombstone = await memberSocket.waitFor('commentDeleted', (c) => c.id === comment.id);
      expect(tombstone.version).toBeGreaterThan(heard.version);
      await syncSockets(server, { client: outsiderSocket, userId: outsider.user.id });
      expect(outsiderSocket.heard('commentPosted')).toEqual([]);
      expect(outsiderSocket.heard('commentDeleted')).toEqual([]);
    } finally {
      memberSocket.close();
      outsiderSocket.close();
    }
  });

  it('tells the author’s sockets which pushed mutation a comment came from, and nobody else', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group);
    const [authorSocket, memberSocket] = await Promise.all([
      connectSocket(server, creator.accessToken),
      connectSocket(server, member.accessToken),
    ]);
    try {
      const device = { clientGroupID: randomUUID(), clientID: randomUUID() };
      const pushed = await server.request<SyncPushResponse>('POST', '/api/sync/push', {
        token: creator.accessToken,
        body: {
          ...device,
          mutations: [
            {
              id: 1,
              name: 'postComment',
              args: { params: { id: bet.id }, body: { text: 'Mine' } },
            },
          ],
        },
      });
      expect(pushed.status, pushed.text).toBe(200);
      const commentId = pushed.body.results[0]!.createdId;
      const own = await authorSocket.waitFor('commentPosted', (c) => c.id === commentId);
      const theirs = await memberSocket.waitFor('commentPosted', (c) => c.id === commentId);
      expect(own).toEqual({ ...theirs, clientID: device.clientID, mutationID: 1 });
      expect(Object.keys(theirs).sort()).toEqual([...COMMENT_KEYS, 'version'].sort());

      // A REST call is no pushed write: the author hears the comment as everyone does.
      const posted = await addComment(server, creator, bet, 'Through REST');
      const heard = await authorSocket.waitFor('commentPosted', (c) => c.id === posted.id);
      expect(heard).toEqual({ ...posted, version: expect.any(Number) });
      expect(authorSocket.heard('commentPosted')).toHaveLength(2);
    } finally {
      authorSocket.close();
      memberSocket.close();
    }
  });
});

describe('the mirror', () => {
  it('brings a group’s comments on a first sync, then new ones and deletions as tombstones', async () => {
    const owner = await createPlayer(server, 'Owner');
    const friend = await createPlayer(server, 'Friend');
    const group = await createGroup(server, owner);
    await joinGroup(server, friend, group);
    const bet = await createBet(server, owner, group);
    const kept = await addComment(server, owner, bet, 'Kept');
    const gone = await addComment(server, friend, bet, 'Gone before the first sync');
    await deleteComment(server, friend, gone);

    const first = await pullAll(friend);
    const firstComments = first.flatMap((page) => page.comments);
    expect(firstComments).toEqual([{ ...kept, version: expect.any(Number) }]);

    const cursor = first.at(-1)!.cursor;
    const quiet = await pullAll(friend, cursor);
    expect(quiet.flatMap((page) => page.comments)).toEqual([]);

    const added = await addComment(server, friend, bet, 'New');
    await deleteComment(server, owner, kept);
    const delta = await pullAll(friend, cursor);
    const changed = delta.flatMap((page) => page.comments);
    expect(changed.map((c) => [c.id, c.text, c.deletedAt === null])).toEqual([
      [kept.id, '', false],
      [added.id, 'New', true],
    ]);
    expect(delta.flatMap((page) => page.bets)).toEqual([]);
  });

  it('counts comments in the page size of a first sync', async () => {
    const pager = await startTestServer({ ...NO_EXPIRY_TIMER });
    try {
      const owner = await createPlayer(pager, 'Pager');
      const groups = [await createGroup(pager, owner), await createGroup(pager, owner)];
      for (const group of groups) {
        const bet = await createBet(pager, owner, group);
        for (let i = 0; i < 3; i += 1) await addComment(pager, owner, bet, `Comment ${i}`);
      }
      // Each group is 1 group + 1 member + 1 bet + 3 comments = 6 rows: a page of 8 holds one.
      const mirror = createMirrorService({ db: pager.database.db, pageRows: 8 });
      const caller = { id: owner.user.id, appName: owner.user.appName, isTemporary: true };
      const page1 = await mirror.pull(caller, MIRROR_START_CURSOR);
      expect(page1.hasMore).toBe(true);
      expect(page1.comments).toHaveLength(3);
      const page2 = await mirror.pull(caller, page1.cursor);
      expect(page2.hasMore).toBe(false);
      expect(page2.comments).toHaveLength(3);
    } finally {
      await pager.close();
    }
  });
});

describe('rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ ...NO_EXPIRY_TIMER, rateLimits: { commentsPerUser: 3 } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('answers 429 with Retry-After once a player posts too many comments in a minute', async () => {
    const owner = await createPlayer(limited, 'Chatty');
    const friend = await createPlayer(limited, 'Quiet');
    const group = await createGroup(limited, owner);
    await joinGroup(limited, friend, group);
    const bet = await createBet(limited, owner, group);
    for (let i = 0; i < 3; i += 1)
      expect((await postComment(limited, owner, bet, `Hi ${i}`)).status).toBe(201);
    const refused = await postComment(limited, owner, bet, 'One too many');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ seconds?\.$/),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Per user: the friend still talks, and reading is not limited.
    expect((await postComment(limited, friend, bet, 'My turn')).status).toBe(201);
    expect((await listComments(limited, owner, bet)).body).toHaveLength(4);
  });
});
