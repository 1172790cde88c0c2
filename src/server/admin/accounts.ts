import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import { refreshTokens, users } from '../db/schema';

// What the operator's commands read about accounts (admin-cli.ts); every change they make goes
// through the app's own services.

export interface AccountListing {
  id: number;
  email: string | null;
  displayName: string;
  isTemporary: boolean;
  createdAt: Date;
  deletedAt: Date | null;
  /** Sign-ins (refresh token families) neither revoked nor expired. */
  liveSessions: number;
}

/** Every account, oldest first, with its live sessions. */
export async function listAccounts(db: Executor, now = new Date()): Promise<AccountListing[]> {
  return db
    .select({
      id: users.id,
      email: users.email,
      displayName: users.displayName,
      isTemporary: users.isTemporary,
      createdAt: users.createdAt,
      deletedAt: users.deletedAt,
      liveSessions: sql<number>`count(distinct ${refreshTokens.familyId})`.mapWith(Number),
    })
    .from(users)
    .leftJoin(
      refreshTokens,
      and(
        eq(refreshTokens.userId, users.id),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .groupBy(users.id)
    .orderBy(asc(users.id));
}

/** The live account with this (normalised) email, if any. */
export async function findAccountByEmail(
  db: Executor,
  email: string,
): Promise<{ id: number; email: string } | undefined> {
  const [found] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  return found && { id: found.id, email };
}
