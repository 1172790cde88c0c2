import { BET_TYPES, betTypeRulesOf, type BetRules, type BetType } from './bet-types';
import { parseDecimal } from './decimal';
import { msOf } from './leaderboard-periods';
import { missShare, type HeadToHead, type MemberStats, type TypeAccuracy } from './member-stats';
import { computeResolution, type PayoutWager } from './payout';

// A member's record from the resolved bets they played, by the payout rule: the server reads the
// bets and their wagers from its tables, a device offline from its mirror (a closed bet's picks
// are its wagers). Both call these, so the stats page shows the same numbers either way.

/** A resolved bet with every wager on it (the rule that picks the winners reads them all). */
export interface PlayedBet {
  bet: BetRules & {
    id: number;
    title: string;
    betType: BetType | string;
    correctAnswer: string | null;
    resolvedAt: string | Date | null;
  };
  wagers: readonly PayoutWager[];
}

/** How one member fared on one resolved bet. */
export interface Outcome {
  bet: PlayedBet['bet'];
  result: 'won' | 'lost' | 'refunded';
  /** winnings − stake: what the bet did to their total. */
  net: number;
  /** Numeric bets: how far the guess was, as a share of the answer. */
  miss: number | null;
}

/** Per user, per bet id: each asked member's outcome on each bet they wagered on. */
export function memberOutcomes(
  played: readonly PlayedBet[],
  userIds: readonly number[],
): Map<number, Map<number, Outcome>> {
  const result = new Map<number, Map<number, Outcome>>(userIds.map((id) => [id, new Map()]));
  for (const { bet, wagers } of played) {
    const answer = bet.correctAnswer ?? '';
    const resolution = computeResolution(bet, wagers, answer);
    const winningIds = new Set(resolution.winningWagerIds);
    const refunded = resolution.outcome === 'refunded';
    for (const wager of wagers) {
      const outcomes = result.get(wager.userId);
      if (!outcomes) continue;
      const distribution = resolution.distributions.find((entry) => entry.userId === wager.userId);
      outcomes.set(bet.id, {
        bet,
        result: refunded ? 'refunded' : winningIds.has(wager.id) ? 'won' : 'lost',
        net: distribution ? distribution.winnings - distribution.wagerAmount : 0,
        miss: bet.betType === 'numeric' ? numericMiss(wager.prediction, answer) : null,
      });
    }
  }
  return result;
}

function numericMiss(guess: string, answer: string): number | null {
  if (!parseDecimal(guess) || !parseDecimal(answer)) return null;
  return missShare(Number(guess), Number(answer));
}

function byResolution(a: Outcome, b: Outcome): number {
  const timeA = a.bet.resolvedAt ? msOf(a.bet.resolvedAt) : 0;
  const timeB = b.bet.resolvedAt ? msOf(b.bet.resolvedAt) : 0;
  return timeA - timeB || a.bet.id - b.bet.id;
}

/** The record part of a member's stats: played, won, lost, net, best win, streak, accuracy. */
export function summariseOutcomes(
  outcomes: readonly Outcome[],
): Pick<
  MemberStats,
  'betsPlayed' | 'won' | 'lost' | 'winRate' | 'netPoints' | 'bestWin' | 'streak' | 'accuracy'
> {
  const ordered = [...outcomes].sort(byResolution);
  const won = ordered.filter((entry) => entry.result === 'won').length;
  const lost = ordered.filter((entry) => entry.result === 'lost').length;
  let bestWin: MemberStats['bestWin'] = null;
  for (const entry of ordered)
    if (entry.result === 'won' && entry.net > (bestWin?.points ?? -Infinity))
      bestWin = { betId: entry.bet.id, title: entry.bet.title, points: entry.net };
  let streak: MemberStats['streak'] = null;
  for (const entry of [...ordered].reverse()) {
    if (entry.result === 'refunded') continue;
    if (!streak) streak = { kind: entry.result, count: 1 };
    else if (streak.kind === entry.result) streak.count += 1;
    else break;
  }
  return {
    betsPlayed: ordered.length,
    won,
    lost,
    winRate: won + lost > 0 ? won / (won + lost) : null,
    netPoints: ordered.reduce((sum, entry) => sum + entry.net, 0),
    bestWin,
    streak,
    accuracy: accuracyByType(ordered),
  };
}

function accuracyByType(outcomes: readonly Outcome[]): TypeAccuracy[] {
  return BET_TYPES.flatMap((betType: BetType) => {
    const ofType = outcomes.filter((entry) => entry.bet.betType === betType);
    if (ofType.length === 0) return [];
    const misses = ofType.flatMap((entry) => (entry.miss === null ? [] : [entry.miss]));
    const won = ofType.filter((entry) => entry.result === 'won').length;
    const lost = ofType.filter((entry) => entry.result === 'lost').length;
    return [
      {
        betType,
        name: betTypeRulesOf(betType)?.name ?? betType,
        played: ofType.length,
        decided: won + lost,
        won,
        averageMiss:
          betType === 'numeric' && misses.length > 0
            ? misses.reduce((sum, miss) => sum + miss, 0) / misses.length
            : null,
      },
    ];
  });
}

/** Two members on the resolved bets both played: how often each was right, and their nets. */
export function headToHeadOf(
  mine: ReadonlyMap<number, Outcome>,
  theirs: ReadonlyMap<number, Outcome> | undefined,
  other: { userId: number; name: string },
): HeadToHead {
  const together = [...mine.values()].flatMap((entry) => {
    const their = theirs?.get(entry.bet.id);
    return their ? [[entry, their] as const] : [];
  });
  return {
    otherUserId: other.userId,
    otherName: other.name,
    betsTogether: together.length,
    youRight: together.filter(([you]) => you.result === 'won').length,
    themRight: together.filter(([, them]) => them.result === 'won').length,
    youNet: together.reduce((sum, [you]) => sum + you.net, 0),
    themNet: together.reduce((sum, [, them]) => sum + them.net, 0),
  };
}
