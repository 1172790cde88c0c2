import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { createSessionStore } from '../../../src/client/data/session-store';

const user = {
  id: 7,
  appName: 'hunch',
  email: 'ada@example.com',
  username: 'ada',
  firstName: 'Ada',
  lastName: 'Lovelace',
  displayName: 'Ada',
  isTemporary: false,
  roles: ['user'],
  profilePictureUrl: null,
};
const auth = (accessToken = 'access-1', refreshToken = 'refresh-1'): AuthResponse => ({
  accessToken,
  refreshToken,
  user,
});

function makeStore(revokeRefreshToken = vi.fn(async () => undefined)) {
  const store = createSessionStore({
    storages: { persistent: localStorage, temporary: sessionStorage },
    revokeRefreshToken,
  });
  return { store, revokeRefreshToken };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('session token storage (docs/accounts-and-shell.md §4)', () => {
  it('keeps a remembered login in localStorage under the spec keys', () => {
    const { store } = makeStore();
    store.signIn(auth(), true);
    expect(localStorage.getItem('access_token')).toBe('access-1');
    expect(localStorage.getItem('refresh_token')).toBe('refresh-1');
    expect(JSON.parse(localStorage.getItem('user_data')!)).toEqual(user);
    expect(sessionStorage.length).toBe(0);
    expect(store.isPersistent()).toBe(true);
  });

  it('keeps a login without remember-me in sessionStorage only', () => {
    const { store } = makeStore();
    store.signIn(auth(), false);
    expect(sessionStorage.getItem('access_token')).toBe('access-1');
    expect(localStorage.length).toBe(0);
    expect(store.isPersistent()).toBe(false);
  });

  it('always stores a registration persistently', () => {
    const { store } = makeStore();
    store.register(auth());
    expect(localStorage.getItem('refresh_token')).toBe('refresh-1');
    expect(sessionStorage.length).toBe(0);
  });

  it('keeps the storage in use when tokens are refreshed', () => {
    const { store } = makeStore();
    store.signIn(auth(), false);
    store.applyRefresh(auth('access-2', 'refresh-2'));
    expect(sessionStorage.getItem('access_token')).toBe('access-2');
    expect(sessionStorage.getItem('refresh_token')).toBe('refresh-2');
    expect(localStorage.length).toBe(0);
  });

  it('replaces the stored user and any new tokens on a profile update', () => {
    const { store } = makeStore();
    store.signIn(auth(), true);
    store.replaceUser({ ...user, displayName: 'Countess' }, { accessToken: 'access-3' });
    expect(localStorage.getItem('access_token')).toBe('access-3');
    expect(localStorage.getItem('refresh_token')).toBe('refresh-1');
    expect(store.getSnapshot().user?.displayName).toBe('Countess');
  });

  it('restores a stored session at start-up and announces it', () => {
    makeStore().store.signIn(auth(), false);
    const { store } = makeStore();
    const restored = vi.fn();
    store.events.on('restored', restored);
    expect(store.restore()).toEqual(user);
    expect(restored).toHaveBeenCalledWith({ user });
    expect(store.getAccessToken()).toBe('access-1');
  });

  it('restores a session kept by its refresh token alone: it lives while that token does', () => {
    makeStore().store.signIn(auth(), true);
    localStorage.removeItem('access_token');
    const { store } = makeStore();
    expect(store.restore()).toEqual(user);
    expect(store.getAccessToken()).toBeNull();
    expect(store.getRefreshToken()).toBe('refresh-1');
  });

  it('restores nothing from empty or broken storage', () => {
    localStorage.setItem('user_data', '{not json');
    localStorage.setItem('access_token', 'x');
    const { store } = makeStore();
    expect(store.restore()).toBeNull();
    expect(store.getSnapshot().user).toBeNull();
  });

  it('emits login, register and refresh events', () => {
    const { store } = makeStore();
    const seen: string[] = [];
    for (const event of ['login', 'register', 'refresh'] as const)
      store.events.on(event, () => seen.push(event));
    store.signIn(auth(), true);
    store.register(auth());
    store.applyRefresh(auth());
    expect(seen).toEqual(['login', 'register', 'refresh']);
  });

  it('logs out one at a time: one event, one revoke, both storages cleared', async () => {
    const { store, revokeRefreshToken } = makeStore();
    store.signIn(auth(), true);
    sessionStorage.setItem('access_token', 'stale');
    const loggedOut = vi.fn();
    store.events.on('logout', loggedOut);
    const listener = vi.fn();
    store.subscribe(listener);

    await Promise.all([store.logout(), store.logout()]);

    expect(loggedOut).toHaveBeenCalledTimes(1);
    expect(revokeRefreshToken).toHaveBeenCalledTimes(1);
    expect(revokeRefreshToken).toHaveBeenCalledWith('refresh-1');
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(store.getSnapshot().user).toBeNull();
    expect(listener).toHaveBeenCalled();
  });

  it('ends a remembered session when another tab of the browser signed it out', async () => {
    const { store, revokeRefreshToken } = makeStore();
    store.signIn(auth(), true);
    const loggedOut = vi.fn();
    store.events.on('logout', loggedOut);
    // A token refresh in the other tab is not an end, nor is anything in another storage.
    store.followOtherTab({ key: 'access_token', newValue: 'access-2', storageArea: localStorage });
    store.followOtherTab({ key: 'access_token', newValue: null, storageArea: sessionStorage });
    expect(loggedOut).not.toHaveBeenCalled();

    localStorage.clear(); // what the other tab's logout did
    store.followOtherTab({ key: 'access_token', newValue: null, storageArea: localStorage });
    await Promise.resolve();

    expect(loggedOut).toHaveBeenCalledTimes(1);
    expect(loggedOut.mock.calls[0]![0]).toMatchObject({ user, reason: 'user' });
    expect(store.getSnapshot()).toEqual({ user: null, signedOutBy: 'user' });
    // The other tab revoked it already.
    expect(revokeRefreshToken).not.toHaveBeenCalled();
  });

  it('leaves a tab-only session alone when a remembered one ends in another tab', () => {
    const { store } = makeStore();
    store.signIn(auth(), false);
    store.followOtherTab({ key: null, newValue: null, storageArea: localStorage });
    expect(store.user).toEqual(user);
  });

  it('does not wait for, nor fail on, a revoke the server refuses', async () => {
    const { store } = makeStore(vi.fn(() => Promise.reject(new Error('offline'))));
    store.signIn(auth(), true);
    await expect(store.logout()).resolves.toBeUndefined();
    expect(store.getSnapshot().user).toBeNull();
  });
});
