import { UsersRound } from 'lucide-react';
import { AppPage } from '../shell/app-page';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';

// Spec 02 §2 "/group/create". The group form arrives with the groups feature.
export function CreateGroupPage() {
  return (
    <AppPage title="Create Your Group">
      <Card>
        <EmptyState icon={<UsersRound size={26} />} title="Groups are on their way">
          Soon you will name your group, choose public or private, and set everyone's starting points right here.
        </EmptyState>
      </Card>
    </AppPage>
  );
}
