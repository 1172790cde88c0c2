import { api, sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';
import { createPushApi, createPushService, type PushService } from './push-subscription';

// docs/accounts-and-shell.md §4 and docs/groups-and-bets.md §4: the push subscription is set up after login, registration,
// session restore and token refresh, and detached on logout. Started once at app start
// (src/client/pwa/start-pwa.ts), after the session was restored, so a restored session is
// resumed here directly.

export const pushService = createPushService({ pushApi: createPushApi(api) });

export function startPushSession(
  session: SessionStore = sessionStore,
  service: PushService = pushService,
): () => void {
  const resume = () => {
    service
      .resume()
      .catch((error: unknown) =>
        console.warn('Setting up push notifications after sign-in failed', error),
      );
  };
  const unsubscribers = [
    session.events.on('login', resume),
    session.events.on('register', resume),
    session.events.on('refresh', resume),
    session.events.on('restored', resume),
    // The logout event comes before the tokens are cleared: the token is read now.
    session.events.on('logout', () => service.detach(session.getAccessToken())),
  ];
  if (session.user) resume();
  return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
}
