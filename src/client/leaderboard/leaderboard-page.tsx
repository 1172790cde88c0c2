import { Trophy } from 'lucide-react';
import { Link } from 'react-router-dom';
import { AppPage } from '../shell/app-page';
import { buttonClassName } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';

// Spec 02 §2 "/leaderboard": the active group's members by total points. With no active
// group there is nobody to rank yet.
export function LeaderboardPage() {
  return (
    <AppPage title="Leaderboard">
      <Card>
        <EmptyState
          icon={<Trophy size={26} />}
          title="No leaderboard yet"
          action={
            <Link to="/group" className={buttonClassName()}>
              Join a group
            </Link>
          }
        >
          Join a group and the leaderboard shows who is calling it best, live.
        </EmptyState>
      </Card>
    </AppPage>
  );
}
