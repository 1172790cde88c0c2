import type { AuthResponse, User } from '../../domain/auth';
import { STORAGE_KEYS } from '../../domain/constants';
import { createEventEmitter } from './event-emitter';

// The signed-in session (docs/accounts-and-shell.md §4): the tokens and the user under the storage keys
// access_token, refresh_token and user_data, in localStorage when remembered (and always
// after registration) or in sessionStorage otherwise. It is a subscribable store so React
// reads it through useSyncExternalStore. No zod here: this file is on the landing page's
// path and must stay small.

export type SessionUser = User;

/** Why the last session ended: the person logged out, it could not be refreshed, or they deleted their account. */
export type SignOutReason = 'user' | 'expired' | 'deleted';

export interface SessionSnapshot {
  user: SessionUser | null;
  /** Set while signed out after a logout in this tab; the route guard reads it. */
  signedOutBy: SignOutReason | null;
}

export interface SessionEvents {
  login: { user: SessionUser };
  register: { user: SessionUser };
  refresh: { user: SessionUser };
  restored: { user: SessionUser };
  logout: {
    user: SessionUser | null;
    reason: SignOutReason;
    /** Work the logout waits for before it resolves: the local data being forgotten. */
    waitFor(work: Promise<unknown>): void;
  };
}

interface SessionStorages {
  persistent: Storage;
  temporary: Storage;
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

export interface SessionStoreOptions {
  storages: SessionStorages;
  /** Asks the server to revoke a refresh token; called fire-and-forget at logout. */
  revokeRefreshToken?: (refreshToken: string) => Promise<unknown>;
}

export type SessionStore = ReturnType<typeof createSessionStore>;

export function createSessionStore({ storages, revokeRefreshToken }: SessionStoreOptions) {
  const events = createEventEmitter<SessionEvents>();
  const listeners = new Set<() => void>();
  let snapshot: SessionSnapshot = { user: null, signedOutBy: null };
  let storage: Storage | null = null;
  let loggingOut: Promise<void> | null = null;

  const publish = (user: SessionUser | null, signedOutBy: SignOutReason | null = null) => {
    snapshot = { user, signedOutBy };
    for (const listener of [...listeners]) listener();
  };

  const clearStorage = (target: Storage) => {
    for (const key of [
      STORAGE_KEYS.accessToken,
      STORAGE_KEYS.refreshToken,
      STORAGE_KEYS.userData,
    ]) {
      target.removeItem(key);
    }
  };

  const write = (target: Storage, tokens: Partial<SessionTokens>, user: SessionUser) => {
    if (tokens.accessToken) target.setItem(STORAGE_KEYS.accessToken, tokens.accessToken);
    if (tokens.refreshToken) target.setItem(STORAGE_KEYS.refreshToken, tokens.refreshToken);
    target.setItem(STORAGE_KEYS.userData, JSON.stringify(user));
  };

  const readUser = (source: Storage): SessionUser | null => {
    const raw = source.getItem(STORAGE_KEYS.userData);
    if (!raw) return null;
    try {
      const user = JSON.parse(raw) as SessionUser | null;
      return user && typeof user.id === 'number' ? user : null;
    } catch {
      return null;
    }
  };

  /** Stores a fresh session; the other storage is wiped so one session never lives in both. */
  const start = (response: AuthResponse, persistent: boolean) => {
    const target = persistent ? storages.persistent : storages.temporary;
    clearStorage(persistent ? storages.temporary : storages.persistent);
    write(target, response, response.user);
    storage = target;
    publish(response.user);
  };

  /**
   * Logout runs one at a time: a second call while one runs joins it. It announces the
   * logout, revokes the refresh token without waiting, clears both storages, and resolves
   * once what the listeners handed to `waitFor` is done (nothing of the session is left).
   */
  const logout = (reason: SignOutReason = 'user'): Promise<void> => {
    if (loggingOut) return loggingOut;
    loggingOut = (async () => {
      const user = snapshot.user;
      const refreshToken = storage?.getItem(STORAGE_KEYS.refreshToken) ?? null;
      const work: Array<Promise<unknown>> = [];
      const waitFor = (promise: Promise<unknown>) => void work.push(promise.catch(() => null));
      events.emit('logout', { user, reason, waitFor });
      if (refreshToken && revokeRefreshToken) {
        revokeRefreshToken(refreshToken).catch(() => {
          // Fire and forget: the tokens are gone from this device whatever the server says.
        });
      }
      clearStorage(storages.persistent);
      clearStorage(storages.temporary);
      storage = null;
      publish(null, reason);
      await Promise.all(work);
    })().finally(() => {
      loggingOut = null;
    });
    return loggingOut;
  };

  return {
    events,
    logout,

    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,

    get user() {
      return snapshot.user;
    },
    getAccessToken: () => storage?.getItem(STORAGE_KEYS.accessToken) ?? null,
    getRefreshToken: () => storage?.getItem(STORAGE_KEYS.refreshToken) ?? null,
    /** True when the session lives in localStorage (remember-me or registration). */
    isPersistent: () => storage !== null && storage === storages.persistent,

    /**
     * Start-up: the remembered session wins over a tab-only one. A session lives as long as
     * its refresh token: without an access token the first request renews it (api-client.ts),
     * so an app opened from a push never lands on the sign-in form while one is stored.
     */
    restore() {
      for (const candidate of [storages.persistent, storages.temporary]) {
        const user = readUser(candidate);
        const hasToken =
          candidate.getItem(STORAGE_KEYS.accessToken) ||
          candidate.getItem(STORAGE_KEYS.refreshToken);
        if (user && hasToken) {
          storage = candidate;
          publish(user);
          events.emit('restored', { user });
          return user;
        }
      }
      return null;
    },

    /** Login: remember-me chooses persistent storage, otherwise the tab's session storage. */
    signIn(response: AuthResponse, rememberMe: boolean) {
      start(response, rememberMe);
      events.emit('login', { user: response.user });
    },

    /** Registration (full or guest) always stores persistently (docs/accounts-and-shell.md §4). */
    register(response: AuthResponse) {
      start(response, true);
      events.emit('register', { user: response.user });
    },

    /** A token refresh keeps the storage already in use. */
    applyRefresh(response: AuthResponse) {
      const target = storage ?? storages.temporary;
      write(target, response, response.user);
      storage = target;
      publish(response.user);
      events.emit('refresh', { user: response.user });
    },

    /** A profile update replaces the stored user and any new tokens. */
    replaceUser(user: SessionUser, tokens: Partial<SessionTokens> = {}) {
      if (!storage) return;
      write(storage, tokens, user);
      publish(user);
    },

    /**
     * A `storage` event from another tab of this browser: a remembered session signed out
     * there (its access token removed from localStorage) has ended here too, so this tab goes
     * through its own logout and forgets its local data. A tab-only session is not shared.
     */
    followOtherTab(event: Pick<StorageEvent, 'key' | 'newValue' | 'storageArea'>) {
      if (!snapshot.user || storage !== storages.persistent) return;
      if (event.storageArea !== storages.persistent) return;
      const isSignedOut =
        event.key === null || (event.key === STORAGE_KEYS.accessToken && event.newValue === null);
      if (isSignedOut) void logout('user');
    },
  };
}
