import { describe, expect, it } from 'vitest';
import {
  notificationLink,
  notificationTag,
  notificationText,
} from '../../src/domain/notification-texts';
import type { Notification, NotificationPayload } from '../../src/domain/notifications';

// The words of an inbox entry, which the inbox and the push both show: the edges of the
// sentences built from numbers (one point, one minute, 11th/21st, a loss), the entries whose
// payload lacks a name, and where each entry leads and which push it replaces.

const UPDATED_AT = '2026-06-01T12:00:00.000Z';
const inMinutes = (minutes: number) =>
  new Date(Date.parse(UPDATED_AT) + minutes * 60_000).toISOString();

function text(kind: Notification['kind'], payload: Partial<NotificationPayload>, count = 1) {
  return notificationText({
    kind,
    count,
    payload: { groupName: 'Crew', ...payload },
    updatedAt: UPDATED_AT,
  });
}

const season = (payload: Partial<NotificationPayload>) =>
  text('seasonEnded', { groupName: 'Crew', seasonName: 'Spring', ...payload }).body;

describe('the texts of an inbox entry', () => {
  it('says how long a closing bet has left, in minutes below an hour and a half, then hours', () => {
    const closes = (expiresAt: string | undefined) =>
      text('closesSoon', { betTitle: 'Rain?', expiresAt }).body;
    expect(closes(inMinutes(1))).toBe("You haven't picked yet. Betting closes in about 1 minute.");
    // Already past when the entry was written: never "0 minutes" or a negative time.
    expect(closes(inMinutes(-5))).toMatch(/in about 1 minute\.$/);
    expect(closes(inMinutes(89))).toMatch(/in about 89 minutes\.$/);
    expect(closes(inMinutes(90))).toMatch(/in about 2 hours\.$/);
    expect(closes(undefined)).toMatch(/closes soon\.$/);
  });

  it('ranks a season’s players with the right English ordinals and signs the points', () => {
    const place = (rank: number, points: number) =>
      season({ rank, points, memberCount: 120, winnerName: 'Maya' });
    expect(place(2, 12)).toBe('You finished 2nd of 120, +12 points. Maya won it.');
    expect(place(3, -1)).toBe('You finished 3rd of 120, −1 point. Maya won it.');
    expect(place(4, 0)).toMatch(/^You finished 4th of 120, 0 points\./);
    for (const [rank, word] of [
      [11, '11th'],
      [12, '12th'],
      [13, '13th'],
      [21, '21st'],
      [22, '22nd'],
      [103, '103rd'],
      [111, '111th'],
    ] as const)
      expect(place(rank, 1)).toContain(`You finished ${word} of`);
  });

  it('tells the season’s winner, a shared first place, a season nobody scored in and the reset', () => {
    expect(season({ rank: 1, points: 30 })).toBe('You won it, +30 points!');
    expect(season({ rank: 1, points: 30, winnerName: 'Ben' })).toBe(
      'You shared first place with Ben, +30 points.',
    );
    expect(season({ availablePoints: 100 })).toBe(
      'Nobody won or lost points in it. Everyone starts again at 100 points.',
    );
    // A rank with no count or winner still reads as a sentence.
    expect(season({ rank: 2, points: 1 })).toBe('You finished 2nd of 2, +1 point. Someone won it.');
    expect(text('seasonEnded', { groupName: 'Crew' }).title).toBe('The season is over in Crew');
  });

  it('names what happened to a bet the player was in, with their refund', () => {
    const result = (outcome: NotificationPayload['outcome']) =>
      text('betResult', { betTitle: 'Rain?', outcome, wagerAmount: 10 });
    expect(result('cancelled').title).toBe('Cancelled: Rain?');
    expect(result('cancelled').body).toMatch(/^The bet was cancelled\. .*10.*\.$/);
    expect(result('expired').title).toBe('Expired: Rain?');
    expect(result('expired').body).toMatch(/^Nobody resolved it in time\. .*10.*\.$/);
    expect(result('undone')).toEqual({
      title: 'Undone: Rain?',
      body: 'The result was taken back. Wait for the new one.',
    });
  });

  it('fills in a missing bet, name or excerpt with words that still read', () => {
    expect(text('resultUndone', {}).title).toBe('The resolver undid the result of “a bet”');
    expect(text('disputeOpened', { betTitle: 'Rain?' })).toEqual({
      title: 'A player disputes “Rain?”',
      body: 'Take a look at the result.',
    });
    expect(text('disputeOpened', { actorName: 'Ann', reason: 'It rained' }).body).toBe(
      '“It rained”',
    );
    expect(text('disputeClosed', { review: 'reResolved', betTitle: 'Rain?' })).toEqual({
      title: 'New result for “Rain?”',
      body: 'An admin re-resolved it. It is final.',
    });
    expect(
      text('disputeClosed', { review: 'reResolved', actorName: 'Zoe', answer: 'No' }).body,
    ).toBe('Zoe re-resolved it: No. It is final.');
    expect(text('disputeClosed', { review: 'dismissed' }).body).toBe(
      'An admin looked at the dispute and kept the result. It is final.',
    );
    // The quoted comment was deleted: no excerpt to show.
    expect(text('comments', { betTitle: 'Rain?', actorName: 'Ann' }, 3)).toEqual({
      title: '3 new comments on Rain?',
      body: 'Open the bet to read them.',
    });
    expect(text('comments', { betTitle: 'Rain?', excerpt: 'Sure?' }).body).toBe('Someone: Sure?');
  });

  it('gathers several new bets or joins into one entry, and says one alone in full', () => {
    expect(text('betCreated', { groupName: 'Crew', betTitle: 'Rain?' }, 4)).toEqual({
      title: '4 new bets in Crew',
      body: 'The latest: Rain?',
    });
    expect(text('betCreated', { groupName: 'Crew', betTitle: 'Rain?' }).body).toBe(
      'A member asks: Rain?',
    );
    expect(text('memberJoined', { groupName: 'Crew' }, 2)).toEqual({
      title: '2 players joined Crew',
      body: 'The latest: a friend. Say hello!',
    });
    expect(text('memberJoined', { groupName: 'Crew', actorName: 'Ann' })).toEqual({
      title: 'Ann joined Crew',
      body: 'Crew has 2 players now.',
    });
  });

  it('rounds moved odds to one decimal and counts the pool and a top-up', () => {
    expect(
      text('oddsChanged', { betTitle: 'Rain?', answer: 'Yes', multiplier: 2.46, pool: 1 }),
    ).toEqual({
      title: 'The odds moved: Rain?',
      body: 'Your pick Yes pays 2.5×, with 1 point in the pool now.',
    });
    expect(text('oddsChanged', { answer: 'Yes' }).body).toBe(
      'Your pick Yes, with 0 points in the pool now.',
    );
    expect(text('floorTopUp', { groupName: 'Crew', availablePoints: 20, points: 1 })).toEqual({
      title: 'You were topped up to 20 points in Crew',
      body: 'A weekly top-up of 1 point, so you can keep playing.',
    });
  });
});

describe('where an entry leads and which push it replaces', () => {
  const entry = (kind: Notification['kind'], count = 1, betId: number | null = 9) => ({
    kind,
    count,
    groupId: 4,
    betId,
  });

  it('opens the bet, or the group for gathered bets, joins and top-ups, or its seasons', () => {
    expect(notificationLink(entry('betCreated'))).toBe('/bets/9');
    expect(notificationLink(entry('betCreated', 2))).toBe('/group/4');
    expect(notificationLink(entry('memberJoined', 1, null))).toBe('/group/4');
    expect(notificationLink(entry('floorTopUp', 1, null))).toBe('/group/4');
    expect(notificationLink(entry('seasonEnded', 1, null))).toBe('/group/4/seasons');
    expect(notificationLink(entry('comments', 3))).toBe('/bets/9');
  });

  it('replaces an older push about the same thing, and only that', () => {
    const tags = (
      [
        'memberJoined',
        'betCreated',
        'closesSoon',
        'resolveReminder',
        'floorTopUp',
        'seasonEnded',
        'oddsChanged',
        'comments',
        'betResult',
      ] as const
    ).map((kind) => notificationTag(entry(kind)));
    expect(tags).toEqual([
      'group-4-members',
      'group-4-bets',
      'bet-9-reminder',
      'bet-9-reminder',
      'group-4-top-up',
      'group-4-season',
      'bet-9-odds',
      'bet-9',
      'bet-9',
    ]);
  });
});
