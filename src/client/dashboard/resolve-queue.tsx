import { CheckCheck } from 'lucide-react';
import { ResolveCard } from '../bets/resolve-card';
import { useNextBetToResolve } from '../bets/use-bets';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { useNow } from '../ui/use-now';
import { QueueSkeleton } from './queue-skeleton';
import styles from './dashboard-page.module.css';

// "Your Resolve Queue" (docs/groups-and-bets.md §2, §4): nextBetToResolve among the bets the bet policy lets
// the player settle (their own; for a group's admins, bets whose creator left and bets closed a
// day without a result), with the resolve card inline; keyed by bet so the next bet starts at
// selection.

const RESOLVE_QUEUE_TEXT = {
  heading: 'Your Resolve Queue',
  empty: 'No more bets to resolve for your groups.',
  emptyHint:
    'Bets you create land here when it is time to call the answer, and as an admin, bets whose creator left or that are still unresolved a day after closing.',
};

export function ResolveQueue({ userId }: { userId: number | undefined }) {
  const bet = useNextBetToResolve(userId, useNow(60_000));
  return (
    <section className={styles.section} aria-labelledby="resolve-queue">
      <h2 id="resolve-queue" className={styles.sectionTitle}>
        {RESOLVE_QUEUE_TEXT.heading}
      </h2>
      {bet === undefined ? (
        <QueueSkeleton />
      ) : bet ? (
        <ResolveCard key={bet.id} bet={bet} showTitle />
      ) : (
        <Card>
          <EmptyState
            headingLevel="h3"
            icon={<CheckCheck size={26} />}
            title={RESOLVE_QUEUE_TEXT.empty}
          >
            {RESOLVE_QUEUE_TEXT.emptyHint}
          </EmptyState>
        </Card>
      )}
    </section>
  );
}
