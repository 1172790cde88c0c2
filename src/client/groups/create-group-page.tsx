import { useNavigate } from 'react-router-dom';
import { AppPage } from '../shell/app-page';
import { Card } from '../ui/card';
import { GroupForm } from './group-form';

// docs/groups-and-bets.md §2 "/group/create": "Create Your Group" and the group form; the new group becomes
// the active group and the player goes to /group.
export function CreateGroupPage() {
  const navigate = useNavigate();
  return (
    <AppPage title="Create Your Group">
      <Card padding="roomy">
        <GroupForm onCreated={() => navigate('/group')} />
      </Card>
    </AppPage>
  );
}
