import {
  answerChoices,
  findWinners,
  normalizeAnswer,
  validateCorrectAnswer,
  type BetRules,
} from './bet-types';
import type { BetStatistics } from './bets';
import { computeResolution, poolOf, type PayoutWager } from './payout';

// GET /bets/{id}/statistics (docs/groups-and-bets.md §3, the results panel of docs/groups-and-bets.md §2), computed from the
// bet's wagers. Winners are decided by the bet type's rule (bet-types.ts), as for the payout,
// so the panel agrees with it. Percentages are 0–100 with one decimal; the average is per
// participant with one decimal.

function roundTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

function percentOf(part: number, whole: number): number {
  return whole > 0 ? roundTenth((part / whole) * 100) : 0;
}

export type StatisticsInput = {
  bet: BetRules & { state: string; correctAnswer: string | null };
  wagers: readonly PayoutWager[];
  totalMembers: number;
  /** The viewer, whose own wager is reported; other members' predictions appear only as per-answer totals. */
  viewerId: number | null;
};

/**
 * The statistics of docs/groups-and-bets.md §3. Winners and losers are counted once the bet is resolved with a
 * valid answer: winners picked the winning answer, losers did not; an over/under push has
 * neither (everyone was refunded). The answer distribution lists the bet's choices in their
 * order (even those nobody picked), then other numeric guesses ascending.
 */
export function computeBetStatistics({
  bet,
  wagers,
  totalMembers,
  viewerId,
}: StatisticsInput): BetStatistics {
  const totalParticipants = new Set(wagers.map((wager) => wager.userId)).size;
  const totalPoints = poolOf(wagers);
  const isResolved = bet.state === 'resolved';
  const correctAnswer = bet.correctAnswer ?? null;
  const own = viewerId === null ? undefined : wagers.find((wager) => wager.userId === viewerId);

  const breakdown = {
    totalWinners: 0,
    winnerPercentage: 0,
    winnersPoints: 0,
    totalLosers: 0,
    loserPercentage: 0,
    losersPoints: 0,
  };
  let userWinnings: number | undefined;
  let refundReason: BetStatistics['refundReason'];
  if (isResolved && correctAnswer !== null && validateCorrectAnswer(bet, correctAnswer) === null) {
    const { winningWagerIds } = findWinners(bet, wagers, correctAnswer);
    // The payout itself says what each wager got back, so the viewer's line agrees with the ledger.
    const resolution = computeResolution(bet, wagers, correctAnswer);
    // Without a wager nobody got anything back: the panel says "No Participants", not a refund.
    refundReason = wagers.length === 0 ? null : resolution.refundReason;
    if (own)
      userWinnings = resolution.distributions
        .filter((entry) => entry.userId === own.userId)
        .reduce((sum, entry) => sum + entry.winnings, 0);
    // On a refund (the line was hit, or nobody was right) every stake came back: nobody lost.
    if (resolution.outcome === 'paid') {
      const winners = wagers.filter((wager) => winningWagerIds.has(wager.id));
      const losers = wagers.filter((wager) => !winningWagerIds.has(wager.id));
      breakdown.totalWinners = winners.length;
      breakdown.winnersPoints = poolOf(winners);
      breakdown.totalLosers = losers.length;
      breakdown.losersPoints = poolOf(losers);
      breakdown.winnerPercentage = percentOf(winners.length, wagers.length);
      breakdown.loserPercentage = percentOf(losers.length, wagers.length);
    }
  }

  const byAnswer = new Map<string, { participantCount: number; totalPoints: number }>();
  for (const choice of answerChoices(bet))
    byAnswer.set(choice, { participantCount: 0, totalPoints: 0 });
  const guesses: string[] = [];
  for (const wager of wagers) {
    const key = normalizeAnswer(bet, wager.prediction);
    let entry = byAnswer.get(key);
    if (!entry) {
      entry = { participantCount: 0, totalPoints: 0 };
      byAnswer.set(key, entry);
      guesses.push(key);
    }
    entry.participantCount += 1;
    entry.totalPoints += wager.points;
  }
  guesses.sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0));
  const answers = [...answerChoices(bet), ...guesses];

  return {
    isResolved,
    correctAnswer,
    totalParticipants,
    totalMembers,
    participationRate: percentOf(totalParticipants, totalMembers),
    totalPoints,
    averagePoints: totalParticipants > 0 ? roundTenth(totalPoints / totalParticipants) : 0,
    userWager: own
      ? {
          prediction: own.prediction,
          points: own.points,
          ...(userWinnings === undefined ? {} : { winnings: userWinnings }),
        }
      : null,
    ...(refundReason === undefined ? {} : { refundReason }),
    winnerLoserBreakdown: breakdown,
    answerDistribution: answers.map((answer) => {
      const entry = byAnswer.get(answer) ?? { participantCount: 0, totalPoints: 0 };
      return { answer, ...entry, percentage: percentOf(entry.participantCount, wagers.length) };
    }),
  };
}
