import { Plus, Sparkles, UsersRound } from 'lucide-react';
import { BetCard } from '../bets/bet-card';
import { openCreateBetModal } from '../bets/bet-modals';
import { useMyWager, useNextActionableBet } from '../bets/use-bets';
import { useNow } from '../ui/use-now';
import type { BetRow } from '../data/db';
import { useActiveGroup } from '../data/use-active-group';
import { openJoinGroupModal } from '../groups/group-modals';
import { useGroup, useMyGroups, useMyMembership } from '../groups/use-groups';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { QueueSkeleton } from './queue-skeleton';
import styles from './dashboard-page.module.css';

// "Your Bet Queue" (docs/groups-and-bets.md §2, §4): nextActionableBet across the player's groups, shown as
// the full bet card so the wager is placed right here; else the spec's empty text with what
// to do next (docs/design.md: "Create a bet", "Join a group").

const BET_QUEUE_TEXT = {
  heading: 'Your Bet Queue',
  empty: 'No active bets in your groups',
  emptyHint: 'Start one and see who agrees with you.',
  /** The queue is empty while bets are open: each has the player's wager or asks more points than they have. */
  coveredHint:
    'Every open bet has your wager or asks more points than you have: they are all listed below.',
  noGroupHint: 'Bets from your groups show up here, the soonest to close first.',
  create: 'Create a bet',
  join: 'Join a group',
};

export function BetQueue({
  userId,
  hasOpenBets,
}: {
  userId: number | undefined;
  hasOpenBets: boolean;
}) {
  const now = useNow(60_000);
  const bet = useNextActionableBet(userId, now);
  const active = useActiveGroup();
  return (
    <section className={styles.section} aria-labelledby="bet-queue">
      <h2 id="bet-queue" className={styles.sectionTitle}>
        {BET_QUEUE_TEXT.heading}
      </h2>
      {bet === undefined ? (
        <QueueSkeleton />
      ) : bet ? (
        <QueuedBet key={bet.id} bet={bet} userId={userId} />
      ) : (
        <Card>
          <EmptyState
            headingLevel="h3"
            icon={<Sparkles size={26} />}
            title={BET_QUEUE_TEXT.empty}
            action={
              active ? (
                <Button
                  icon={<Plus size={16} aria-hidden="true" />}
                  onClick={() => openCreateBetModal(active.id)}
                >
                  {BET_QUEUE_TEXT.create}
                </Button>
              ) : (
                <Button
                  icon={<UsersRound size={16} aria-hidden="true" />}
                  onClick={() => openJoinGroupModal()}
                >
                  {BET_QUEUE_TEXT.join}
                </Button>
              )
            }
          >
            {!active
              ? BET_QUEUE_TEXT.noGroupHint
              : hasOpenBets
                ? BET_QUEUE_TEXT.coveredHint
                : BET_QUEUE_TEXT.emptyHint}
          </EmptyState>
        </Card>
      )}
    </section>
  );
}

/** The queued bet as the full bet card. Once wagered it leaves the queue and the next one takes its place. */
function QueuedBet({ bet, userId }: { bet: BetRow; userId: number | undefined }) {
  const wager = useMyWager(bet.id, userId);
  const membership = useMyMembership(bet.groupId, userId);
  const group = useGroup(bet.groupId);
  // A player in one group needs no card to say which.
  const groupCount = useMyGroups(userId)?.length ?? 0;
  if (wager === undefined || membership === undefined) return <QueueSkeleton />;
  return (
    <BetCard
      bet={bet}
      wager={wager}
      membership={membership}
      showTitle
      groupName={groupCount > 1 ? group?.name : undefined}
    />
  );
}
