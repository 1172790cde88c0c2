import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { betStateWords, outcomeOfStatistics } from '../../domain/bet-outcome';
import { answerLabel } from '../../domain/bet-types';
import { isBettingOpen } from '../../domain/fair-resolution';
import type { BetRow, WagerRow } from '../data/db';
import { PendingBadge } from '../ui/pending-badge';
import { Points } from '../ui/points';
import { useNow } from '../ui/use-now';
import { BetPendingBadge } from './bet-meta';
import { CommentCount } from './comment-count';
import { Countdown } from './countdown';
import { useBetStatistics } from './use-bets';
import styles from './bet-summary-card.module.css';

// docs/groups-and-bets.md §2 "Bet summary card" (the lists): an active bet shows its countdown and a Place
// Bet link while betting is open (View Bet once it closed: nothing can be placed then); a
// resolved one "Answer:" (a dash if none) and View Results; with a wager, "Yours:" and
// "Wagered:", and once settled what it gave the player, in the inbox's words.

const SUMMARY_CARD_TEXT = {
  placeBet: 'Place Bet',
  viewResults: 'View Results',
  viewBet: 'View Bet',
  answer: 'Answer:',
  yours: 'Yours:',
  wagered: 'Wagered:',
  none: '—',
};

/**
 * The whole card opens the bet: its one link stretches over it, so a tap anywhere on the card
 * leads there and the keyboard stops once per card. `groupName` names the bet's group where
 * bets of several groups are listed together (the dashboard).
 */
export function BetSummaryCard({
  bet,
  wager,
  groupName,
  commentCount,
  headingLevel: Heading = 'h3',
}: {
  bet: BetRow;
  wager: WagerRow | undefined;
  groupName?: string;
  /** Read for the whole list at once (readOpenBets, useGroupCommentCounts); undefined meanwhile. */
  commentCount: number | undefined;
  headingLevel?: 'h2' | 'h3';
}) {
  const now = useNow();
  const isActive = bet.state === 'active';
  const isResolved = bet.state === 'resolved';
  const stateWords = isActive ? null : betStateWords(bet, now, wager?.points);
  // Once betting closed nothing may be placed: the card opens the bet instead.
  const link = isBettingOpen(bet, now)
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
          {groupName && <span className={styles.group}>{groupName}</span>}
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
          {stateWords && <span>{stateWords}</span>}
          <CommentCount count={commentCount} hideZero />
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
        {isResolved && wager && <SettledOutcome betId={bet.id} />}
      </div>
      <Link to={`/bets/${bet.id}`} className={styles.link} aria-label={`${link}: ${bet.title}`}>
        {link}
        <ChevronRight size={16} aria-hidden="true" />
      </Link>
    </li>
  );
}

/**
 * The player's own result on a resolved bet they wagered on, worded as on the bet page and in
 * the inbox (nothing until known). Its own component: only those cards read statistics.
 */
function SettledOutcome({ betId }: { betId: number }) {
  const statistics = useBetStatistics(betId);
  const outcome = statistics ? outcomeOfStatistics(statistics) : null;
  return outcome && <p className={`${styles.outcome} ${styles[outcome.kind]}`}>{outcome.text}</p>;
}
