// Business constants of docs/accounts-and-shell.md §9 and docs/groups-and-bets.md §9, shared by server and client.

/** The product's default application name (docs/accounts-and-shell.md §1). */
export const DEFAULT_APP_NAME = 'hunch';

export const AUTH_BASE = '/auth';
export const API_BASE = '/api';
/** The one write path of the app's outbox and service worker (docs/architecture.md §8). */
export const SYNC_PUSH_PATH = `${API_BASE}/sync/push`;

export const STORAGE_KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  userData: 'user_data',
  activeGroup: 'active_group',
  /** Whose local data (Dexie mirror, held writes) this browser keeps: read at start, before Dexie loads. */
  localDataOwner: 'local_data_owner',
  /** The invite a visitor brought to "Forgot password", kept for the reset mail's round trip. */
  pendingInvite: 'pending_invite',
} as const;

/**
 * Marks an outbox write of a session kept in its tab only (no "Remember me"): the service
 * worker never stores such a write for a later replay, so nothing of it outlives the tab.
 */
export const TAB_ONLY_WRITE_HEADER = 'X-Hunch-Tab-Only';

export const LIMITS = {
  loginPasswordMin: 6,
  passwordMin: 8,
  passwordMax: 72,
  displayNameMin: 2,
  displayNameMax: 50,
  usernameMin: 3,
  usernameMax: 30,
  nameMin: 1,
  nameMax: 50,
  emailMax: 254,
  emailLocalMax: 64,
  /** The app's name travels in every access token: unbounded, a 90 KB one made every later request a 431. */
  appNameMax: 50,
} as const;

export const TIMING = {
  toastMs: 5000,
  errorToastMs: 0,
  resetRedirectMs: 3000,
  tokenRefreshWaitMs: 30_000,
  updateCheckMs: 3_600_000,
  serviceWorkerWaitMs: 30_000,
} as const;

/** Lifetimes of the session tokens (docs/architecture.md §6). */
export const TOKEN_LIFETIME = {
  accessSeconds: 15 * 60,
  refreshSeconds: 30 * 24 * 60 * 60,
  passwordResetSeconds: 60 * 60,
  /** A move-to-another-device code: single use, 10 minutes. */
  deviceTransferSeconds: 10 * 60,
  /** The link that confirms a new email address: single use, 24 hours. */
  emailChangeSeconds: 24 * 60 * 60,
} as const;

export const DEFAULT_RETURN_URL = '/dashboard';
export const MINIMUM_AGE = 13;
export const TERMS_NOTICE_DAYS = 30;
export const PROFILE_PICTURES_ENABLED = false;
