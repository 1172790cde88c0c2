import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BETTING_CLOSED_WORDS,
  betStateWords,
  cancelledRefundText,
  disputeOpenedWords,
  refundReasonOf,
  refundReasonText,
  wagerOutcome,
  winningBadge,
} from '../../src/domain/bet-outcome';
import { computeBetStatistics } from '../../src/domain/bet-statistics';
import { betStatisticsSchema } from '../../src/domain/schemas/bets';
import { floorTopUpHint } from '../../src/domain/floor-top-up';
import { notificationText } from '../../src/domain/notification-texts';
import { computeResolution } from '../../src/domain/payout';

function wager(id: number, prediction: string, points: number) {
  return { id, userId: id, prediction, points, createdAt: `2030-01-01T00:00:0${id % 10}.000Z` };
}

describe('wagerOutcome', () => {
  it("says a win, a refund and a loss in the player's words", () => {
    expect(wagerOutcome({ stake: 2, winnings: 7 }).text).toBe('You won 7 points (+5)');
    expect(wagerOutcome({ stake: 3, winnings: 3 }).text).toBe('You got your 3 points back');
    expect(wagerOutcome({ stake: 2, winnings: 0 }).text).toBe('You lost 2 points');
    expect(wagerOutcome({ stake: 1, winnings: 0 }).text).toBe('You lost 1 point');
    expect(cancelledRefundText(4)).toBe('Your 4 points came back');
  });

  it('agrees with the inbox on every stake and payout', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 900 }),
        (stake, winnings) => {
          const outcome = wagerOutcome({ stake, winnings });
          const inbox = notificationText({
            kind: 'betResult',
            count: 1,
            updatedAt: '2030-01-01T00:00:00.000Z',
            payload: {
              groupName: 'Crew',
              betTitle: 'Rain?',
              outcome: 'resolved',
              wagerAmount: stake,
              winnings,
            },
          });
          expect(inbox.body).toBe(outcome.text);
          expect(outcome.kind).toBe(
            winnings > stake ? 'won' : winnings === stake ? 'refunded' : 'lost',
          );
        },
      ),
    );
  });
});

describe('winningBadge', () => {
  it('badges the closest guesses of a numeric bet "Closest", other winners "Correct"', () => {
    expect(winningBadge({ betType: 'numeric' })).toBe('Closest');
    expect(winningBadge({ betType: 'yes_no' })).toBe('Correct');
    expect(winningBadge({ betType: 'over_under' })).toBe('Correct');
  });
});

describe('refund on a resolved bet', () => {
  const overUnder = { betType: 'over_under', betTypeConfig: { line: 3 } };
  const colours = {
    betType: 'multiple_choice',
    betTypeConfig: { options: ['Red', 'Green', 'Blue'] },
  };

  it('names an answer on the line and a bet nobody won', () => {
    const picks = [wager(1, 'over', 1), wager(2, 'under', 2)];
    expect(refundReasonOf(overUnder, picks, '3')).toBe('push');
    expect(refundReasonOf(overUnder, picks, '5')).toBeNull();
    expect(refundReasonOf(colours, [wager(1, 'Red', 1)], 'Blue')).toBe('no_winner');
    expect(refundReasonText('push')).toMatch(/everyone got their points back/);
  });

  it('statistics list no refunded player under losers, and give the viewer what the payout gave', () => {
    const answers = ['Red', 'Green', 'Blue'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ pick: fc.constantFrom(...answers), times: fc.integer({ min: 1, max: 3 }) }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.constantFrom(...answers),
        fc.nat(),
        (entries, correct, viewerIndex) => {
          const wagers = entries.map((entry, index) =>
            wager(index + 1, entry.pick, entry.times * 2),
          );
          const viewer = wagers[viewerIndex % wagers.length]!;
          const bet = { ...colours, state: 'resolved', correctAnswer: correct };
          const stats = computeBetStatistics({
            bet,
            wagers,
            totalMembers: 9,
            viewerId: viewer.userId,
          });
          expect(betStatisticsSchema.strict().parse(stats)).toEqual(stats);
          const resolution = computeResolution(bet, wagers, correct);
          const paid = resolution.distributions.find((entry) => entry.userId === viewer.userId)!;
          expect(stats.userWager?.winnings).toBe(paid.winnings);
          expect(stats.refundReason).toBe(resolution.refundReason);
          if (resolution.outcome === 'refunded')
            expect(stats.winnerLoserBreakdown).toMatchObject({ totalWinners: 0, totalLosers: 0 });
        },
      ),
    );
  });
});

describe("a bet's state in players' words", () => {
  const at = Date.parse('2030-01-02T00:00:00.000Z');
  const bet = (state: string, expiresAt: string, picksRevealedAt: string | null = null) => ({
    state,
    expiresAt,
    picksRevealedAt,
  });

  it('says an active bet past its close waits for its result, whatever the stake, and nothing while open', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -3_600_000, max: 3_600_000 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 30 })),
        (offset, revealed, stake) => {
          const expiresAt = new Date(at + offset).toISOString();
          const words = betStateWords(
            bet('active', expiresAt, revealed ? expiresAt : null),
            at,
            stake,
          );
          const isOpen = offset > 0 && !revealed;
          expect(words).toBe(isOpen ? null : BETTING_CLOSED_WORDS);
        },
      ),
    );
    expect(BETTING_CLOSED_WORDS).toBe('betting closed — waiting for the result');
  });

  it("says a cancelled or expired bet gave the player's stake back, and nothing to one who did not wager", () => {
    const past = '2030-01-01T00:00:00.000Z';
    expect(betStateWords(bet('cancelled', past), at, 4)).toBe('Your 4 points came back');
    expect(betStateWords(bet('expired', past), at, 1)).toBe('Your 1 point came back');
    expect(betStateWords(bet('cancelled', past), at, null)).toBeNull();
    expect(betStateWords(bet('resolved', past), at, 4)).toBeNull();
  });

  it('words a dispute for the one who opened it and for everyone else', () => {
    expect(disputeOpenedWords('Maya', true)).toBe('You think this result is wrong:');
    expect(disputeOpenedWords('Maya', false)).toBe('Maya thinks this result is wrong:');
  });

  it('names the floor of the weekly top-up', () => {
    expect(floorTopUpHint(100)).toBe(
      'Members with fewer than 3 points get topped up to 10 points once a week.',
    );
    expect(floorTopUpHint(20)).toBe(
      'Members with fewer than 3 points get topped up to 9 points once a week.',
    );
  });
});

describe('the inbox and the bet page agree on a refund', () => {
  it('says a cancelled or expired bet gave the stake back in the words the bet page uses', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('cancelled' as const, 'expired' as const),
        fc.integer({ min: 1, max: 300 }),
        (outcome, stake) => {
          const inbox = notificationText({
            kind: 'betResult',
            count: 1,
            updatedAt: '2030-01-01T00:00:00.000Z',
            payload: { groupName: 'Crew', betTitle: 'Rain?', outcome, wagerAmount: stake },
          });
          const page = betStateWords(
            { state: outcome, expiresAt: '2030-01-01T00:00:00.000Z' },
            Date.parse('2030-01-02T00:00:00.000Z'),
            stake,
          );
          expect(page).not.toBeNull();
          expect(inbox.body).toContain(page!);
        },
      ),
    );
  });
});
