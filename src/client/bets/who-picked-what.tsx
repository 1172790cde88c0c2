import { Check, EyeOff, Users } from 'lucide-react';
import { winningBadge } from '../../domain/bet-outcome';
import { answerChoices, answerLabel, findWinners, normalizeAnswer } from '../../domain/bet-types';
import type { RevealedPick } from '../../domain/fair-resolution';
import type { BetRow } from '../data/db';
import { Card } from '../ui/card';
import { Points } from '../ui/points';
import styles from './who-picked-what.module.css';

// "Who picked what": once betting has closed (or the bet is settled) every member
// sees each pick, grouped by answer, with the name, the points and their multiple of the base
// wager; the winning answers carry a check and the word "Correct". While betting is open only
// the rule shows: others' picks stay hidden (docs/architecture.md §5).

export const PICKS_TEXT = {
  heading: 'Who picked what',
  hidden: 'Picks are revealed when betting closes.',
  none: 'Nobody wagered on this bet.',
  /** "Correct", or "Closest" on a numeric bet (its closest guesses win). */
  correct: winningBadge,
  you: 'You',
  players: (n: number) => `${n} ${n === 1 ? 'player' : 'players'}`,
  multiple: (n: number) => `${n}×`,
  multipleLabel: (n: number) => `${n} times the base wager`,
};

interface AnswerGroup {
  answer: string;
  picks: RevealedPick[];
  total: number;
}

export function WhoPickedWhat({
  bet,
  isClosed,
  viewerId,
}: {
  bet: BetRow;
  isClosed: boolean;
  viewerId: number | undefined;
}) {
  const headingId = `picks-${bet.id}`;
  if (!isClosed || !bet.picks)
    return (
      <p className={styles.hidden}>
        <EyeOff size={16} aria-hidden="true" />
        {PICKS_TEXT.hidden}
      </p>
    );
  const groups = groupByAnswer(bet, bet.picks);
  const winners = winningAnswers(bet, groups);
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.heading}>
        <Users size={18} aria-hidden="true" />
        {PICKS_TEXT.heading}
      </h3>
      <Card className={styles.card}>
        {groups.length === 0 ? (
          <p className={styles.empty}>{PICKS_TEXT.none}</p>
        ) : (
          <ul className={styles.answers}>
            {groups.map((group) => {
              const isCorrect = winners.has(group.answer);
              return (
                <li
                  key={group.answer}
                  className={[styles.answer, isCorrect && styles.correct].filter(Boolean).join(' ')}
                >
                  <div className={styles.answerHead}>
                    <span className={styles.answerLabel}>
                      {isCorrect && <Check size={16} aria-hidden="true" />}
                      {answerLabel(bet, group.answer)}
                      {isCorrect && (
                        <span className={styles.correctTag}>{PICKS_TEXT.correct(bet)}</span>
                      )}
                    </span>
                    <span className={styles.answerMeta}>
                      {PICKS_TEXT.players(group.picks.length)} ·{' '}
                      <Points value={group.total} size="small" word="never" />
                    </span>
                  </div>
                  <ul className={styles.picks}>
                    {group.picks.map((pick) => (
                      <li key={pick.userId} className={styles.pick}>
                        <span className={styles.name}>
                          {pick.userName}
                          {pick.userId === viewerId && (
                            <span className={styles.you}>{PICKS_TEXT.you}</span>
                          )}
                        </span>
                        <span className={styles.amount}>
                          <Points value={pick.points} size="small" word="wide" />
                          <span
                            className={styles.multiple}
                            aria-label={PICKS_TEXT.multipleLabel(pick.points / bet.baseWagerAmount)}
                          >
                            {PICKS_TEXT.multiple(pick.points / bet.baseWagerAmount)}
                          </span>
                        </span>
                      </li>
                    ))}
                  </ul>
                </li>
              );
            })}
          </ul>
        )}
      </Card>
    </section>
  );
}

/** The picks by (normalised) answer: a choice bet in its answers' order, a number bet by value; most points first within. */
function groupByAnswer(bet: BetRow, picks: readonly RevealedPick[]): AnswerGroup[] {
  const byAnswer = new Map<string, AnswerGroup>();
  for (const pick of picks) {
    const answer = normalizeAnswer(bet, pick.prediction);
    const group = byAnswer.get(answer) ?? { answer, picks: [], total: 0 };
    group.picks.push(pick);
    group.total += pick.points;
    byAnswer.set(answer, group);
  }
  const order = answerChoices(bet);
  const rank = (answer: string) => {
    const index = order.indexOf(answer);
    return index >= 0 ? index : Number(answer);
  };
  for (const group of byAnswer.values()) group.picks.sort((a, b) => b.points - a.points);
  return [...byAnswer.values()].sort((a, b) => rank(a.answer) - rank(b.answer));
}

/** The winning answers of a resolved bet, by the payout rule itself. */
function winningAnswers(bet: BetRow, groups: readonly AnswerGroup[]): Set<string> {
  if (bet.state !== 'resolved' || bet.correctAnswer === null) return new Set();
  try {
    const entries = groups.map((group, index) => ({ id: index, prediction: group.answer }));
    const { winningWagerIds } = findWinners(bet, entries, bet.correctAnswer);
    return new Set([...winningWagerIds].map((id) => groups[id]!.answer));
  } catch {
    return new Set();
  }
}
