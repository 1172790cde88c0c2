import { Trophy } from 'lucide-react';
import type { LeaderboardPeriod, RankedPeriodResult } from '../../domain/leaderboard-periods';
import { Card } from '../ui/card';
import { DataTable, type DataTableColumn } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { useNow } from '../ui/use-now';
import { usePeriodLeaderboard } from './use-period-leaderboard';
import { signedPoints } from '../ui/points';
import styles from './leaderboard-page.module.css';

// This week / This month: points won or lost in the period, from the ledger (the
// server sums it), ranked with shared places, and how far each member moved since the period
// before (▲2, ▼1), where there was an earlier standing to move from, and how many bets each
// played in the period. Offline, the same sums
// come from the mirror, and the table says so.

const TEXT = {
  caption: (group: string, period: LeaderboardPeriod) => `${group} standings this ${period}`,
  loading: 'Loading the standings',
  offlineNone: (period: LeaderboardPeriod) =>
    `You're offline. This ${period}'s standings show once you're back.`,
  failed: "We couldn't load these standings. Please try again later.",
  offlineSeen: "You're offline: these standings are as of your last sync.",
  quietTitle: (period: LeaderboardPeriod) => `No results yet this ${period}`,
  quietText: 'Points won or lost on bets settled from now on count here.',
  movedUp: (places: number) => `up ${places} ${places === 1 ? 'place' : 'places'}`,
  movedDown: (places: number) => `down ${places} ${places === 1 ? 'place' : 'places'}`,
  same: 'same place',
  played: (count: number) => `${count} ${count === 1 ? 'bet' : 'bets'} played`,
};

function Movement({ movement }: { movement: number | null }) {
  if (movement === null) return null;
  if (movement === 0)
    return (
      <span className={styles.same} aria-label={TEXT.same} title={TEXT.same}>
        –
      </span>
    );
  const isUp = movement > 0;
  const label = isUp ? TEXT.movedUp(movement) : TEXT.movedDown(-movement);
  return (
    <span className={isUp ? styles.up : styles.down} aria-label={label} title={label}>
      {isUp ? '▲' : '▼'}
      {Math.abs(movement)}
    </span>
  );
}

function SignedPoints({ value }: { value: number }) {
  return (
    <span
      className={[styles.signed, value > 0 ? styles.won : value < 0 ? styles.lost : '']
        .filter(Boolean)
        .join(' ')}
    >
      {signedPoints(value)}
      <span className="visually-hidden"> points</span>
    </span>
  );
}

export function PeriodTable({
  groupId,
  groupName,
  period,
  userId,
}: {
  groupId: number;
  groupName: string;
  period: LeaderboardPeriod;
  userId: number | undefined;
}) {
  const now = new Date(useNow(60_000));
  const { rows, status } = usePeriodLeaderboard(groupId, period, now);

  if (!rows) {
    if (status === 'loading')
      return (
        <div className={styles.loading}>
          <Spinner size="large" label={TEXT.loading} />
        </div>
      );
    return (
      <p className={styles.notice} role="status">
        {status === 'offline' ? TEXT.offlineNone(period) : TEXT.failed}
      </p>
    );
  }

  const columns: DataTableColumn<RankedPeriodResult>[] = [
    {
      key: 'rank',
      header: 'Rank',
      sortValue: (row) => row.rank,
      render: (row) => (
        <span className={styles.rankCell}>
          <span className={styles.rank}>{row.rank}</span>
          <Movement movement={row.movement} />
        </span>
      ),
    },
    {
      key: 'user',
      header: 'User',
      isRowHeader: true,
      searchText: (row) => row.name,
      render: (row) => (
        <span className={styles.user}>
          <span className={styles.name}>{row.name}</span>
          {row.userId === userId && <span className={styles.you}>You</span>}
          {/* Who plays, beside who won (docs/rules.md "Played"): the server's count; a table
              worked out offline has none. Under the name, so the points keep their column at 320. */}
          {row.played !== undefined && (
            <span className={styles.played}>{TEXT.played(row.played)}</span>
          )}
        </span>
      ),
    },
    {
      key: 'points',
      header: 'Points',
      align: 'end',
      sortValue: (row) => row.points,
      render: (row) => <SignedPoints value={row.points} />,
    },
  ];

  const isQuiet = rows.every((row) => row.points === 0 && row.previousPoints === 0 && !row.played);
  return (
    <>
      {status === 'offline' && (
        <p className={styles.notice} role="status">
          {TEXT.offlineSeen}
        </p>
      )}
      {isQuiet ? (
        <Card>
          <EmptyState icon={<Trophy size={26} />} title={TEXT.quietTitle(period)}>
            {TEXT.quietText}
          </EmptyState>
        </Card>
      ) : (
        <DataTable
          caption={TEXT.caption(groupName, period)}
          isCaptionHidden
          columns={columns}
          rows={rows}
          rowKey={(row) => row.userId}
          isRowHighlighted={(row) => row.userId === userId}
        />
      )}
    </>
  );
}
