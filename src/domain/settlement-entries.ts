import type { BetRules } from './bet-types';
import type { BetHistoryEntry, RevealedPick } from './fair-resolution';
import type { ResultEntry } from './leaderboard-periods';
import { distributionEvent, ledgerDelta, reversalEvent } from './ledger';
import { computeResolution, refunds, type PayoutWager } from './payout';

// The ledger's result entries of one bet, rebuilt from what every member's mirror holds: the
// bet, its picks (all wagers, shown once betting closed) and its history. Each settlement line
// moves points as the server's settlement did at that moment: a resolution pays, an undo takes
// back what was paid, a re-resolution does both, a cancel or expiry refunds (total unchanged).
// A settled bet's wagers never change, so the picks are the wagers every settlement read. So a
// device offline sums the same week, month and season as the server does from its ledger.

/** Picks as the payout rule reads wagers: they come in wager order, which their ids keep. */
export function picksAsWagers(picks: readonly RevealedPick[]): PayoutWager[] {
  return picks.map((pick, index) => ({
    id: index + 1,
    userId: pick.userId,
    prediction: pick.prediction,
    points: pick.points,
    createdAt: '1970-01-01T00:00:00.000Z',
  }));
}

type HistoryLine = Pick<BetHistoryEntry, 'id' | 'kind' | 'correctAnswer' | 'createdAt'>;

/** The result entries a bet's settlements wrote, oldest first. */
export function settlementEntries(
  bet: BetRules,
  picks: readonly RevealedPick[],
  history: readonly HistoryLine[],
): ResultEntry[] {
  const wagers = picksAsWagers(picks);
  const entries: ResultEntry[] = [];
  /** One settlement's entries: by `answer`'s resolution, or a refund of every stake (null). */
  const move = (answer: string | null, at: string, direction: 'pay' | 'reverse') => {
    const resolution = answer === null ? null : computeResolution(bet, wagers, answer);
    const refunded = resolution === null || resolution.outcome === 'refunded';
    for (const distribution of resolution?.distributions ?? refunds(wagers)) {
      const event =
        direction === 'pay'
          ? distributionEvent(distribution, refunded)
          : reversalEvent(distribution, refunded);
      entries.push({ userId: distribution.userId, totalDelta: ledgerDelta(event).totalDelta, at });
    }
  };
  // The answer paid now: undefined while nothing is paid.
  let paid: string | undefined;
  const ordered = [...history].sort(
    (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id,
  );
  for (const line of ordered) {
    if ((line.kind === 'resolved' || line.kind === 're_resolved') && line.correctAnswer !== null) {
      if (paid !== undefined) move(paid, line.createdAt, 'reverse');
      move(line.correctAnswer, line.createdAt, 'pay');
      paid = line.correctAnswer;
    } else if (line.kind === 'undone' && paid !== undefined) {
      move(paid, line.createdAt, 'reverse');
      paid = undefined;
    } else if (line.kind === 'cancelled' || line.kind === 'expired') {
      move(null, line.createdAt, 'pay');
    }
  }
  return entries;
}
