import { Clock } from 'lucide-react';
import { BET_LIMITS } from '../../domain/bet-limits';
import { answerLabel, type BetRules } from '../../domain/bet-types';
import {
  answerOdds,
  formatMultiplier,
  projectedPayout,
  totalOf,
  type AnswerTotals,
} from '../../domain/odds';
import styles from './bet-preview.module.css';

// The card plays by the game's rules, worked out by the same functions the wager form uses: a
// bet of base 3 (the largest), the player's 3× wager on Yes, the friends' points already in.
const PREVIEW_BET: BetRules = { betType: 'yes_no', betTypeConfig: {} };
const PREVIEW_BASE = Math.max(...BET_LIMITS.baseWagerTiers);
const PREVIEW_MULTIPLIER = 3;
const PREVIEW_WAGER = PREVIEW_BASE * PREVIEW_MULTIPLIER;
const PREVIEW_PICK = 'yes';
const FRIENDS_TOTALS: AnswerTotals = { yes: 6, no: 9 };
const PREVIEW_ANSWERS = answerOdds(PREVIEW_BET, {
  ...FRIENDS_TOTALS,
  [PREVIEW_PICK]: totalOf(FRIENDS_TOTALS, PREVIEW_PICK) + PREVIEW_WAGER,
}).map((odds) => ({
  label: answerLabel(PREVIEW_BET, odds.answer),
  odds: formatMultiplier(odds.multiplier),
  isChosen: odds.answer === PREVIEW_PICK,
}));
const PREVIEW_PAYOUT = projectedPayout(PREVIEW_BET, FRIENDS_TOTALS, PREVIEW_PICK, PREVIEW_WAGER);

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
          Wager {PREVIEW_WAGER} points ({PREVIEW_MULTIPLIER}× the base {PREVIEW_BASE}) · If you win:
          about {PREVIEW_PAYOUT} points
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
