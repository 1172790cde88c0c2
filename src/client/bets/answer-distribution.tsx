import { Check } from 'lucide-react';
import { winningBadge } from '../../domain/bet-outcome';
import { answerLabel, findWinners, type BetRules } from '../../domain/bet-types';
import type { BetStatistics } from '../../domain/bets';
import { Card } from '../ui/card';
import { Points } from '../ui/points';
import styles from './results-panel.module.css';

// docs/groups-and-bets.md §2 "Answer Distribution", drawn as horizontal bars (docs/design.md "Results"): per
// answer its participants, percentage and points; the correct one in the success colour
// with a check (and the word "Correct", so colour is not the only signal).

const DISTRIBUTION_TEXT = {
  heading: 'Answer Distribution',
  /** "Correct", or "Closest" on a numeric bet (its closest guesses win). */
  correct: winningBadge,
  participants: (n: number) => `${n} ${n === 1 ? 'participant' : 'participants'}`,
};

export function AnswerDistribution({ stats, bet }: { stats: BetStatistics; bet: BetRules }) {
  const winners = winningAnswers(bet, stats);
  return (
    <Card>
      <h3 className={styles.heading}>{DISTRIBUTION_TEXT.heading}</h3>
      <ul className={styles.bars}>
        {stats.answerDistribution.map((entry) => {
          const isCorrect = winners.has(entry.answer);
          return (
            <li
              key={entry.answer}
              className={[styles.bar, isCorrect && styles.correct].filter(Boolean).join(' ')}
            >
              <div className={styles.barHead}>
                <span className={styles.barAnswer}>
                  {isCorrect && <Check size={16} aria-hidden="true" />}
                  {answerLabel(bet, entry.answer)}
                  {isCorrect && (
                    <span className={styles.correctTag}>{DISTRIBUTION_TEXT.correct(bet)}</span>
                  )}
                </span>
                <span className={styles.barPercent}>{Math.round(entry.percentage)}%</span>
              </div>
              <div className={styles.track} aria-hidden="true">
                <div
                  className={styles.fill}
                  style={{ width: `${Math.max(0, Math.min(100, entry.percentage))}%` }}
                />
              </div>
              <div className={styles.barFoot}>
                <span>{DISTRIBUTION_TEXT.participants(entry.participantCount)}</span>
                <Points value={entry.totalPoints} size="small" word="wide" />
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** The winning answers, by the payout rule itself (numeric: the closest guesses; over/under: the side of the line). */
function winningAnswers(bet: BetRules, stats: BetStatistics): Set<string> {
  if (!stats.isResolved || stats.correctAnswer === null) return new Set();
  try {
    const entries = stats.answerDistribution.map((entry, index) => ({
      id: index,
      prediction: entry.answer,
    }));
    const { winningWagerIds } = findWinners(bet, entries, stats.correctAnswer);
    return new Set([...winningWagerIds].map((id) => stats.answerDistribution[id]!.answer));
  } catch {
    return new Set();
  }
}
