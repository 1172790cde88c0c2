import { and, asc, count, desc, eq } from 'drizzle-orm';
import {
  apiTokenExpiryRefusal,
  API_TOKEN_LIMITS,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenScope,
  type CreateApiTokenRequest,
  type CreatedApiToken,
} from '../../domain/api-tokens';
import type { MessageResponse } from '../../domain/auth';
import type { Database, Executor } from '../db/connect';
import { apiTokens, users, type ApiTokenRow } from '../db/schema';
import { fullAccountRequired, notFound, tooManyApiTokens, validationFailed } from '../errors';
import type { EventBus } from '../events';
import { isoTime } from '../iso-time';
import { lockAccountForSessionEnd, requireLiveCaller } from './session-liveness';
import { generateOpaqueToken, hashOpaqueToken, type AuthUser } from './tokens';

// Personal API tokens (docs/integrations.md, "API tokens"): a full account makes one with a
// name, scopes and an optional expiry (ahead, a year at most), sees it once, lists and revokes
// them. Only the SHA-256 of a token is kept; an expired one is refused as a revoked one is.
// Revoking deletes the row: the account's row is locked first (as every end of a session does),
// so a write of the token either commits before the revocation answers or is refused
// (session-liveness.ts requireLiveCaller), and `sessionsRevoked` after the commit makes this
// instance forget it at once (others hear migration 0030's notification).

const REVOKED_MESSAGE = 'The token was revoked.';

export interface ApiTokenServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;

export function presentApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as ApiTokenScope[],
    createdAt: isoTime(row.createdAt),
    lastUsedAt: row.lastUsedAt ? isoTime(row.lastUsedAt) : null,
    expiresAt: row.expiresAt ? isoTime(row.expiresAt) : null,
  };
}

/** The account's tokens as its owner sees them, oldest first (the data export's list). */
export async function readApiTokensOf(tx: Executor, userId: number): Promise<ApiToken[]> {
  const rows = await tx
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
  return rows.map(presentApiToken);
}

/**
 * Every API token of the account stops working, in the caller's transaction, which has locked
 * the account's row (a password change or reset, a deletion, the operator's sessions-revoke)
 * and announces `sessionsRevoked` after its commit. Returns how many there were.
 */
export async function revokeApiTokensOf(tx: Executor, userId: number): Promise<number> {
  const revoked = await tx
    .delete(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .returning({ id: apiTokens.id });
  return revoked.length;
}

export function createApiTokenService({ db, events, now = () => new Date() }: ApiTokenServiceDeps) {
  return {
    async create(auth: AuthUser, input: CreateApiTokenRequest): Promise<CreatedApiToken> {
      const expiresAt = input.expiresAt ?? null;
      const expiryRefusal = expiresAt && apiTokenExpiryRefusal(expiresAt, now().getTime());
      if (expiryRefusal) throw validationFailed(expiryRefusal, { expiresAt: expiryRefusal });
      const token = `${API_TOKEN_PREFIX}${generateOpaqueToken()}`;
      const row = await db.transaction(async (tx) => {
        // FOR UPDATE, as a password change takes it: a token is never made under a session
        // that change has just ended, and two makes at once count each other.
        await lockAccountForSessionEnd(tx, auth.id);
        await requireLiveCaller(tx, auth, now());
        const [owner] = await tx
          .select({ isTemporary: users.isTemporary })
          .from(users)
          .where(eq(users.id, auth.id));
        if (!owner || owner.isTemporary) throw fullAccountRequired();
        const [held] = await tx
          .select({ n: count() })
          .from(apiTokens)
          .where(eq(apiTokens.userId, auth.id));
        if ((held?.n ?? 0) >= API_TOKEN_LIMITS.perUser) throw tooManyApiTokens();
        const [made] = await tx
          .insert(apiTokens)
          .values({
            userId: auth.id,
            name: input.name,
            scopes: input.scopes,
            tokenHash: hashOpaqueToken(token),
            expiresAt: expiresAt === null ? null : new Date(expiresAt),
            createdAt: now(),
          })
          .returning();
        return made!;
      });
      const { lastUsedAt: _never, ...shown } = presentApiToken(row);
      return { ...shown, token };
    },

    async list(auth: AuthUser): Promise<ApiToken[]> {
      const rows = await db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.userId, auth.id))
        .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
      return rows.map(presentApiToken);
    },

    async revoke(auth: AuthUser, id: number): Promise<MessageResponse> {
      const revoked = await db.transaction(async (tx) => {
        await lockAccountForSessionEnd(tx, auth.id);
        return tx
          .delete(apiTokens)
          .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, auth.id)))
          .returning({ id: apiTokens.id });
      });
      if (revoked.length === 0) throw notFound('Token');
      events.publish('sessionsRevoked', { userId: auth.id }, { userId: auth.id });
      return { message: REVOKED_MESSAGE };
    },
  };
}
