import { and, eq, isNull } from 'drizzle-orm';
import type { AuthResponse, MessageResponse } from '../../domain/auth';
import { TOKEN_LIFETIME } from '../../domain/constants';
import type { Database, Executor } from '../db/connect';
import { deviceTransfers, emailChanges, refreshTokens, users, type UserRow } from '../db/schema';
import { invalidAccessToken, invalidRefreshToken } from '../errors';
import type { EventBus } from '../events';
import {
  type AccessTokens,
  type AuthUser,
  generateOpaqueToken,
  hashOpaqueToken,
  newTokenFamily,
} from './tokens';
import { revokeApiTokensOf } from './api-tokens.service';
import { presentUser } from './user.presenter';
import { lockAccountForSessionEnd } from './session-liveness';

// Sessions (docs/architecture.md §6): a session is a family of refresh tokens, rotated on each
// refresh; a replayed token ends its family. Every end of a session locks the account's row
// first (session-liveness.ts) and is announced after the commit, so the realtime gateway drops
// the user's sockets.

const REVOKE_TOKEN_MESSAGE = 'Refresh token revoked.';
const REVOKE_ALL_MESSAGE = 'Signed out everywhere.';

export interface SessionDeps {
  db: Database;
  /** Sessions ended are announced after the commit (the realtime gateway drops the user's sockets). */
  events?: EventBus;
  accessTokens: AccessTokens;
  now: () => Date;
}

/** The account behind a session: a deleted or unknown one is a dead session (401). */
export async function findUser(tx: Executor, id: number): Promise<UserRow> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
  // A valid token for a user who no longer exists, or deleted their account, is a dead session.
  if (!row || row.deletedAt !== null) throw invalidAccessToken();
  return row;
}

export type Sessions = ReturnType<typeof createSessions>;

export function createSessions({ db, events, accessTokens, now }: SessionDeps) {
  const announceSessionsRevoked = (userId: number) =>
    events?.publish('sessionsRevoked', { userId }, { userId });
  const after = (seconds: number) => new Date(now().getTime() + seconds * 1000);

  /** A new session: an access token and the first refresh token of a new family. */
  async function startSession(tx: Executor, user: UserRow, appName: string): Promise<AuthResponse> {
    const refreshToken = generateOpaqueToken();
    const familyId = newTokenFamily();
    await tx.insert(refreshTokens).values({
      userId: user.id,
      tokenHash: hashOpaqueToken(refreshToken),
      familyId,
      appName,
      expiresAt: after(TOKEN_LIFETIME.refreshSeconds),
    });
    const accessToken = await accessTokens.sign({
      id: user.id,
      appName,
      isTemporary: user.isTemporary,
      sessionFamily: familyId,
    });
    return { accessToken, refreshToken, user: presentUser(user) };
  }

  /** The user's move-to-another-device codes not yet used stop working. */
  async function revokeTransfers(tx: Executor, userId: number) {
    await tx
      .update(deviceTransfers)
      .set({ revokedAt: now() })
      .where(
        and(
          eq(deviceTransfers.userId, userId),
          isNull(deviceTransfers.usedAt),
          isNull(deviceTransfers.revokedAt),
        ),
      );
  }

  /** Every session ends, and no sign-in code may start a new one nor a pending link change the email. */
  async function revokeAllSessions(tx: Executor, userId: number) {
    await lockAccountForSessionEnd(tx, userId);
    await tx
      .update(refreshTokens)
      .set({ revokedAt: now() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    await revokeTransfers(tx, userId);
    await tx.delete(emailChanges).where(eq(emailChanges.userId, userId));
  }

  return {
    announceSessionsRevoked,
    startSession,
    revokeTransfers,
    revokeAllSessions,

    /**
     * Rotates a refresh token. A token that was already rotated or revoked means it leaked
     * (or a client raced itself): the whole family is revoked and the caller must sign in.
     */
    async refresh(refreshToken: string): Promise<AuthResponse> {
      const tokenHash = hashOpaqueToken(refreshToken);
      const outcome = await db.transaction(async (tx) => {
        // The account's row first, as every end of a session locks it (db/README.md, "Lock
        // order"), then the token's: a replay ends the family, and a rotation adds a token to
        // the family, which a sign-out running meanwhile must see and end too.
        const [owner] = await tx
          .select({ userId: refreshTokens.userId })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, tokenHash))
          .limit(1);
        if (!owner) return { ok: false as const };
        await lockAccountForSessionEnd(tx, owner.userId);
        const [current] = await tx
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, tokenHash))
          .for('update')
          .limit(1);
        if (!current) return { ok: false as const };
        if (current.revokedAt !== null) {
          const revoked = await tx
            .update(refreshTokens)
            .set({ revokedAt: now() })
            .where(
              and(eq(refreshTokens.familyId, current.familyId), isNull(refreshTokens.revokedAt)),
            )
            .returning({ id: refreshTokens.id });
          return { ok: false as const, endedFor: revoked.length > 0 ? current.userId : undefined };
        }
        if (current.expiresAt <= now()) return { ok: false as const };
        await tx
          .update(refreshTokens)
          .set({ revokedAt: now() })
          .where(eq(refreshTokens.id, current.id));
        const user = await findUser(tx, current.userId);
        const next = generateOpaqueToken();
        await tx.insert(refreshTokens).values({
          userId: user.id,
          tokenHash: hashOpaqueToken(next),
          familyId: current.familyId,
          appName: current.appName,
          expiresAt: after(TOKEN_LIFETIME.refreshSeconds),
        });
        const accessToken = await accessTokens.sign({
          id: user.id,
          appName: current.appName,
          isTemporary: user.isTemporary,
          sessionFamily: current.familyId,
        });
        return {
          ok: true as const,
          session: { accessToken, refreshToken: next, user: presentUser(user) },
        };
      });
      // Thrown after the commit, so the family revocation above is kept; the session's access
      // tokens and sockets end with it.
      if (!outcome.ok) {
        if (outcome.endedFor !== undefined) announceSessionsRevoked(outcome.endedFor);
        throw invalidRefreshToken();
      }
      return outcome.session;
    },

    /** Signs a session out: its refresh token family stops working. Unknown tokens answer the same. */
    async revoke(refreshToken: string): Promise<MessageResponse> {
      const userId = await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ familyId: refreshTokens.familyId, userId: refreshTokens.userId })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hashOpaqueToken(refreshToken)))
          .limit(1);
        if (!current) return undefined;
        await lockAccountForSessionEnd(tx, current.userId);
        await tx
          .update(refreshTokens)
          .set({ revokedAt: now() })
          .where(
            and(eq(refreshTokens.familyId, current.familyId), isNull(refreshTokens.revokedAt)),
          );
        return current.userId;
      });
      if (userId !== undefined) announceSessionsRevoked(userId);
      return { message: REVOKE_TOKEN_MESSAGE };
    },

    /**
     * The operator's `sessions-revoke` (src/server/admin): every session ends, and every API
     * token with them (a token is a session for another program); returns how many tokens.
     */
    async revokeAllAsOperator(userId: number): Promise<number> {
      const revokedTokens = await db.transaction(async (tx) => {
        await revokeAllSessions(tx, userId);
        return revokeApiTokensOf(tx, userId);
      });
      announceSessionsRevoked(userId);
      return revokedTokens;
    },

    /** Signs out everywhere: every session of the caller ends, their open sockets are dropped. */
    async revokeAll(auth: Pick<AuthUser, 'id'>): Promise<MessageResponse> {
      await db.transaction((tx) => revokeAllSessions(tx, auth.id));
      announceSessionsRevoked(auth.id);
      return { message: REVOKE_ALL_MESSAGE };
    },
  };
}
