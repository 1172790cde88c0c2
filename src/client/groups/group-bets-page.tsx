import { ArrowLeft, Plus } from 'lucide-react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { BetList } from '../bets/bet-list';
import { openCreateBetModal } from '../bets/bet-modals';
import { AppPage } from '../shell/app-page';
import { Button, buttonClassName } from '../ui/button';
import { Card } from '../ui/card';
import { useGroup } from './use-groups';
import styles from './group-bets-page.module.css';

// "/group/{id}/bets": docs/groups-and-bets.md §2 has a "Hello world" placeholder; we show ALL of the group's
// bets with the group view's tabs and search instead (a placeholder is not good enough for a
// real product).

const TEXT = {
  title: (name: string | undefined) => (name ? `${name}: all bets` : 'All bets'),
  back: 'Back to group',
  create: 'Create a bet',
};

export function GroupBetsPage() {
  const { id } = useParams();
  const groupId = Number(id);
  // A group created offline has a temporary negative id until the server numbers it; its bets are on this device already.
  const isGroupId = Number.isSafeInteger(groupId) && groupId !== 0;
  const group = useGroup(isGroupId ? groupId : undefined);
  if (!isGroupId) return <Navigate to="/group" replace />;
  return (
    <AppPage
      title={TEXT.title(group?.name)}
      actions={
        <Button
          size="small"
          className={styles.create}
          icon={<Plus size={16} aria-hidden="true" />}
          onClick={() => openCreateBetModal(groupId)}
        >
          {TEXT.create}
        </Button>
      }
    >
      <div className={styles.back}>
        <Link
          to={`/group/${groupId}`}
          className={buttonClassName({ variant: 'ghost', size: 'small' })}
        >
          <ArrowLeft size={16} aria-hidden="true" />
          <span>{TEXT.back}</span>
        </Link>
      </div>
      <Card>
        <BetList groupId={groupId} headingLevel="h2" />
      </Card>
    </AppPage>
  );
}
