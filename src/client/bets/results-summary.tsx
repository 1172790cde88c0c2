import type { ReactNode } from 'react';
import { refundReasonText } from '../../domain/bet-outcome';
import type { BetStatistics } from '../../domain/bets';
import { Card } from '../ui/card';
import { Points } from '../ui/points';
import styles from './results-panel.module.css';

// docs/groups-and-bets.md §2: "Participation Overview" (participants / members, rate, total and average
// points) and "Results Breakdown" (winners and losers: counts, percentages, points).

const SUMMARY_TEXT = {
  overview: 'Participation Overview',
  participants: 'Total Participants',
  rate: 'Participation Rate',
  totalPoints: 'Total Points',
  averagePoints: 'Average Points',
  breakdown: 'Results Breakdown',
  winners: 'Winners',
  losers: 'Losers',
};

const percent = (value: number) => `${Math.round(value)}%`;

export function ResultsSummary({ stats }: { stats: BetStatistics }) {
  const breakdown = stats.winnerLoserBreakdown;
  return (
    <>
      <Card>
        <h3 className={styles.heading}>{SUMMARY_TEXT.overview}</h3>
        <dl className={styles.stats}>
          <Stat label={SUMMARY_TEXT.participants}>
            {stats.totalParticipants} / {stats.totalMembers}
          </Stat>
          <Stat label={SUMMARY_TEXT.rate}>{percent(stats.participationRate)}</Stat>
          <Stat label={SUMMARY_TEXT.totalPoints}>
            <Points value={stats.totalPoints} size="small" word="never" />
          </Stat>
          <Stat label={SUMMARY_TEXT.averagePoints}>
            <Points value={Math.round(stats.averagePoints * 10) / 10} size="small" word="never" />
          </Stat>
        </dl>
      </Card>
      {stats.isResolved && (
        <Card>
          <h3 className={styles.heading}>{SUMMARY_TEXT.breakdown}</h3>
          <div className={styles.breakdown}>
            <Side
              tone="win"
              label={SUMMARY_TEXT.winners}
              count={breakdown.totalWinners}
              share={breakdown.winnerPercentage}
              points={breakdown.winnersPoints}
            />
            <Side
              tone="lose"
              label={SUMMARY_TEXT.losers}
              count={breakdown.totalLosers}
              share={breakdown.loserPercentage}
              points={breakdown.losersPoints}
            />
          </div>
          {stats.refundReason && (
            <p className={styles.breakdownNote}>{refundReasonText(stats.refundReason)}</p>
          )}
        </Card>
      )}
    </>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.stat}>
      <dt className={styles.statLabel}>{label}</dt>
      <dd className={styles.statValue}>{children}</dd>
    </div>
  );
}

function Side({
  tone,
  label,
  count,
  share,
  points,
}: {
  tone: 'win' | 'lose';
  label: string;
  count: number;
  share: number;
  points: number;
}) {
  return (
    <div className={`${styles.side} ${tone === 'win' ? styles.win : styles.lose}`}>
      <p className={styles.sideLabel}>{label}</p>
      <p className={styles.sideCount}>
        {count} <span className={styles.sideShare}>({percent(share)})</span>
      </p>
      <Points value={points} size="small" />
    </div>
  );
}
