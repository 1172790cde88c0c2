import { UsersRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import { AppPage } from '../shell/app-page';
import { buttonClassName } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';

// Spec 02 §2 "/group": with no active group, "Join Your First Group!" and a pointer to the
// header's Join Group button.
export function ActiveGroupPage() {
  return (
    <AppPage title="Group" isTitleHidden>
      <Card>
        <EmptyState
          icon={<UsersRound size={26} />}
          title="Join Your First Group!"
          headingLevel="h2"
          action={
            <Link to="/group/create" className={buttonClassName({ variant: 'secondary' })}>
              Create a group
            </Link>
          }
        >
          Use the Join Group button in the header to join your friends, or start a group of your own.
        </EmptyState>
      </Card>
    </AppPage>
  );
}
