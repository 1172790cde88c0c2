import { useSession } from '../data/use-session';
import { AppPage } from '../shell/app-page';
import { BetQueue } from './bet-queue';
import { ResolveQueue } from './resolve-queue';
import styles from './dashboard-page.module.css';

// Spec 02 §2 "/dashboard": "Your Bet Queue" (the next bet to wager on, wagerable right here)
// and "Your Resolve Queue" (the next bet to resolve), both read live from Dexie.
const TEXT = {
  title: 'Dashboard',
  greeting: (name: string) => `Hi, ${name}!`,
  lead: "Here's what needs your call today.",
};

export function DashboardPage() {
  const { user } = useSession();
  return (
    <AppPage title={TEXT.title} isTitleHidden>
      <div className={styles.hello}>
        <p className={styles.greeting}>{TEXT.greeting(user?.displayName ?? '')}</p>
        <p className={styles.lead}>{TEXT.lead}</p>
      </div>
      <BetQueue userId={user?.id} />
      <ResolveQueue userId={user?.id} />
    </AppPage>
  );
}
