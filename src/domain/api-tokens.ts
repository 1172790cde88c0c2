// Personal API tokens: another program acting as a player (docs/integrations.md, "API tokens").
// A token is `hk_` and 32 random bytes (base64url), shown once and kept only as SHA-256; its
// scopes say what it may do, and it may expire (a year ahead at most, like GitHub's) (`policies/token-scopes.ts`, the one table of which route needs
// which). The wire schemas: schemas/api-tokens.ts.

/** `read`: what the player can see; `play`: the game's own writes (bets, wagers, comments). */
export const API_TOKEN_SCOPES = ['read', 'play'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Every token starts so, which tells it from the app's own access tokens (JWTs). */
export const API_TOKEN_PREFIX = 'hk_';

const DAY_MS = 24 * 60 * 60 * 1000;

export const API_TOKEN_LIMITS = {
  nameMax: 50,
  /** Tokens one account may hold at once. */
  perUser: 20,
  /** An expiry is a year ahead at most (366 days: a leap year, or a device's clock a little ahead). */
  maxExpiryAheadMs: 366 * DAY_MS,
} as const;

/** The profile's choices of how long a new token lasts, in days (null: it never expires). */
export const API_TOKEN_EXPIRY_CHOICES = [null, 30, 90, 365] as const;
export type ApiTokenExpiryChoice = (typeof API_TOKEN_EXPIRY_CHOICES)[number];

/** The expiry (ISO) of a token made at `now` with `choice`, or undefined for none. */
export function apiTokenExpiresAt(choice: ApiTokenExpiryChoice, now: number): string | undefined {
  return choice === null ? undefined : new Date(now + choice * DAY_MS).toISOString();
}

export const API_TOKEN_MESSAGES = {
  nameRequired: 'Give the token a name',
  nameTooLong: `Keep the name to ${API_TOKEN_LIMITS.nameMax} characters`,
  nameInvisible: 'The name must contain a visible character',
  scopesRequired: 'Choose what the token may do',
  expiryInvalid: 'Give the expiry as a date and time, e.g. 2027-01-31T12:00:00Z',
  expiryInPast: 'Choose an expiry in the future',
  expiryTooFar: 'A token can last a year at most',
  // The server's refusals (src/server/errors.ts).
  invalid: 'This API token is not valid: it expired, was revoked or never existed.',
  fullAccountRequired: 'Upgrade to a full account to make API tokens.',
  tooMany:
    `You hold ${API_TOKEN_LIMITS.perUser} API tokens, the most there can be. ` +
    'Revoke one first.',
} as const;

/** 403 insufficient_scope's message: the scope that would do, or null when no token may. */
export const insufficientScopeText = (needs: ApiTokenScope | null) =>
  needs
    ? `This API token can't do this: it needs the "${needs}" scope.`
    : "API tokens can't do this: sign in to Hunch to do it.";

/** Why a token may not expire at `expiresAt` (ISO) when made at `now`, or undefined. */
export function apiTokenExpiryRefusal(expiresAt: string, now: number): string | undefined {
  const at = Date.parse(expiresAt);
  if (!(at > now)) return API_TOKEN_MESSAGES.expiryInPast;
  if (at > now + API_TOKEN_LIMITS.maxExpiryAheadMs) return API_TOKEN_MESSAGES.expiryTooFar;
  return undefined;
}

/** Whether a token that expires at `expiresAt` (ISO, or null: never) has expired at `now`. */
export const isApiTokenExpired = (expiresAt: string | null, now: number) =>
  expiresAt !== null && Date.parse(expiresAt) <= now;

/** Whether a bearer credential is an API token (not an access token) by its look. */
export const isApiTokenCredential = (credential: string) => credential.startsWith(API_TOKEN_PREFIX);

/** GET /api/tokens: one token as its owner sees it (never the token itself). */
export interface ApiToken {
  id: number;
  name: string;
  scopes: ApiTokenScope[];
  createdAt: string;
  /** Null until a program first uses it; updated at most once a minute. */
  lastUsedAt: string | null;
  /** When it stops working (401, as a revoked one), or null: never. */
  expiresAt: string | null;
}

/** POST /api/tokens → the new token, whose secret is shown this once. */
export interface CreatedApiToken {
  id: number;
  name: string;
  scopes: ApiTokenScope[];
  token: string;
  createdAt: string;
  expiresAt: string | null;
}

/** POST /api/tokens's body: `expiresAt` ahead, a year at most; omitted (or null), never. */
export interface CreateApiTokenRequest {
  name: string;
  scopes: ApiTokenScope[];
  expiresAt?: string | null;
}
