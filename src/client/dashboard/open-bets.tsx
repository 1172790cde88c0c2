import { BetSummaryCard } from '../bets/bet-summary-card';
import type { OpenBet } from '../bets/use-bets';
import { Card } from '../ui/card';
import { QueueSkeleton } from './queue-skeleton';
import styles from './dashboard-page.module.css';

// Beside the two queues, which show one bet each: everything still taking wagers across the
// player's groups, soonest close first, wagered on or not. Each card names its group and opens
// its bet. Read from the local mirror, so it shows offline and follows every change live.

const OPEN_BETS_TEXT = {
  heading: 'Open in your groups',
  empty: 'Nothing is open for betting in your groups right now.',
};

export function OpenBets({ openBets }: { openBets: OpenBet[] | undefined }) {
  return (
    <section className={styles.section} aria-labelledby="open-bets">
      <h2 id="open-bets" className={styles.sectionTitle}>
        {OPEN_BETS_TEXT.heading}
      </h2>
      {openBets === undefined ? (
        <QueueSkeleton />
      ) : openBets.length === 0 ? (
        <Card as="div">
          <p className={styles.quiet}>{OPEN_BETS_TEXT.empty}</p>
        </Card>
      ) : (
        <Card as="div">
          <ul className={styles.openList} aria-labelledby="open-bets">
            {openBets.map(({ bet, groupName, wager }) => (
              <BetSummaryCard key={bet.id} bet={bet} wager={wager} groupName={groupName} />
            ))}
          </ul>
        </Card>
      )}
    </section>
  );
}
