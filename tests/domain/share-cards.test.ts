import { describe, expect, it } from 'vitest';
import { resolvedBetCardOf } from '../../src/domain/share-cards';

// The resolved bet's share card says who called it and the winners' payout multiple.

const pick = (userId: number, userName: string, prediction: string, points: number) => ({
  userId,
  userName,
  prediction,
  points,
});

const yesNo = {
  title: 'Will it rain?',
  betType: 'yes_no',
  betTypeConfig: {},
  correctAnswer: 'yes',
  answerTotals: {},
};

describe('the resolved bet card', () => {
  it('says in words what the one winner won, and the multiple', () => {
    const card = resolvedBetCardOf(
      { ...yesNo, picks: [pick(1, 'Ben', 'yes', 4), pick(2, 'Ana', 'no', 2)] },
      'Friday Club',
    );
    expect(card.headline).toBe('Ben called it — won 6 (×1.5)');
    expect(card.detail).toBe('The answer: Yes');
  });

  it("names the winner and the pool's multiple on the winning answer", () => {
    const card = resolvedBetCardOf(
      {
        ...yesNo,
        picks: [pick(1, 'Maya', 'yes', 10), pick(2, 'Sam', 'no', 14)],
      },
      'Friday Club',
    );
    expect(card).toEqual({
      headline: 'Maya called it — won 24 (×2.4)',
      detail: 'The answer: Yes',
      betTitle: 'Will it rain?',
      groupName: 'Friday Club',
    });
  });

  it('names two winners, then the first two and how many others, biggest stake first', () => {
    const two = resolvedBetCardOf(
      {
        ...yesNo,
        picks: [pick(1, 'Maya', 'yes', 2), pick(2, 'Sam', 'yes', 3), pick(3, 'Jo', 'no', 5)],
      },
      'G',
    );
    expect(two.headline).toBe('Sam and Maya called it — won 10 between them (×2)');
    const four = resolvedBetCardOf(
      {
        ...yesNo,
        picks: [
          pick(1, 'Maya', 'yes', 1),
          pick(2, 'Sam', 'yes', 3),
          pick(3, 'Jo', 'yes', 2),
          pick(4, 'Ali', 'yes', 1),
          pick(5, 'Kim', 'no', 7),
        ],
      },
      'G',
    );
    expect(four.headline).toBe('Sam, Jo and 2 others called it — won 14 between them (×2)');
    expect(four.detail).toBe('The answer: Yes · 4 players won');
  });

  it('says plainly when nobody called it, and when nobody wagered', () => {
    const nobody = resolvedBetCardOf(
      { ...yesNo, picks: [pick(1, 'Maya', 'no', 2), pick(2, 'Sam', 'no', 1)] },
      'G',
    );
    expect(nobody.headline).toBe('Nobody called it: Yes');
    expect(nobody.detail).toBe('Every wager went back to its player.');
    expect(resolvedBetCardOf({ ...yesNo, picks: [] }, 'G').headline).toBe(
      'Nobody wagered. The answer: Yes',
    );
  });

  it('treats an over/under push as nobody calling it', () => {
    const card = resolvedBetCardOf(
      {
        ...yesNo,
        betType: 'over_under',
        betTypeConfig: { line: 2.5 },
        correctAnswer: '2.5',
        picks: [pick(1, 'Maya', 'over', 2), pick(2, 'Sam', 'under', 1)],
      },
      'G',
    );
    expect(card.headline).toMatch(/^Nobody called it: /);
  });

  it('falls back to the answer and its multiple without the picks', () => {
    const card = resolvedBetCardOf({ ...yesNo, picks: null, answerTotals: { yes: 5, no: 7 } }, 'G');
    expect(card.headline).toBe('The answer: Yes ×2.4');
  });
});
