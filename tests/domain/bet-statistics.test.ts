import { describe, expect, it } from 'vitest';
import { computeBetStatistics } from '../../src/domain/bet-statistics';
import { betStatisticsSchema } from '../../src/domain/schemas/bets';

function wager(id: number, prediction: string, points: number) {
  return { id, userId: id, prediction, points, createdAt: '2030-01-01T00:00:00.000Z' };
}

const colours = {
  betType: 'multiple_choice',
  betTypeConfig: { options: ['Red', 'Green', 'Blue'] },
};

describe('computeBetStatistics', () => {
  it("reports participation, totals and the viewer's wager of an open bet, without winners yet", () => {
    const statistics = computeBetStatistics({
      bet: { ...colours, state: 'active', correctAnswer: null },
      wagers: [wager(1, 'Red', 2), wager(2, 'Blue', 3), wager(3, 'Red', 1)],
      totalMembers: 4,
      viewerId: 2,
    });
    expect(betStatisticsSchema.parse(statistics)).toEqual(statistics);
    expect(statistics).toMatchObject({
      isResolved: false,
      correctAnswer: null,
      totalParticipants: 3,
      totalMembers: 4,
      participationRate: 75,
      totalPoints: 6,
      averagePoints: 2,
      userWager: { prediction: 'Blue', points: 3 },
      winnerLoserBreakdown: { totalWinners: 0, totalLosers: 0 },
    });
    expect(statistics.answerDistribution).toEqual([
      { answer: 'Red', participantCount: 2, percentage: 66.7, totalPoints: 3 },
      { answer: 'Green', participantCount: 0, percentage: 0, totalPoints: 0 },
      { answer: 'Blue', participantCount: 1, percentage: 33.3, totalPoints: 3 },
    ]);
  });

  it('counts winners and losers of a resolved bet', () => {
    const statistics = computeBetStatistics({
      bet: { ...colours, state: 'resolved', correctAnswer: 'Red' },
      wagers: [wager(1, 'Red', 2), wager(2, 'Blue', 3), wager(3, 'Red', 1)],
      totalMembers: 3,
      viewerId: 9,
    });
    expect(statistics.userWager).toBeNull();
    expect(statistics.winnerLoserBreakdown).toEqual({
      totalWinners: 2,
      winnerPercentage: 66.7,
      winnersPoints: 3,
      totalLosers: 1,
      loserPercentage: 33.3,
      losersPoints: 3,
    });
  });

  it('gives no refund reason to a resolved bet nobody wagered on: nothing came back to anyone', () => {
    const statistics = computeBetStatistics({
      bet: { ...colours, state: 'resolved', correctAnswer: 'Red' },
      wagers: [],
      totalMembers: 3,
      viewerId: 1,
    });
    expect(statistics.totalParticipants).toBe(0);
    expect(statistics.refundReason).toBeNull();
  });

  it('counts the closest numeric guesses as winners and lists guesses in ascending order', () => {
    const statistics = computeBetStatistics({
      bet: { betType: 'numeric', betTypeConfig: {}, state: 'resolved', correctAnswer: '10' },
      wagers: [wager(1, '12', 1), wager(2, '8.0', 1), wager(3, '3', 1)],
      totalMembers: 3,
      viewerId: 1,
    });
    expect(statistics.winnerLoserBreakdown.totalWinners).toBe(2);
    expect(statistics.answerDistribution.map((entry) => entry.answer)).toEqual(['3', '8', '12']);
  });

  it('has neither winners nor losers on an over/under push', () => {
    const statistics = computeBetStatistics({
      bet: {
        betType: 'over_under',
        betTypeConfig: { line: 3 },
        state: 'resolved',
        correctAnswer: '3',
      },
      wagers: [wager(1, 'over', 1), wager(2, 'under', 1)],
      totalMembers: 2,
      viewerId: 1,
    });
    expect(statistics.winnerLoserBreakdown).toMatchObject({ totalWinners: 0, totalLosers: 0 });
  });

  it('reports zeros for a bet nobody wagered on', () => {
    const statistics = computeBetStatistics({
      bet: { ...colours, state: 'active', correctAnswer: null },
      wagers: [],
      totalMembers: 0,
      viewerId: 1,
    });
    expect(statistics).toMatchObject({
      totalParticipants: 0,
      participationRate: 0,
      totalPoints: 0,
      averagePoints: 0,
    });
  });
});
