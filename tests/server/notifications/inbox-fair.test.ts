import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import { notificationText } from '../../../src/domain/notification-texts';
import type { Notification } from '../../../src/domain/notifications';
import { runFloorTopUp } from '../../../src/server/jobs/floor-top-up.job';
import { createBet, expiresIn, HOUR, placeWager, resolve } from '../bets/bet.factories';
import { addComment, deleteComment } from '../comments/comment.factories';
import {
  createGroupWithRoles,
  createPlayer,
  joinGroup,
  makeAdmin,
} from '../groups/group.factories';
import { useTestServer } from '../harness';
import { inboxOf, NO_TIMERS } from './notification.factories';

// What happens to a result after it is given reaches the inbox (undone, disputed, reviewed),
// a deleted comment stops counting, and a weekly top-up tells its member.

const server = useTestServer(NO_TIMERS);

const post = (path: string, user: AuthResponse, body?: object) =>
  server.request('POST', path, { token: user.accessToken, ...(body ? { body } : {}) });

async function entriesOf(user: AuthResponse, kind: Notification['kind'], betId?: number) {
  await server.app.notifications.idle();
  return (await inboxOf(server, user)).notifications.filter(
    (n) => n.kind === kind && (betId === undefined || n.betId === betId),
  );
}

/** `member` created the bet; `admin` picks yes (3), `creator` no (9); resolved yes by `member`. */
async function resolvedBet() {
  const roles = await createGroupWithRoles(server, { defaultPoints: 100 });
  const bet = await createBet(server, roles.member, roles.group, {
    title: 'Rain on Sunday?',
    expiresAt: expiresIn(server, HOUR),
    baseWagerAmount: 3,
  });
  await placeWager(server, roles.admin, bet, 'yes', 3);
  await placeWager(server, roles.creator, bet, 'no', 9);
  expect((await resolve(server, roles.member, bet, 'yes')).status).toBe(200);
  return { ...roles, bet };
}

const dispute = (user: AuthResponse, bet: Pick<Bet, 'id'>) =>
  post(`/api/bets/${bet.id}/dispute`, user, { reason: 'It poured all day.' });

describe('a result undone', () => {
  it('tells every participant, and the old result no longer claims a win until it is resolved again', async () => {
    const { admin, creator, member, bet } = await resolvedBet();
    expect((await entriesOf(admin, 'betResult', bet.id))[0]?.payload.winnings).toBe(12);

    expect((await post(`/api/bets/${bet.id}/undo-resolution`, member)).status).toBe(200);
    for (const user of [admin, creator]) {
      const [undone] = await entriesOf(user, 'resultUndone', bet.id);
      const name = member.user.displayName;
      expect(undone).toMatchObject({ readAt: null, payload: { actorName: name } });
      expect(notificationText(undone!).title).toBe(`${name} undid the result of “Rain on Sunday?”`);
    }
    expect(await entriesOf(member, 'resultUndone', bet.id)).toEqual([]);
    const [superseded] = await entriesOf(admin, 'betResult', bet.id);
    expect(superseded).toMatchObject({
      readAt: expect.any(String),
      payload: { outcome: 'undone' },
    });
    expect(notificationText(superseded!).body).not.toMatch(/You won/);

    // Resolved again: the result says what it pays now, unread; a second undo is a second entry.
    expect((await resolve(server, member, bet, 'no')).status).toBe(200);
    const [again] = await entriesOf(creator, 'betResult', bet.id);
    expect(again).toMatchObject({ readAt: null, payload: { outcome: 'resolved', winnings: 12 } });
    expect((await entriesOf(admin, 'betResult', bet.id))[0]?.payload.winnings).toBe(0);
    expect((await post(`/api/bets/${bet.id}/undo-resolution`, member)).status).toBe(200);
    expect(await entriesOf(admin, 'resultUndone', bet.id)).toHaveLength(2);
  });
});

describe('a dispute', () => {
  it('asks the bet’s creator and whoever may judge it (not the disputer, nor an admin with a stake), with the reason', async () => {
    const { group, admin, creator, member, bet } = await resolvedBet();
    const otherAdmin = await createPlayer(server, 'Second admin');
    await joinGroup(server, otherAdmin, group);
    await makeAdmin(server, creator, group, otherAdmin);
    expect((await dispute(creator, bet)).status).toBe(200);
    for (const user of [member, otherAdmin]) {
      const [opened] = await entriesOf(user, 'disputeOpened', bet.id);
      expect(opened).toMatchObject({
        payload: { actorName: creator.user.displayName, reason: 'It poured all day.' },
      });
      expect(notificationText(opened!)).toEqual({
        title: `${creator.user.displayName} disputes “Rain on Sunday?”`,
        body: '“It poured all day.”',
      });
    }
    expect(await entriesOf(creator, 'disputeOpened', bet.id)).toEqual([]);
    // `admin` wagered: they may not judge, so they are not asked to.
    expect(await entriesOf(admin, 'disputeOpened', bet.id)).toEqual([]);
  });

  it('tells the disputer and the participants how it ended: re-resolved', async () => {
    const { admin, creator, member, bet } = await resolvedBet();
    await dispute(creator, bet);
    // Both admins wagered: `member`, who did not, judges.
    expect(
      (
        await server.request('PUT', `/api/bets/${bet.id}/re-resolve`, {
          token: member.accessToken,
          body: { correctAnswer: 'no' },
        })
      ).status,
    ).toBe(200);
    for (const user of [creator, admin]) {
      const [closed] = await entriesOf(user, 'disputeClosed', bet.id);
      expect(closed).toMatchObject({ payload: { review: 'reResolved', answer: 'No' } });
      expect(notificationText(closed!).title).toBe('New result for “Rain on Sunday?”');
    }
    expect(await entriesOf(member, 'disputeClosed', bet.id)).toEqual([]);
    // Each result says what the new answer pays.
    expect((await entriesOf(creator, 'betResult', bet.id))[0]?.payload.winnings).toBe(12);
    expect((await entriesOf(admin, 'betResult', bet.id))[0]?.payload.winnings).toBe(0);
  });

  it('tells the disputer and the participants how it ended: dismissed', async () => {
    const { admin, creator, member, bet } = await resolvedBet();
    await dispute(creator, bet);
    expect((await post(`/api/bets/${bet.id}/dispute/dismiss`, member)).status).toBe(200);
    const [closed] = await entriesOf(creator, 'disputeClosed', bet.id);
    expect(closed).toMatchObject({
      payload: { review: 'dismissed', actorName: member.user.displayName },
    });
    expect(notificationText(closed!).title).toBe('The result of “Rain on Sunday?” stands');
    expect(await entriesOf(admin, 'disputeClosed', bet.id)).toHaveLength(1);
  });
});

describe('a deleted comment', () => {
  it('lowers the unread count of the entry it was counted in, and removes it at zero', async () => {
    const { group, creator, member, admin } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { title: 'Who wins?' });
    const first = await addComment(server, member, bet, 'Surely not!');
    const second = await addComment(server, admin, bet, 'Surely yes!');
    let [entry] = await entriesOf(creator, 'comments', bet.id);
    expect(entry).toMatchObject({ count: 2, payload: { excerpt: 'Surely yes!' } });

    expect((await deleteComment(server, admin, second)).status).toBe(200);
    [entry] = await entriesOf(creator, 'comments', bet.id);
    // It quoted the deleted comment: it quotes no more.
    expect(entry).toMatchObject({ count: 1, readAt: null });
    expect(entry!.payload.excerpt).toBeUndefined();
    // The member's own entry counts the admin's comment only.
    expect((await entriesOf(member, 'comments', bet.id))[0]).toBeUndefined();

    const before = (await inboxOf(server, creator)).unreadCount;
    expect((await deleteComment(server, member, first)).status).toBe(200);
    expect(await entriesOf(creator, 'comments', bet.id)).toEqual([]);
    expect((await inboxOf(server, creator)).unreadCount).toBe(before - 1);
  });

  it('leaves an entry read since alone, and counts in the new one only what came after', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const bet = await createBet(server, creator, group, { title: 'Who wins?' });
    const old = await addComment(server, member, bet, 'Old news');
    const [read] = await entriesOf(creator, 'comments', bet.id);
    server.clock.advance(1000);
    const marked = await post('/api/notifications/read', creator, { ids: [read!.id] });
    expect(marked.status, marked.text).toBe(200);
    server.clock.advance(1000);
    await addComment(server, member, bet, 'Fresh news');
    expect((await deleteComment(server, member, old)).status).toBe(200);
    const entries = await entriesOf(creator, 'comments', bet.id);
    expect(entries.map((n) => [n.count, n.readAt === null])).toEqual([
      [1, true],
      [1, false],
    ]);
  });
});

describe('a weekly top-up', () => {
  it('tells the member, once a week, without a push', async () => {
    const { group, creator, member } = await createGroupWithRoles(server, { defaultPoints: 10 });
    const bet = await createBet(server, creator, group, { baseWagerAmount: 3 });
    await placeWager(server, member, bet, 'yes', 9);
    const now = server.clock.now();
    const made = await runFloorTopUp({ db: server.database.db, events: server.app.events }, now);
    expect(made.filter((t) => t.userId === member.user.id)).toHaveLength(1);
    await runFloorTopUp({ db: server.database.db, events: server.app.events }, now);
    const entries = await entriesOf(member, 'floorTopUp');
    expect(entries).toHaveLength(1);
    expect(notificationText(entries[0]!).title).toBe(
      `You were topped up to 9 points in ${group.name}`,
    );
  });
});
