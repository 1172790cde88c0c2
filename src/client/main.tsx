import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { isLocalDataLeftOver } from './data/local-data-owner';
import { sessionStore } from './data/session';
import { SessionContext } from './data/use-session';
import { startPwa } from './pwa/start-pwa';
import './styles/global.css';

// Restore before the first render so the route guard already knows who is signed in.
const user = sessionStore.restore();

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <SessionContext value={sessionStore}>
        <App />
      </SessionContext>
    </StrictMode>,
  );
}

// Local data left by a session that ended unseen (signed in without "Remember me", the tab
// closed and its tokens went with it) is forgotten before anything renders: a shared browser
// shows nobody the last player's groups. Dexie loads only then, never for a first visit.
if (isLocalDataLeftOver(globalThis.localStorage, user?.id ?? null)) {
  import('./data/session-end')
    .then(({ forgetLeftoverLocalData }) => forgetLeftoverLocalData())
    .catch((error: unknown) => console.warn('Forgetting the last session failed', error))
    .finally(render);
} else {
  render();
}

// The service worker (once the page is stable) and push, which follows the session.
startPwa();
