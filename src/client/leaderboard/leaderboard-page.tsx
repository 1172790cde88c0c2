import { Trophy, UserPlus } from 'lucide-react';
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
import { useLeaderboard, type RankedRow } from './use-leaderboard';
import styles from './leaderboard-page.module.css';

// Spec 02 §2 "/leaderboard": the active group's members by total points descending, ranked
// 1..n, in the data table (Rank and Points sortable, "Search...", "No data to show"). The
// player's own row is highlighted, and says "You" so colour is not the only sign. A query
// over the mirror's memberships: every group's standings render offline, kept fresh by pulls.

export function LeaderboardPage() {
  const active = useActiveGroup();
  const { user } = useSession();
  const rows = useLeaderboard(active?.id);

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
          <span className={styles.name}>{row.name}</span>
          {row.id === user?.id && <span className={styles.you}>You</span>}
        </span>
      ),
    },
    {
      key: 'points',
      header: 'Points',
      align: 'end',
      sortValue: (row) => row.points,
      render: (row) => <Points value={row.points} size="small" word="never" />,
    },
  ];

  return (
    <AppPage title="Leaderboard">
      {active && <p className={styles.group}>{active.name}</p>}
      {!active || !rows ? (
        <div className={styles.loading}>
          <Spinner size="large" label="Loading the leaderboard" />
        </div>
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
