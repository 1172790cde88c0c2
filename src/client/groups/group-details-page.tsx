import { UsersRound } from 'lucide-react';
import { AppPage } from '../shell/app-page';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';

// Spec 02 §2 "/group/{id}" (optional ?inviteCode). The group view arrives with the groups
// feature; the guard already brings invite links back here after signing in.
export function GroupDetailsPage() {
  return (
    <AppPage title="Group">
      <Card>
        <EmptyState icon={<UsersRound size={26} />} title="Groups are on their way">
          Group pages, with their bets and members, open here very soon.
        </EmptyState>
      </Card>
    </AppPage>
  );
}
