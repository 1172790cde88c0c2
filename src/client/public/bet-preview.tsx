import { Clock } from 'lucide-react';
import styles from './bet-preview.module.css';

const PREVIEW_ANSWERS = [
  { label: 'Yes', odds: '×1.6', isChosen: true },
  { label: 'No', odds: '×2.7', isChosen: false },
] as const;

const PREVIEW_LEADERS = [
  { rank: 1, name: 'Maya', points: 142 },
  { rank: 2, name: 'You', points: 128 },
  { rank: 3, name: 'Sam', points: 97 },
] as const;

/**
 * The landing page's illustration: a bet card and a leaderboard drawn in HTML and CSS, so
 * it follows the theme and costs no image download. Decorative, hidden from screen readers.
 */
export function BetPreview() {
  return (
    <div className={styles.stage} aria-hidden="true">
      <div className={styles.betCard}>
        <p className={styles.group}>Friday Quiz Crew</p>
        <p className={styles.betTitle}>Will Sam be late again?</p>
        <p className={styles.countdown}>
          <Clock size={14} /> 2h 14m left
        </p>
        <div className={styles.answers}>
          {PREVIEW_ANSWERS.map((answer) => (
            <span
              key={answer.label}
              className={answer.isChosen ? styles.answerChosen : styles.answer}
            >
              {answer.label}
              <span className={styles.odds}>{answer.odds}</span>
            </span>
          ))}
        </div>
        <p className={styles.payout}>
          <span className={styles.coin} />
          Wager 12 · If you win: about 19 points
        </p>
      </div>
      <ol className={styles.leaderboard}>
        {PREVIEW_LEADERS.map((leader) => (
          <li
            key={leader.rank}
            className={leader.name === 'You' ? styles.leaderYou : styles.leader}
          >
            <span className={styles.rank}>{leader.rank}</span>
            <span className={styles.name}>{leader.name}</span>
            <span className={styles.points}>
              <span className={styles.coin} />
              {leader.points}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
