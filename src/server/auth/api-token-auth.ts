import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenScope } from '../../domain/api-tokens';
import { tokenRouteRefusal } from '../../domain/policies/token-scopes';
import type { RateLimits } from '../config';
import type { Database } from '../db/connect';
import { prepared } from '../db/prepared';
import { apiTokens, users } from '../db/schema';
import { insufficientScope, invalidApiToken, rateLimited } from '../errors';
import { rateLimitCheck, type RateLimitRule } from '../rate-limits';
import type { SessionLiveness } from './session-liveness';
import { hashOpaqueToken, type AuthUser } from './tokens';

// `Authorization: Bearer hk_…` (a personal API token, api-tokens.service.ts) on a signed-in
// route, for app.authenticate: the token must be live (not past its expiry; revoked tokens end
// as sessions do: session-liveness.ts), within its rate limits (per token and per user), and its scopes must
// allow the route (domain/policies/token-scopes.ts, the one table). Its last use is written at
// most once a minute per token and instance, not on every request.

const findToken = prepared<
  Array<{ id: number; userId: number; scopes: string[]; expiresAt: Date | null; appName: string }>,
  { tokenHash: string }
>('findApiToken', (db) =>
  db
    .select({
      id: apiTokens.id,
      userId: apiTokens.userId,
      scopes: apiTokens.scopes,
      expiresAt: apiTokens.expiresAt,
      appName: users.appName,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')), isNull(users.deletedAt)))
    .limit(1),
);

/** An expired token is refused as a revoked one: 401 invalid_api_token. */
const isExpired = (token: { expiresAt: Date | null }, at: Date) =>
  token.expiresAt !== null && token.expiresAt.getTime() <= at.getTime();

/** How long a token's last use may lag behind. */
export const LAST_USED_PRECISION_MS = 60_000;
/** Tokens remembered by hash (their owner and scopes never change), oldest first out. */
const REMEMBERED_TOKENS = 10_000;

export interface ApiTokenAuthDeps {
  app: FastifyInstance;
  db: Database;
  sessions: Pick<SessionLiveness, 'isLive'>;
  rateLimits: RateLimits;
  now?: () => Date;
}

export type ApiTokenAuth = ReturnType<typeof createApiTokenAuth>;

/** Every request made with a token counts per token, and per user across their tokens. */
export const apiTokenRateRules = (limits: RateLimits): RateLimitRule[] => [
  {
    name: 'api-token',
    max: limits.tokenRequestsPerToken,
    windowMs: limits.windowMs,
    key: (request) => (request.user?.apiToken ? String(request.user.apiToken.id) : undefined),
  },
  {
    name: 'api-token-user',
    max: limits.tokenRequestsPerUser,
    windowMs: limits.windowMs,
    key: (request) => (request.user?.apiToken ? String(request.user.id) : undefined),
  },
];

export function createApiTokenAuth({
  app,
  db,
  sessions,
  rateLimits,
  now = () => new Date(),
}: ApiTokenAuthDeps) {
  const known = new Map<string, AuthUser>();
  /** Token id → when this instance last wrote its last use (ms). */
  const touched = new Map<number, number>();
  const limits = apiTokenRateRules(rateLimits).map((rule) => rateLimitCheck(app, rule));

  async function resolve(credential: string): Promise<AuthUser | undefined> {
    const tokenHash = hashOpaqueToken(credential);
    const remembered = known.get(tokenHash);
    if (remembered) return remembered;
    const [row] = await findToken(db, { tokenHash });
    if (!row) return undefined;
    const user: AuthUser = {
      id: row.userId,
      appName: row.appName,
      isTemporary: false,
      apiToken: { id: row.id, scopes: row.scopes as ApiTokenScope[], expiresAt: row.expiresAt },
    };
    if (known.size >= REMEMBERED_TOKENS) known.delete(known.keys().next().value!);
    known.set(tokenHash, user);
    return user;
  }

  /** Writes the token's last use when this instance has not for a minute. */
  async function touch(tokenId: number): Promise<void> {
    const at = now();
    if (at.getTime() - (touched.get(tokenId) ?? -Infinity) < LAST_USED_PRECISION_MS) return;
    if (touched.size >= REMEMBERED_TOKENS) touched.delete(touched.keys().next().value!);
    touched.set(tokenId, at.getTime());
    const due = new Date(at.getTime() - LAST_USED_PRECISION_MS);
    await db
      .update(apiTokens)
      .set({ lastUsedAt: at })
      .where(
        and(
          eq(apiTokens.id, tokenId),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, due)),
        ),
      );
  }

  return {
    /** The bearer of `credential` (`hk_…`) for this request, or a refusal (401, 429, 403). */
    async authenticate(
      request: FastifyRequest,
      reply: FastifyReply,
      credential: string,
    ): Promise<void> {
      const user = await resolve(credential);
      if (!user?.apiToken || isExpired(user.apiToken, now())) throw invalidApiToken();
      if (!(await sessions.isLive(user, request.arrivedAt))) throw invalidApiToken();
      // The limits count by request.user.
      request.user = user;
      for (const limit of limits) {
        const retryAfter = await limit(request);
        if (retryAfter === undefined) continue;
        reply.header('retry-after', retryAfter);
        throw rateLimited(retryAfter);
      }
      const refusal = tokenRouteRefusal(
        user.apiToken.scopes,
        request.method,
        request.routeOptions.url ?? '',
      );
      if (refusal) {
        // RFC 6750 §3.1: which scope would do, for programs that read it.
        const scope = refusal.needs ? `, scope="${refusal.needs}"` : '';
        reply.header('www-authenticate', `Bearer error="insufficient_scope"${scope}`);
        throw insufficientScope(refusal.needs);
      }
      await touch(user.apiToken.id);
    },
  };
}
