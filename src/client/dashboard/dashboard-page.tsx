import { useState } from 'react';
import { useOpenBets } from '../bets/use-bets';
import { useSession } from '../data/use-session';
import { AppPage } from '../shell/app-page';
import { useNow } from '../ui/use-now';
import { BetQueue } from './bet-queue';
import { OPEN_BETS_SHOWN, OpenBets } from './open-bets';
import { ResolveQueue } from './resolve-queue';
import styles from './dashboard-page.module.css';

// docs/groups-and-bets.md §2 "/dashboard": "Your Bet Queue" (the next bet to wager on, wagerable right here)
// and "Your Resolve Queue" (the next bet to resolve), then every bet still open across the
// player's groups, all read live from Dexie.
const TEXT = {
  title: 'Dashboard',
  greeting: (name: string) => `Hi, ${name}!`,
  lead: "Here's what needs your call today.",
};

export function DashboardPage() {
  const { user } = useSession();
  const [shown, setShown] = useState(OPEN_BETS_SHOWN);
  // One page past what is drawn: enough to say how many "Show more" adds, never the whole mirror.
  const openBets = useOpenBets(user?.id, useNow(60_000), shown + OPEN_BETS_SHOWN);
  return (
    <AppPage title={TEXT.title} isTitleHidden>
      <div className={styles.hello}>
        <p className={styles.greeting}>{TEXT.greeting(user?.displayName ?? '')}</p>
        <p className={styles.lead}>{TEXT.lead}</p>
      </div>
      <BetQueue userId={user?.id} hasOpenBets={Boolean(openBets?.length)} />
      <ResolveQueue userId={user?.id} />
      <OpenBets
        openBets={openBets}
        shown={shown}
        onShowMore={() => setShown((count) => count + OPEN_BETS_SHOWN)}
      />
    </AppPage>
  );
}
