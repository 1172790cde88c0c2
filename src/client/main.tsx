import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { sessionStore } from './data/session';
import { SessionContext } from './data/use-session';
import { startPwa } from './pwa/start-pwa';
import './styles/global.css';

// Restore before the first render so the route guard already knows who is signed in.
sessionStore.restore();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionContext value={sessionStore}>
      <App />
    </SessionContext>
  </StrictMode>,
);

// The service worker (once the page is stable) and push, which follows the session.
startPwa();
