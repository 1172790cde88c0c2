import { and, eq, exists, gt, isNull } from 'drizzle-orm';
import type { z } from '../../domain/schemas/zod';
import type { MessageResponse } from '../../domain/auth';
import type {
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
} from '../../domain/schemas/auth';
import { TOKEN_LIFETIME } from '../../domain/constants';
import type { Database } from '../db/connect';
import { passwordResets, users, type UserRow } from '../db/schema';
import { invalidResetToken } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderPasswordResetMail } from '../mail/password-reset.mail';
import { revokeApiTokensOf } from './api-tokens.service';
import { generateOpaqueToken, hashOpaqueToken, hashPassword } from './tokens';

import type { Sessions } from './sessions';

// Password resets (docs/accounts-and-shell.md §8): a one-time link mailed to a full account;
// using it sets the new password and ends every session.

const FORGOT_PASSWORD_MESSAGE = 'Password reset link has been sent to your email.';
const RESET_PASSWORD_MESSAGE = 'Your password has been reset successfully.';

export interface PasswordResetDeps {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
  sessions: Pick<Sessions, 'revokeAllSessions' | 'announceSessionsRevoked'>;
}

export function createPasswordResets({ db, mailer, publicUrl, now, sessions }: PasswordResetDeps) {
  const { revokeAllSessions, announceSessionsRevoked } = sessions;
  const after = (seconds: number) => new Date(now().getTime() + seconds * 1000);

  /**
   * A one-time reset link for the full account of `email`, or undefined when there is none:
   * what forgot-password mails, and what the operator's `npm run admin -- reset-password` prints.
   */
  async function createPasswordResetLink(
    email: string,
  ): Promise<{ user: UserRow & { email: string }; link: string } | undefined> {
    const token = generateOpaqueToken();
    const user = await db.transaction(async (tx) => {
      const [found] = await tx
        .select()
        .from(users)
        .where(and(eq(users.email, email), eq(users.isTemporary, false)))
        .limit(1);
      if (!found?.email) return undefined;
      await tx.insert(passwordResets).values({
        userId: found.id,
        sentTo: found.email,
        tokenHash: hashOpaqueToken(token),
        expiresAt: after(TOKEN_LIFETIME.passwordResetSeconds),
      });
      return { ...found, email: found.email };
    });
    return user && { user, link: `${publicUrl}/reset-password/${token}` };
  }

  return {
    createPasswordResetLink,

    /** Mails a reset link to a full account; answers the same whether or not the email is known. */
    async forgotPassword(
      input: z.output<typeof forgotPasswordRequestSchema>,
    ): Promise<MessageResponse> {
      const reset = await createPasswordResetLink(input.email);
      if (reset) {
        mailer.send(
          renderPasswordResetMail({
            to: reset.user.email,
            displayName: reset.user.displayName,
            link: reset.link,
          }),
        );
      }
      return { message: FORGOT_PASSWORD_MESSAGE };
    },

    /** Sets a new password with a single-use reset token and signs every session out. */
    async resetPassword(
      input: z.output<typeof resetPasswordRequestSchema>,
    ): Promise<MessageResponse> {
      const tokenHash = hashOpaqueToken(input.token);
      const isLive = and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now()),
        // Only while the account's email is the address the link was mailed to.
        exists(
          db
            .select({ id: users.id })
            .from(users)
            .where(
              and(eq(users.id, passwordResets.userId), eq(users.email, passwordResets.sentTo)),
            ),
        ),
      );
      // A wrong token is refused before the password is hashed: guessing must not cost us an argon2 hash each.
      const [known] = await db
        .select({ userId: passwordResets.userId })
        .from(passwordResets)
        .where(isLive)
        .limit(1);
      if (!known) throw invalidResetToken();
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        // One conditional update both checks and consumes the token, so it works only once
        // even when two requests race.
        const [used] = await tx
          .update(passwordResets)
          .set({ usedAt: now() })
          .where(isLive)
          .returning({ userId: passwordResets.userId });
        if (!used) throw invalidResetToken();
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: now() })
          .where(eq(users.id, used.userId));
        // Other outstanding links die with this one; so do the sessions of whoever knew the old password.
        await tx
          .update(passwordResets)
          .set({ usedAt: now() })
          .where(and(eq(passwordResets.userId, used.userId), isNull(passwordResets.usedAt)));
        await revokeAllSessions(tx, used.userId);
        await revokeApiTokensOf(tx, used.userId);
      });
      announceSessionsRevoked(known.userId);
      return { message: RESET_PASSWORD_MESSAGE };
    },
  };
}
