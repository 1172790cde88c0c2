import { ArrowLeft, Ticket } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { AppPage } from '../shell/app-page';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';

// Spec 02 §2 "/bets/{id}": title "Bet Details" and a Back button (history back if possible,
// else /dashboard). The bet itself arrives with the bets feature.
export function BetDetailsPage() {
  const navigate = useNavigate();
  const goBack = () => {
    const canGoBack = (window.history.state as { idx?: number } | null)?.idx;
    if (canGoBack) navigate(-1);
    else navigate('/dashboard');
  };
  return (
    <AppPage
      title="Bet Details"
      actions={
        <Button variant="ghost" size="small" icon={<ArrowLeft size={16} aria-hidden="true" />} onClick={goBack}>
          Back
        </Button>
      }
    >
      <Card>
        <EmptyState icon={<Ticket size={26} />} title="Bets are on their way">
          Countdowns, wagers and results for this bet show up here very soon.
        </EmptyState>
      </Card>
    </AppPage>
  );
}
