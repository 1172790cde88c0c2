import { BetSummaryCard } from '../bets/bet-summary-card';
import type { OpenBet } from '../bets/use-bets';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { QueueSkeleton } from './queue-skeleton';
import styles from './dashboard-page.module.css';

// Beside the two queues, which show one bet each: everything still taking wagers across the
// player's groups, soonest close first, wagered on or not. Each card names its group and opens
// its bet. Read from the local mirror, so it shows offline and follows every change live.
// The soonest OPEN_BETS_SHOWN come first and more on request: a player in many busy groups can
// have thousands open, and drawing them all made the dashboard slow to open and to sync. The
// page reads `shown` plus one more page of them, so the button can say how many it adds.

const OPEN_BETS_TEXT = {
  heading: 'Open in your groups',
  empty: 'Nothing is open for betting in your groups right now.',
  more: (count: number) => `Show ${count} more`,
};

/** How many open bets the dashboard draws at first, and how many more each "Show more" adds. */
export const OPEN_BETS_SHOWN = 20;

export function OpenBets({
  openBets,
  shown,
  onShowMore,
}: {
  /** The soonest open bets, up to `shown` and the next page; undefined while being read. */
  openBets: OpenBet[] | undefined;
  shown: number;
  onShowMore: () => void;
}) {
  const hidden = Math.max(0, (openBets?.length ?? 0) - shown);
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
            {openBets.slice(0, shown).map(({ bet, groupName, wager, commentCount }) => (
              <BetSummaryCard
                key={bet.id}
                bet={bet}
                wager={wager}
                groupName={groupName}
                commentCount={commentCount}
              />
            ))}
          </ul>
          {hidden > 0 && (
            <Button variant="ghost" fullWidth onClick={onShowMore}>
              {OPEN_BETS_TEXT.more(Math.min(hidden, OPEN_BETS_SHOWN))}
            </Button>
          )}
        </Card>
      )}
    </section>
  );
}
