import { AppPage } from '../shell/app-page';

// Spec 01 §2 and 02 §2: "/group/{id}/bets" is a page that only says "Hello world".
export function GroupBetsPage() {
  return (
    <AppPage title="Bets" isTitleHidden>
      <p>Hello world</p>
    </AppPage>
  );
}
