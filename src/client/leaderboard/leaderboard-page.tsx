import { Trophy, UserPlus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { useActiveGroup } from '../data/use-active-group';
import { useSession } from '../data/use-session';
import { openJoinGroupModal } from '../groups/group-modals';
import { AppPage } from '../shell/app-page';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { DataTable, type DataTableColumn } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { Points } from '../ui/points';
import { Spinner } from '../ui/spinner';
import { PeriodTabs, type LeaderboardView } from './period-tabs';
import { useLeaderboard, useMatchdayWinners, type RankedRow } from './use-leaderboard';
import styles from './leaderboard-page.module.css';

// docs/groups-and-bets.md §2 "/leaderboard": the active group's members by total points descending, ranked
// 1..n, in the data table (Rank and Points sortable, "Search...", "No data to show"). The
// player's own row is highlighted, and says "You" so colour is not the only sign. A query
// over the mirror's memberships: every group's standings render offline, kept fresh by pulls.
// This week and This month are a lazy chunk of their own.

const SeasonBanner = lazy(() =>
  import('../seasons/season-banner').then((module) => ({ default: module.SeasonBanner })),
);

const PeriodTable = lazy(() =>
  import('./period-table').then((module) => ({ default: module.PeriodTable })),
);

export function LeaderboardPage() {
  const active = useActiveGroup();
  const { user } = useSession();
  const rows = useLeaderboard(active?.id);
  const winners = useMatchdayWinners(active?.id);
  const [view, setView] = useState<LeaderboardView>('all');

  if (active === null) {
    return (
      <AppPage title="Leaderboard">
        <Card>
          <EmptyState
            icon={<Trophy size={26} />}
            title="No leaderboard yet"
            action={
              <Button
                icon={<UserPlus size={18} aria-hidden="true" />}
                onClick={() => openJoinGroupModal()}
              >
                Join a group
              </Button>
            }
          >
            Join a group and the leaderboard shows who is calling it best.
          </EmptyState>
        </Card>
      </AppPage>
    );
  }

  const spinner = (
    <div className={styles.loading}>
      <Spinner size="large" label="Loading the leaderboard" />
    </div>
  );

  const columns: DataTableColumn<RankedRow>[] = [
    {
      key: 'rank',
      header: 'Rank',
      sortValue: (row) => row.rank,
      render: (row) => <span className={styles.rank}>{row.rank}</span>,
    },
    {
      key: 'user',
      header: 'User',
      isRowHeader: true,
      searchText: (row) => row.name,
      render: (row) => (
        <span className={styles.user}>
          <Link to={`/group/${active?.id}/members/${row.id}`} className={styles.name}>
            {row.name}
          </Link>
          {row.id === user?.id && <span className={styles.you}>You</span>}
          {/* The last finished tipping round's best (docs/rules.md "Tipping rounds"), under the
              name so the points keep their column at 320. */}
          {winners.includes(row.id) && <span className={styles.winner}>Matchday winner</span>}
        </span>
      ),
    },
    {
      key: 'points',
      header: 'Points',
      hint: 'total',
      align: 'end',
      sortValue: (row) => row.points,
      render: (row) => <Points value={row.points} size="small" word="never" />,
    },
  ];

  return (
    <AppPage
      title="Leaderboard"
      actions={
        user &&
        active && (
          <Link to={`/group/${active.id}/members/${user.id}`} className={styles.yourStats}>
            Your stats
          </Link>
        )
      }
    >
      {active && <p className={styles.group}>{active.name}</p>}
      {active && (
        <Suspense fallback={null}>
          <SeasonBanner groupId={active.id} />
        </Suspense>
      )}
      <PeriodTabs view={view} onChange={setView} />
      {active && view !== 'all' ? (
        <Suspense fallback={spinner}>
          <PeriodTable
            groupId={active.id}
            groupName={active.name}
            period={view}
            userId={user?.id}
          />
        </Suspense>
      ) : !active || !rows ? (
        spinner
      ) : (
        <DataTable
          caption={`${active.name} standings`}
          isCaptionHidden
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          isRowHighlighted={(row) => row.id === user?.id}
        />
      )}
    </AppPage>
  );
}
