import { RotateCw, Trophy, Undo2, Users } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { outcomeOfStatistics, refundReasonText } from '../../domain/bet-outcome';
import { answerLabel, type BetRules } from '../../domain/bet-types';
import { errorMessage } from '../data/api-client';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { Points } from '../ui/points';
import { Spinner } from '../ui/spinner';
import { AnswerDistribution } from './answer-distribution';
import { loadBetStatistics } from './bet-actions';
import { ResultsSummary } from './results-summary';
import { useBetStatistics } from './use-bets';
import styles from './results-panel.module.css';

// docs/groups-and-bets.md §2 "Bet results panel": the statistics the mirror holds for a resolved bet (readable
// offline). A resolve still waiting in the outbox (`isPending`) has no results on the server
// yet: they come with the pull once it is confirmed.

const RESULTS_TEXT = {
  loading: 'Loading Results...',
  failedTitle: 'Failed to Load Results',
  failed: 'Failed to load bet statistics. Please try again.',
  retry: 'Retry',
  idRequired: 'Bet ID is required',
  resolved: 'Bet Resolved',
  yourWager: 'Your Wager',
  noParticipants: 'No Participants',
  noWagers: "This bet hasn't received any wagers yet.",
};

export function ResultsPanel({
  betId,
  bet,
  isPending = false,
}: {
  betId: number | undefined;
  bet: BetRules;
  isPending?: boolean;
}) {
  const cached = useBetStatistics(betId);
  const [status, setStatus] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const [failure, setFailure] = useState('');

  // The mirror brings a resolved bet's statistics with the bet. Only when it has none (yet) are
  // they asked for (offline that fails at once, and Retry is offered).
  const fetchStatistics = useCallback(() => {
    if (betId === undefined || isPending) return;
    loadBetStatistics(betId).then(
      () => setStatus('loaded'),
      (error: unknown) => {
        console.warn(`Loading the statistics of bet ${betId} failed`, error);
        setFailure(errorMessage(error, RESULTS_TEXT.failed));
        setStatus('failed');
      },
    );
  }, [betId, isPending]);
  const isMissing = cached === null;
  useEffect(() => {
    if (isMissing) fetchStatistics();
  }, [isMissing, fetchStatistics]);
  const retry = () => {
    setStatus('loading');
    fetchStatistics();
  };

  if (betId === undefined)
    return (
      <Card>
        <p role="alert">{RESULTS_TEXT.idRequired}</p>
      </Card>
    );
  if (!cached) {
    if (status === 'failed')
      return (
        <Card>
          <EmptyState
            headingLevel="h3"
            title={RESULTS_TEXT.failedTitle}
            action={
              <Button
                variant="secondary"
                icon={<RotateCw size={16} aria-hidden="true" />}
                onClick={retry}
              >
                {RESULTS_TEXT.retry}
              </Button>
            }
          >
            {failure}
          </EmptyState>
        </Card>
      );
    return (
      <Card className={styles.loading} aria-busy="true">
        <Spinner size="medium" />
        <p>{RESULTS_TEXT.loading}</p>
      </Card>
    );
  }

  const stats = cached;
  // A refund (the answer on the line, or nobody right) crowns nobody: no trophy, and it says why.
  const refund = stats.refundReason ?? null;
  const outcome = outcomeOfStatistics(stats);
  return (
    <div className={styles.panel}>
      {stats.isResolved && stats.correctAnswer !== null && (
        <div className={`${styles.banner} ${refund ? styles.refundBanner : ''}`} role="status">
          {refund ? (
            <Undo2 size={22} aria-hidden="true" />
          ) : (
            <Trophy size={22} aria-hidden="true" />
          )}
          <div>
            <p className={styles.bannerTitle}>{RESULTS_TEXT.resolved}</p>
            <p className={styles.bannerAnswer}>{answerLabel(bet, stats.correctAnswer)}</p>
            {refund && <p className={styles.bannerNote}>{refundReasonText(refund)}</p>}
          </div>
        </div>
      )}
      {stats.totalParticipants === 0 ? (
        <Card>
          <EmptyState
            headingLevel="h3"
            icon={<Users size={24} />}
            title={RESULTS_TEXT.noParticipants}
          >
            {RESULTS_TEXT.noWagers}
          </EmptyState>
        </Card>
      ) : (
        <>
          {stats.userWager && (
            <Card className={styles.yourWager}>
              <h3 className={styles.heading}>{RESULTS_TEXT.yourWager}</h3>
              <p className={styles.yourWagerLine}>
                <strong>{answerLabel(bet, stats.userWager.prediction)}</strong>
                <Points value={stats.userWager.points} size="small" />
              </p>
              {outcome && (
                <p className={`${styles.outcome} ${styles[outcome.kind]}`}>{outcome.text}</p>
              )}
            </Card>
          )}
          <ResultsSummary stats={stats} />
          <AnswerDistribution stats={stats} bet={bet} />
        </>
      )}
    </div>
  );
}
