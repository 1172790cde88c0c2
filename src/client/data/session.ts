import { AUTH_BASE } from '../../domain/constants';
import { createApiClient } from './api-client';
import { createSessionStore } from './session-store';

// The app's one session and one API client. Import `api` to call the server and
// `sessionStore` to read or change the session; components use the useSession() hook.

export const sessionStore = createSessionStore({
  storages: { persistent: globalThis.localStorage, temporary: globalThis.sessionStorage },
  // Sent without the Bearer token: an expired access token at logout must not start a refresh.
  revokeRefreshToken: (refreshToken) =>
    api.post(`${AUTH_BASE}/revoke-token`, { refreshToken }, { auth: false }),
});

export const api = createApiClient({ session: sessionStore });

// Signed out in another tab: this tab's session ended with it.
if (typeof window !== 'undefined')
  window.addEventListener('storage', (event) => sessionStore.followOtherTab(event));
