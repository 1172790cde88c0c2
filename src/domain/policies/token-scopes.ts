import type { ApiTokenScope } from '../api-tokens';
import { API_BASE, AUTH_BASE, SYNC_PUSH_PATH } from '../constants';
import { SYNC_WRITES, type SyncMutationName } from '../sync';

// What a personal API token may call: ONE table, read by the server's authentication hook (every
// signed-in route), by the push (each pushed write by its name) and by the OpenAPI document.
// A route the table does not name is refused to every token (403 insufficient_scope), so a
// route added later is closed to tokens until it is placed here on purpose.
//
// Decisions: `read` reads what the player sees in the game (groups, bets, picks once shown,
// comments, leaderboards, the inbox, their own profile). `play` makes the game's own writes:
// bets (create, resolve, cancel, undo, dispute), wagers and comments, by REST or through the
// push. No token changes the account, its password, email or settings, signs in elsewhere,
// exports or deletes, manages tokens or push subscriptions, joins or leaves a group, or
// administers one: those stay with the player signed in to Hunch.

/** The reads a `read` token makes: GET routes, as registered. */
const READS = [
  `${AUTH_BASE}/users/me`,
  `${API_BASE}/groups`,
  `${API_BASE}/groups/public`,
  `${API_BASE}/groups/:id`,
  `${API_BASE}/groups/:id/settings`,
  `${API_BASE}/groups/:id/seasons`,
  `${API_BASE}/groups/:id/members/:userId/stats`,
  `${API_BASE}/groups/:id/membership`,
  `${API_BASE}/groups/:id/leaderboard`,
  `${API_BASE}/groups/:id/leaderboard/period`,
  `${API_BASE}/groups/:id/bets`,
  `${API_BASE}/groups/:id/rounds`,
  `${API_BASE}/groups/:id/rounds/:roundId`,
  `${API_BASE}/member/state`,
  `${API_BASE}/bets/user/wagers`,
  `${API_BASE}/bets/group/:groupId`,
  `${API_BASE}/bets/:id`,
  `${API_BASE}/bets/:id/user-context`,
  `${API_BASE}/bets/:id/statistics`,
  `${API_BASE}/bets/:id/picks`,
  `${API_BASE}/bets/:id/history`,
  `${API_BASE}/bets/:id/comments`,
  `${API_BASE}/notifications`,
] as const;

/** The writes a `play` token makes, by their declared name: by REST and by the push alike. */
export const PLAY_WRITES = [
  'createBet',
  'placeWager',
  'updateWager',
  'resolveBet',
  'cancelBet',
  'postComment',
  'deleteComment',
  'undoResolution',
  'disputeResolution',
  'dismissDispute',
  'reResolveBet',
] as const satisfies readonly SyncMutationName[];

/** `METHOD /route/:param` → the scope it needs. */
const ROUTE_SCOPES = new Map<string, ApiTokenScope>([
  ...READS.map((url) => [`GET ${url}`, 'read'] as const),
  ...PLAY_WRITES.map((name) => {
    const { method, path } = SYNC_WRITES[name];
    return [`${method} ${API_BASE}${path}`, 'play'] as const;
  }),
  // Carries many writes: a token needs `play` to push, and each write is checked by its name.
  [`POST ${SYNC_PUSH_PATH}`, 'play'],
]);

/**
 * The scope a token needs for the route (`url` as registered, `/api/bets/:id`), or null when no
 * token may call it.
 */
export function tokenScopeOf(method: string, url: string): ApiTokenScope | null {
  const verb = method === 'HEAD' ? 'GET' : method;
  return ROUTE_SCOPES.get(`${verb} ${url}`) ?? null;
}

/** Why a token with `scopes` may not call the route; null when it may. */
export interface TokenRefusal {
  code: 'insufficient_scope';
  /** The scope that would do, or null when no token may. */
  needs: ApiTokenScope | null;
}

export function tokenRouteRefusal(
  scopes: readonly ApiTokenScope[],
  method: string,
  url: string,
): TokenRefusal | null {
  const needs = tokenScopeOf(method, url);
  return needs !== null && scopes.includes(needs) ? null : { code: 'insufficient_scope', needs };
}

/** Why a token with `scopes` may not make the pushed write `name`; null when it may. */
export function tokenWriteRefusal(
  scopes: readonly ApiTokenScope[],
  name: SyncMutationName,
): TokenRefusal | null {
  const { method, path } = SYNC_WRITES[name];
  return tokenRouteRefusal(scopes, method, `${API_BASE}${path}`);
}
