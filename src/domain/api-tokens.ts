// Personal API tokens: another program acting as a player (docs/integrations.md, "API tokens").
// A token is `hk_` and 32 random bytes (base64url), shown once and kept only as SHA-256; its
// scopes say what it may do (`policies/token-scopes.ts`, the one table of which route needs
// which). The wire schemas: schemas/api-tokens.ts.

/** `read`: what the player can see; `play`: the game's own writes (bets, wagers, comments). */
export const API_TOKEN_SCOPES = ['read', 'play'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Every token starts so, which tells it from the app's own access tokens (JWTs). */
export const API_TOKEN_PREFIX = 'hk_';

export const API_TOKEN_LIMITS = {
  nameMax: 50,
  /** Tokens one account may hold at once. */
  perUser: 20,
} as const;

export const API_TOKEN_MESSAGES = {
  nameRequired: 'Give the token a name',
  nameTooLong: `Keep the name to ${API_TOKEN_LIMITS.nameMax} characters`,
  nameInvisible: 'The name must contain a visible character',
  scopesRequired: 'Choose what the token may do',
  // The server's refusals (src/server/errors.ts).
  invalid: 'This API token is not valid: it was revoked or never existed.',
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
}

/** POST /api/tokens → the new token, whose secret is shown this once. */
export interface CreatedApiToken {
  id: number;
  name: string;
  scopes: ApiTokenScope[];
  token: string;
  createdAt: string;
}

/** POST /api/tokens's body. */
export interface CreateApiTokenRequest {
  name: string;
  scopes: ApiTokenScope[];
}
