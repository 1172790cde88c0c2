import { useLiveQuery } from 'dexie-react-hooks';
import { BarChart3 } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { HeadToHead, MemberStats, TypeAccuracy } from '../../domain/member-stats';
import { db } from '../data/db';
import { useMemberStats } from '../data/member-stats';
import { useSession } from '../data/use-session';
import { AppPage } from '../shell/app-page';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { PointsChart } from './points-chart';
import { signedPoints } from '../ui/points';
import styles from './member-stats-page.module.css';

// /group/:id/members/:userId[?vs=]: a member's track record in a group (bets
// played, win rate, net points, best win, streak, accuracy per bet type, points over time)
// and head-to-head against another member. The server computes them; offline the same record
// is worked out from the mirror (data/member-stats.ts), the points line kept from the last
// answer seen.

export function MemberStatsPage() {
  const params = useParams();
  const navigate = useNavigate();
  const { user } = useSession();
  const groupId = Number(params.id);
  const userId = Number(params.userId);
  const vsParam = new URLSearchParams(location.search).get('vs');
  const vs = vsParam ? Number(vsParam) : undefined;
  const { stats, fetchedAt, isFromMirror, error, isLoading } = useMemberStats(groupId, userId, vs);
  const members = useLiveQuery(
    () => db.memberships.where('groupId').equals(groupId).toArray(),
    [groupId],
  );
  const isSelf = user?.id === userId;
  const title = isSelf ? 'Your stats' : stats ? `${stats.name}'s stats` : 'Stats';
  const others = (members ?? [])
    .filter((member) => member.userId !== userId)
    .sort((a, b) => a.userName.localeCompare(b.userName));

  if (!stats) {
    return (
      <AppPage title={title}>
        {isLoading ? (
          <div className={styles.loading}>
            <Spinner size="large" label="Loading stats" />
          </div>
        ) : (
          <Card>
            <EmptyState icon={<BarChart3 size={26} />} title="No stats to show">
              {error === 'offline' ? 'Stats need a connection the first time.' : error}
            </EmptyState>
          </Card>
        )}
      </AppPage>
    );
  }

  return (
    <AppPage title={title}>
      <p className={styles.subtitle}>
        {isSelf ? stats.name : 'Member'} · {stats.totalPoints} pts
        {isFromMirror ? (
          <span className={styles.offline}> · Offline: as of your last sync</span>
        ) : (
          error === 'offline' &&
          fetchedAt && (
            <span className={styles.offline}> · Offline: as of {formatTime(fetchedAt)}</span>
          )
        )}
      </p>
      <section className={styles.tiles} aria-label="Record">
        <Tile label="Bets played" value={String(stats.betsPlayed)} />
        <Tile
          label="Win rate"
          value={percent(stats.winRate)}
          detail={`${stats.won} won · ${stats.lost} lost`}
        />
        <Tile
          label="Net points"
          value={signedPoints(stats.netPoints)}
          tone={tone(stats.netPoints)}
        />
        <Tile
          label="Best win"
          value={stats.bestWin ? signedPoints(stats.bestWin.points) : '—'}
          detail={stats.bestWin?.title}
          to={stats.bestWin ? `/bets/${stats.bestWin.betId}` : undefined}
        />
        <Tile label="Streak" value={streakText(stats.streak)} />
      </section>

      <Card>
        <h2 className={styles.heading}>Points over time</h2>
        {isFromMirror && stats.pointsOverTime.length === 0 ? (
          <p className={styles.muted}>The line shows once you&apos;re back online.</p>
        ) : (
          <PointsChart steps={stats.pointsOverTime} />
        )}
      </Card>

      <Card>
        <h2 className={styles.heading}>Accuracy by bet type</h2>
        <p className={styles.muted}>
          Right picks out of bets that had a winner. For number bets, also how far the guess was
          from the answer on average.
        </p>
        {stats.accuracy.length === 0 ? (
          <p className={styles.muted}>No resolved bets yet.</p>
        ) : (
          <ul className={styles.accuracy}>
            {stats.accuracy.map((entry) => (
              <AccuracyRow key={entry.betType} entry={entry} />
            ))}
          </ul>
        )}
      </Card>

      <Card>
        <h2 className={styles.heading}>Head-to-head</h2>
        <label className={styles.picker}>
          <span>{isSelf ? 'You against' : `${stats.name} against`}</span>
          <select
            value={vs ?? ''}
            onChange={(event) => {
              const value = event.target.value;
              void navigate(`/group/${groupId}/members/${userId}${value ? `?vs=${value}` : ''}`, {
                replace: true,
              });
            }}
          >
            <option value="">Pick a member</option>
            {others.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.userName}
              </option>
            ))}
          </select>
        </label>
        {stats.headToHead && (
          <HeadToHeadView duel={stats.headToHead} name={isSelf ? 'You' : stats.name} />
        )}
      </Card>
    </AppPage>
  );
}

function Tile({
  label,
  value,
  detail,
  tone: toneName,
  to,
}: {
  label: string;
  value: string;
  detail?: string;
  tone?: 'up' | 'down';
  to?: string;
}) {
  const body = (
    <>
      <span className={styles.tileLabel}>{label}</span>
      <span className={[styles.tileValue, toneName && styles[toneName]].filter(Boolean).join(' ')}>
        {value}
      </span>
      {detail && <span className={styles.tileDetail}>{detail}</span>}
    </>
  );
  return to ? (
    <Link to={to} className={styles.tile}>
      {body}
    </Link>
  ) : (
    <div className={styles.tile}>{body}</div>
  );
}

function AccuracyRow({ entry }: { entry: TypeAccuracy }) {
  const share = entry.decided > 0 ? entry.won / entry.decided : null;
  return (
    <li className={styles.accuracyRow}>
      <span className={styles.accuracyName}>{entry.name}</span>
      <span className={styles.bar} aria-hidden="true">
        <span style={{ width: `${Math.round((share ?? 0) * 100)}%` }} />
      </span>
      <span className={styles.accuracyText}>
        {entry.decided > 0 ? `${entry.won} of ${entry.decided} right` : 'No winner yet'}
        {entry.averageMiss !== null && ` · ${Math.round(entry.averageMiss * 100)}% off`}
      </span>
    </li>
  );
}

function HeadToHeadView({ duel, name }: { duel: HeadToHead; name: string }) {
  if (duel.betsTogether === 0)
    return <p className={styles.muted}>No resolved bets played together yet.</p>;
  const verdict =
    duel.youRight === duel.themRight
      ? 'All square.'
      : `${duel.youRight > duel.themRight ? name : duel.otherName} called it more often.`;
  return (
    <div className={styles.duel}>
      <p>
        {duel.betsTogether} {duel.betsTogether === 1 ? 'bet' : 'bets'} played together. {verdict}
      </p>
      <table className={styles.duelTable}>
        <thead>
          <tr>
            <th scope="col"></th>
            <th scope="col">Right</th>
            <th scope="col">Net points</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{name}</th>
            <td>{duel.youRight}</td>
            <td className={styles[tone(duel.youNet) ?? 'none']}>{signedPoints(duel.youNet)}</td>
          </tr>
          <tr>
            <th scope="row">{duel.otherName}</th>
            <td>{duel.themRight}</td>
            <td className={styles[tone(duel.themNet) ?? 'none']}>{signedPoints(duel.themNet)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

function percent(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 100)}%`;
}

function tone(points: number): 'up' | 'down' | undefined {
  return points > 0 ? 'up' : points < 0 ? 'down' : undefined;
}

function streakText(streak: MemberStats['streak']): string {
  if (!streak) return '—';
  return `${streak.count} ${streak.kind === 'won' ? (streak.count === 1 ? 'win' : 'wins') : streak.count === 1 ? 'loss' : 'losses'}`;
}

function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
}
