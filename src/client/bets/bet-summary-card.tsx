import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { answerLabel } from '../../domain/bet-types';
import type { BetRow, WagerRow } from '../data/db';
import { PendingBadge } from '../ui/pending-badge';
import { Points } from '../ui/points';
import { BetPendingBadge } from './bet-meta';
import { CommentCount } from './comment-count';
import { Countdown } from './countdown';
import styles from './bet-summary-card.module.css';

// Spec 02 §2 "Bet summary card" (the lists): an active bet shows its countdown and a Place
// Bet link; a resolved one "Answer:" (a dash if none) and View Results; with a wager,
// "Yours:" and "Wagered:".

const SUMMARY_CARD_TEXT = {
  placeBet: 'Place Bet',
  viewResults: 'View Results',
  viewBet: 'View Bet',
  answer: 'Answer:',
  yours: 'Yours:',
  wagered: 'Wagered:',
  none: '—',
};

export function BetSummaryCard({
  bet,
  wager,
  headingLevel: Heading = 'h3',
}: {
  bet: BetRow;
  wager: WagerRow | undefined;
  headingLevel?: 'h2' | 'h3';
}) {
  const isActive = bet.state === 'active';
  const isResolved = bet.state === 'resolved';
  const link = isActive
    ? SUMMARY_CARD_TEXT.placeBet
    : isResolved
      ? SUMMARY_CARD_TEXT.viewResults
      : SUMMARY_CARD_TEXT.viewBet;
  return (
    <li className={styles.card}>
      <div className={styles.main}>
        <Heading className={styles.title}>
          {bet.title} <BetPendingBadge bet={bet} />
        </Heading>
        <div className={styles.line}>
          {isActive && (
            <Countdown expiresAt={bet.expiresAt} picksRevealedAt={bet.picksRevealedAt} />
          )}
          {isResolved && (
            <span>
              {SUMMARY_CARD_TEXT.answer}{' '}
              <strong>
                {bet.correctAnswer ? answerLabel(bet, bet.correctAnswer) : SUMMARY_CARD_TEXT.none}
              </strong>
            </span>
          )}
          {!isActive && !isResolved && <span className={styles.state}>{bet.state}</span>}
          <CommentCount betId={bet.id} hideZero />
        </div>
        {wager && (
          <div className={styles.line}>
            <span>
              {SUMMARY_CARD_TEXT.yours} <strong>{answerLabel(bet, wager.prediction)}</strong>
            </span>
            <span className={styles.wagered}>
              {SUMMARY_CARD_TEXT.wagered} <Points value={wager.points} size="small" word="wide" />
            </span>
            <PendingBadge row={wager} />
          </div>
        )}
      </div>
      <Link to={`/bets/${bet.id}`} className={styles.link} aria-label={`${link}: ${bet.title}`}>
        {link}
        <ChevronRight size={16} aria-hidden="true" />
      </Link>
    </li>
  );
}
