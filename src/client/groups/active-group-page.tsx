import { Plus, UserPlus, UsersRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useActiveGroup } from '../data/use-active-group';
import { AppPage } from '../shell/app-page';
import { Button, buttonClassName } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { openJoinGroupModal } from './group-modals';
import { GroupScreen } from './group-screen';
import styles from './group-screen.module.css';

// docs/groups-and-bets.md §2 "/group": a spinner while no active group is chosen yet, the active group's
// details, or with none "Join Your First Group!" and the header's Join Group button.
export function ActiveGroupPage() {
  const active = useActiveGroup();
  if (active === undefined) {
    return (
      <AppPage title="Group" isTitleHidden>
        <div className={styles.loading}>
          <Spinner size="large" label="Loading your group" />
        </div>
      </AppPage>
    );
  }
  if (active === null) return <NoGroupYet />;
  return <GroupScreen key={active.id} groupId={active.id} />;
}

function NoGroupYet() {
  return (
    <AppPage title="Group" isTitleHidden>
      <Card>
        <EmptyState
          icon={<UsersRound size={26} />}
          title="Join Your First Group!"
          action={
            <div className={styles.actions}>
              <Button
                icon={<UserPlus size={18} aria-hidden="true" />}
                onClick={() => openJoinGroupModal()}
              >
                Join a group
              </Button>
              <Link to="/group/create" className={buttonClassName({ variant: 'secondary' })}>
                <Plus size={18} aria-hidden="true" />
                Create a group
              </Link>
            </div>
          }
        >
          Use the Join Group button in the header to join your friends, or start a group of your
          own.
        </EmptyState>
      </Card>
    </AppPage>
  );
}
