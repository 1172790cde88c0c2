import { isApiErrorCode, type ApiErrorBody, type ApiErrorCode } from '../../domain/api-error';
import type { AuthResponse } from '../../domain/auth';
import { AUTH_BASE, TIMING } from '../../domain/constants';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../domain/sync-protocol';
import type { SessionStore } from './session-store';
import { reportUpdateNeeded } from './update-needed';

// The one way the client talks HTTP (docs/accounts-and-shell.md §4 "Automatic token refresh"):
// - every request carries the Bearer access token when one exists;
// - a 401 on a request that carried it (and is not a refresh or logout call) triggers ONE
//   shared refresh; concurrent requests wait for it up to 30 s, then retry with the new
//   token; a failed or timed-out refresh logs the user out;
// - the answer to a request sent with a session that has ended meanwhile is never handed over
//   (a 401 instead), so nothing of that session is stored after its end;
// - same-origin non-GET requests send the XSRF-TOKEN cookie back as X-XSRF-TOKEN;
// - every request says which sync protocol this build speaks (X-Hunch-Protocol); a
//   `client_too_old` answer reports that the app must update (update-needed.ts).

/** The server's codes, and the client's own when no answer (network_error) or no code (http_error) came back. */
export type ApiErrorKind = ApiErrorCode | 'network_error' | 'http_error';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorKind;
  readonly fieldErrors: Record<string, string> | undefined;
  /** True when the server sent its own message (docs/accounts-and-shell.md §8: "the server's message, else …"). */
  readonly hasServerMessage: boolean;

  constructor(status: number, body: Partial<ApiErrorBody> | null, fallback = 'Request failed') {
    super(typeof body?.message === 'string' && body.message ? body.message : fallback);
    this.name = 'ApiError';
    this.status = status;
    // A body from something other than our server (a proxy's 502) may carry another code.
    this.code = isApiErrorCode(body?.code)
      ? body.code
      : status === 0
        ? 'network_error'
        : 'http_error';
    this.fieldErrors = body?.fieldErrors;
    this.hasServerMessage = typeof body?.message === 'string' && body.message.length > 0;
  }
}

/** A write asked of a device nobody is signed in on: what the server answers a request without a token. */
export function signedOutError(): ApiError {
  return new ApiError(401, { message: 'Please sign in again.', code: 'authentication_required' });
}

/** No answer came back (no network, the server unreachable): status 0, never the server's refusal. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

/** The server's message when it sent one, else the screen's own fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.hasServerMessage ? error.message : fallback;
}

/**
 * What a screen says when a write it ran (outbox.ts run) did not go through: the rejection's
 * message is already the text to show, the server's or else the write's own.
 */
export function refusalText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** false for calls that must not carry the Bearer token (login, register, reset…). */
  auth?: boolean;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  session: SessionStore;
  /** Prefix for relative paths; '' in the browser (same origin), a test server's URL in tests. */
  baseUrl?: string;
  fetch?: typeof fetch;
  refreshWaitMs?: number;
  /** The page's origin, to decide whether the CSRF header is sent. */
  origin?: () => string | null;
  /** Reads the XSRF-TOKEN cookie. */
  readCsrfToken?: () => string | null;
  /** The server no longer speaks this build's sync protocol. */
  onUpdateNeeded?: () => void;
}

const NEVER_REFRESH = ['/auth/refresh-token', '/auth/logout'];

export function readCookie(
  name: string,
  cookies = typeof document === 'undefined' ? '' : document.cookie,
) {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient({
  session,
  baseUrl = '',
  fetch: fetchImpl = (...args) => globalThis.fetch(...args),
  refreshWaitMs = TIMING.tokenRefreshWaitMs,
  origin = () => (typeof location === 'undefined' ? null : location.origin),
  readCsrfToken = () => readCookie('XSRF-TOKEN'),
  onUpdateNeeded = reportUpdateNeeded,
}: ApiClientOptions) {
  let refreshing: Promise<string> | null = null;
  /** Counts the sessions that ended: a request compares it before and after its answer. */
  let sessionsEnded = 0;
  session.events.on('logout', () => {
    sessionsEnded += 1;
  });

  const resolveUrl = (path: string) => (/^https?:\/\//.test(path) ? path : baseUrl + path);

  const isSameOrigin = (url: string) => {
    const pageOrigin = origin();
    if (!pageOrigin) return false;
    return new URL(url, pageOrigin).origin === pageOrigin;
  };

  const send = (url: string, options: RequestOptions, accessToken: string | null) => {
    const method = (options.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {
      Accept: 'application/json',
      [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
      ...options.headers,
    };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
    if (method !== 'GET' && method !== 'HEAD' && isSameOrigin(url)) {
      const csrf = readCsrfToken();
      if (csrf) headers['X-XSRF-TOKEN'] = csrf;
    }
    return fetchImpl(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  };

  const readBody = async (response: Response): Promise<unknown> => {
    const text = await response.text();
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };

  const toError = async (response: Response) => {
    const body = await readBody(response);
    const error = new ApiError(
      response.status,
      body && typeof body === 'object' ? (body as ApiErrorBody) : null,
    );
    if (error.code === 'client_too_old') onUpdateNeeded();
    return error;
  };

  /** POST /auth/refresh-token with the stored refresh token; stores the answer. */
  const refreshTokens = async (): Promise<string> => {
    const refreshToken = session.getRefreshToken();
    if (!refreshToken) throw new Error('No refresh token available');
    const response = await send(
      resolveUrl(`${AUTH_BASE}/refresh-token`),
      { method: 'POST', body: { refreshToken } },
      null,
    );
    if (!response.ok) throw await toError(response);
    const auth = (await readBody(response)) as AuthResponse;
    session.applyRefresh(auth);
    return auth.accessToken;
  };

  /** The one shared refresh: callers race it against the 30 s wait. */
  const sharedRefresh = (): Promise<string> => {
    if (!refreshing) {
      refreshing = refreshTokens().finally(() => {
        refreshing = null;
      });
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Token refresh timed out')), refreshWaitMs);
    });
    return Promise.race([refreshing, timeout]).finally(() => clearTimeout(timer));
  };

  /** The shared refresh, or the end of the session it could not renew. */
  const refreshOrEnd = async (): Promise<string> => {
    try {
      return await sharedRefresh();
    } catch (error) {
      // Offline is not a failed refresh: an installed app on a flaky connection keeps
      // its session and tries again later (docs/architecture.md §8). Anything else (the
      // server refused, no refresh token, the 30 s wait ran out) logs out.
      if (error instanceof TypeError)
        throw new ApiError(0, null, 'Network error. Please check your connection.');
      await session.logout('expired');
      throw new ApiError(401, null, 'Your session has expired. Please sign in again.');
    }
  };

  const request = async <T>(path: string, options: RequestOptions = {}): Promise<T> => {
    const url = resolveUrl(path);
    let token = options.auth === false ? null : session.getAccessToken();
    const sentIn = sessionsEnded;
    let response: Response;
    try {
      // A session kept by its refresh token alone (session-store.ts restore) renews its access
      // token first: an app opened from a push refreshes rather than asking to sign in.
      if (options.auth !== false && !token && session.getRefreshToken())
        token = await refreshOrEnd();
      response = await send(url, options, token);
      if (response.status === 401 && token && !NEVER_REFRESH.some((p) => url.includes(p))) {
        let freshToken: string;
        const current = session.getAccessToken();
        if (!refreshing && current && current !== token) {
          // Another request already refreshed while this one was in flight.
          freshToken = current;
        } else {
          freshToken = await refreshOrEnd();
        }
        response = await send(url, options, freshToken);
      }
    } catch (error) {
      if (
        error instanceof ApiError ||
        (error instanceof DOMException && error.name === 'AbortError')
      )
        throw error;
      throw new ApiError(0, null, 'Network error. Please check your connection.');
    }
    if (!response.ok) throw await toError(response);
    const body = await readBody(response);
    if (token && sentIn !== sessionsEnded) throw signedOutError();
    return body as T;
  };

  return {
    request,
    get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'GET' }),
    post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'POST', body }),
    put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'PUT', body }),
    patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'PATCH', body }),
    delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'DELETE' }),
    refreshTokens: sharedRefresh,
  };
}
