import { CheckCheck, Sparkles } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useSession } from '../data/use-session';
import { AppPage } from '../shell/app-page';
import { buttonClassName } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import styles from './dashboard-page.module.css';

// Spec 02 §2 "/dashboard": the two queues. They fill from the local database once groups
// and bets arrive; until then both are empty and say so with the spec's texts.
const TEXT = {
  title: 'Dashboard',
  greeting: (name: string) => `Hi, ${name}!`,
  lead: "Here's what needs your call today.",
  betQueue: 'Your Bet Queue',
  betQueueEmpty: 'No active bets in your groups',
  resolveQueue: 'Your Resolve Queue',
  resolveQueueEmpty: 'No more bets to resolve for your groups.',
  joinHint: 'Bets from your groups show up here, the soonest to close first.',
  join: 'Join a group',
};

export function DashboardPage() {
  const { user } = useSession();
  return (
    <AppPage title={TEXT.title} isTitleHidden>
      <div className={styles.hello}>
        <p className={styles.greeting}>{TEXT.greeting(user?.displayName ?? '')}</p>
        <p className={styles.lead}>{TEXT.lead}</p>
      </div>
      <section className={styles.section} aria-labelledby="bet-queue">
        <h2 id="bet-queue" className={styles.sectionTitle}>
          {TEXT.betQueue}
        </h2>
        <Card>
          <EmptyState
            headingLevel="h3"
            icon={<Sparkles size={26} />}
            title={TEXT.betQueueEmpty}
            action={
              <Link to="/group" className={buttonClassName()}>
                {TEXT.join}
              </Link>
            }
          >
            {TEXT.joinHint}
          </EmptyState>
        </Card>
      </section>
      <section className={styles.section} aria-labelledby="resolve-queue">
        <h2 id="resolve-queue" className={styles.sectionTitle}>
          {TEXT.resolveQueue}
        </h2>
        <Card>
          <EmptyState headingLevel="h3" icon={<CheckCheck size={26} />} title={TEXT.resolveQueueEmpty} />
        </Card>
      </section>
    </AppPage>
  );
}
