import { answerLabel, findWinners, normalizeAnswer, type BetRules } from './bet-types';
import type { Bet } from './bets';
import { formatMultiplier, oddsMultiplier } from './odds';

// The share cards: a resolved bet ("Ben called it — won 6 (×1.5)") and a season's podium, as
// plain data the client draws into a 1200×630 image. The multiple is the winners' payout
// multiple of payout.ts: the pool over the points staked on the winning answers, so each
// winning point came back about that many times; "won" is what the winners took home together:
// the whole pool (payout.ts gives every point of it to them). Every card says it is virtual points.

export const SHARE_CARD_TEXT = {
  disclaimer: 'Virtual points, no money',
  resolvedLabel: 'Resolved bet',
  podiumLabel: 'Season podium',
  calledIt: (who: string, won: number, multiple: string, winners: number) =>
    `${who} called it — won ${won}${winners > 1 ? ' between them' : ''} (${multiple})`,
  answerIs: (answer: string) => `The answer: ${answer}`,
  nobodyCalledIt: (answer: string) => `Nobody called it: ${answer}`,
  refunded: 'Every wager went back to its player.',
  noWagers: (answer: string) => `Nobody wagered. The answer: ${answer}`,
  answerWas: (answer: string, multiple: string) => `The answer: ${answer} ${multiple}`,
  winnersOf: (count: number) => `${count} ${count === 1 ? 'player' : 'players'} won`,
};

/** A resolved bet's card. */
export interface ResolvedBetCard {
  /** "Ben called it — won 6 (×1.5)", or plainly that nobody did. */
  headline: string;
  /** A second line when the headline needs one ("The answer: Yes", "Every wager went back to its player."). */
  detail: string | null;
  betTitle: string;
  groupName: string;
}

/** "Maya", "Maya and Sam", "Maya, Sam and 2 others". */
function namesOf(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  const others = names.length - 2;
  return `${names[0]}, ${names[1]} and ${others} ${others === 1 ? 'other' : 'others'}`;
}

type ResolvedBet = BetRules & Pick<Bet, 'title' | 'correctAnswer' | 'answerTotals' | 'picks'>;

/**
 * The card of a resolved bet. Winners come from the revealed picks by the payout rule itself;
 * without picks (an older copy) the card names the answer and its multiple only.
 */
export function resolvedBetCardOf(bet: ResolvedBet, groupName: string): ResolvedBetCard {
  const answer = bet.correctAnswer === null ? '' : answerLabel(bet, bet.correctAnswer);
  const card = { betTitle: bet.title, groupName, detail: null };
  const picks = bet.picks;
  if (!picks || bet.correctAnswer === null) {
    const totals = bet.answerTotals ?? {};
    const pool = Object.values(totals).reduce((sum, points) => sum + points, 0);
    const onAnswer =
      bet.correctAnswer === null ? 0 : (totals[normalizeAnswer(bet, bet.correctAnswer)] ?? 0);
    return {
      ...card,
      headline: SHARE_CARD_TEXT.answerWas(
        answer,
        formatMultiplier(oddsMultiplier(pool, onAnswer)),
      ).trim(),
    };
  }
  if (picks.length === 0) return { ...card, headline: SHARE_CARD_TEXT.noWagers(answer) };
  const entries = picks.map((pick, id) => ({ id, prediction: pick.prediction }));
  const { isPush, winningWagerIds } = findWinners(bet, entries, bet.correctAnswer);
  const winners = isPush ? [] : picks.filter((_, id) => winningWagerIds.has(id));
  if (winners.length === 0)
    return {
      ...card,
      headline: SHARE_CARD_TEXT.nobodyCalledIt(answer),
      detail: SHARE_CARD_TEXT.refunded,
    };
  const pool = picks.reduce((sum, pick) => sum + pick.points, 0);
  const winningStake = winners.reduce((sum, pick) => sum + pick.points, 0);
  const byPoints = [...winners].sort((a, b) => b.points - a.points);
  return {
    ...card,
    headline: SHARE_CARD_TEXT.calledIt(
      namesOf(byPoints.map((pick) => pick.userName)),
      pool,
      formatMultiplier(oddsMultiplier(pool, winningStake)),
      winners.length,
    ),
    detail:
      winners.length > 2
        ? `${SHARE_CARD_TEXT.answerIs(answer)} · ${SHARE_CARD_TEXT.winnersOf(winners.length)}`
        : SHARE_CARD_TEXT.answerIs(answer),
  };
}
