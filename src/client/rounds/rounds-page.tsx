import { CalendarDays, ChevronRight, Plus } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { canManageGroup } from '../../domain/policies/group-policy';
import type { RoundRow } from '../data/db';
import { useSession } from '../data/use-session';
import { rosterOf, useGroup } from '../groups/use-groups';
import { AppPage } from '../shell/app-page';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { openNewRoundSheet } from './new-round-sheet';
import { RoundTable } from './round-table';
import { kickoffText, useRounds, useSeasonTotals } from './use-rounds';
import styles from './rounds.module.css';

// /group/:id/rounds: the group's tipping rounds, newest first, each to its page; admins make a
// new one here, and below them the season's running total (data/round-results.ts). Read from
// the mirror, so it opens offline.

/** The running total's heading: the running season's, or the group's rounds' while none runs. */
const totalTitle = (season: string | null) => (season ? `${season} total` : 'Season total');

const matchesText = (count: number) => `${count} ${count === 1 ? 'match' : 'matches'}`;

export function RoundsPage() {
  const groupId = Number(useParams().id);
  const { user } = useSession();
  const group = useGroup(groupId);
  const rounds = useRounds(groupId);
  const totals = useSeasonTotals(groupId);
  // Who makes rounds: whoever manages the group, the rule the server applies (manageRounds).
  const isAdmin = Boolean(group && user && canManageGroup(rosterOf(group), user.id));
  return (
    <AppPage
      title="Rounds"
      actions={
        isAdmin && (
          <Button
            size="small"
            icon={<Plus size={16} aria-hidden="true" />}
            onClick={() => openNewRoundSheet(groupId)}
          >
            New round
          </Button>
        )
      }
    >
      {group && (
        <p className={styles.meta}>
          <Link to={`/group/${groupId}`}>{group.name}</Link>
        </p>
      )}
      {rounds && rounds.length === 0 && (
        <Card>
          <EmptyState icon={<CalendarDays size={26} />} title="No rounds yet">
            {isAdmin
              ? 'Make a round from a fixture list and everyone tips the scores.'
              : 'When an admin makes a round, tip its scores here.'}
          </EmptyState>
        </Card>
      )}
      {rounds && rounds.length > 0 && (
        <ul className={styles.roundList}>
          {rounds.map((round) => (
            <RoundLink key={round.id} round={round} />
          ))}
        </ul>
      )}
      {totals && totals.table.length > 0 && (
        <section aria-labelledby="season-total" className={styles.section}>
          <h2 id="season-total" className={styles.sectionTitle}>
            {totalTitle(totals.season)}
          </h2>
          <Card>
            <RoundTable
              caption={totalTitle(totals.season)}
              table={totals.table}
              winners={[]}
              userId={user?.id}
            />
          </Card>
        </section>
      )}
    </AppPage>
  );
}

function RoundLink({ round }: { round: RoundRow }) {
  const first = round.matches[0];
  return (
    <li>
      <Link to={`/group/${round.groupId}/rounds/${round.id}`} className={styles.roundLink}>
        <span className={styles.roundText}>
          <span className={styles.roundName}>{round.name}</span>
          <span className={styles.meta}>
            {matchesText(round.matches.length)}
            {first && ` · from ${kickoffText(first.kickoff)}`}
          </span>
        </span>
        <ChevronRight size={18} aria-hidden="true" />
      </Link>
    </li>
  );
}
