import { and, eq, gt, isNull, ne, or } from 'drizzle-orm';
import type { z } from '../../domain/schemas/zod';
import type { MessageResponse } from '../../domain/auth';
import type { confirmEmailChangeRequestSchema } from '../../domain/schemas/auth';
import { TOKEN_LIFETIME } from '../../domain/constants';
import type { Database, Executor } from '../db/connect';
import { emailChanges, passwordResets, users } from '../db/schema';
import { emailOrUsernameTaken, invalidEmailChangeToken } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderEmailChangeMail } from '../mail/email-change.mail';
import { generateOpaqueToken, hashOpaqueToken } from './tokens';

// A full account's email changes only through a link mailed to the new address
// (docs/accounts-and-shell.md §3): asking stores the link's token, opening it sets the email.

const EMAIL_CHANGED_MESSAGE = 'Your email address has been changed.';

/** 409 when another account has the email or username (`exceptUserId`'s own are free). */
export async function assertEmailAndUsernameFree(
  tx: Executor,
  fields: { email?: string; username?: string },
  exceptUserId?: number,
) {
  const taken = [
    fields.email !== undefined ? eq(users.email, fields.email) : undefined,
    fields.username !== undefined ? eq(users.username, fields.username) : undefined,
  ].filter((condition) => condition !== undefined);
  if (taken.length === 0) return;
  const [clash] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(or(...taken), exceptUserId === undefined ? undefined : ne(users.id, exceptUserId)))
    .limit(1);
  if (clash) throw emailOrUsernameTaken();
}

export interface EmailChangeDeps {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
}

export function createEmailChanges({ db, mailer, publicUrl, now }: EmailChangeDeps) {
  const after = (seconds: number) => new Date(now().getTime() + seconds * 1000);

  /**
   * A full account asks for `newEmail`: it takes effect only once the link mailed there is
   * opened. The user's earlier pending change ends. Nothing here asks whether the address
   * has an account, so the answer is the same either way; confirming checks it. Returns the
   * link's token, for the mail sent after the commit.
   */
  async function startEmailChange(tx: Executor, userId: number, newEmail: string) {
    const token = generateOpaqueToken();
    await tx.delete(emailChanges).where(eq(emailChanges.userId, userId));
    await tx.insert(emailChanges).values({
      userId,
      newEmail,
      tokenHash: hashOpaqueToken(token),
      expiresAt: after(TOKEN_LIFETIME.emailChangeSeconds),
    });
    return token;
  }

  return {
    startEmailChange,

    /** Mails the link that confirms `to` (after the commit that stored its token). */
    sendLink(to: string, token: string) {
      mailer.send(renderEmailChangeMail({ to, link: `${publicUrl}/confirm-email/${token}` }));
    },

    /**
     * Opens the link mailed to a new address: the account's email becomes that address, if it
     * is still free (409 `email_or_username_taken` otherwise, and the link keeps working until
     * it expires). A link is used once; unknown, used, replaced and expired ones are alike.
     */
    async confirmEmailChange(
      input: z.output<typeof confirmEmailChangeRequestSchema>,
    ): Promise<MessageResponse> {
      const tokenHash = hashOpaqueToken(input.token);
      await db.transaction(async (tx) => {
        const [pending] = await tx
          .select({ userId: emailChanges.userId })
          .from(emailChanges)
          .where(eq(emailChanges.tokenHash, tokenHash))
          .limit(1);
        if (!pending) throw invalidEmailChangeToken();
        // The account's row first, as a profile update or a deletion locks it before its
        // email changes.
        const [user] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, pending.userId), isNull(users.deletedAt)))
          .for('update');
        if (!user) throw invalidEmailChangeToken();
        // Deleting the row both checks and consumes the link, so two openings at once change
        // the email once; a refusal below rolls the deletion back.
        const [change] = await tx
          .delete(emailChanges)
          .where(and(eq(emailChanges.tokenHash, tokenHash), gt(emailChanges.expiresAt, now())))
          .returning();
        if (!change) throw invalidEmailChangeToken();
        // Taken meanwhile: say so (the one who opens the link holds that mailbox); a sign-up
        // racing this one ends at the unique index, which answers the same.
        await assertEmailAndUsernameFree(tx, { email: change.newEmail }, user.id);
        await tx
          .update(users)
          .set({ email: change.newEmail, updatedAt: now() })
          .where(eq(users.id, user.id));
        // Reset links mailed to the old address end with it (they would fail their address
        // check anyway; this keeps none pending).
        await tx
          .update(passwordResets)
          .set({ usedAt: now() })
          .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
      });
      return { message: EMAIL_CHANGED_MESSAGE };
    },
  };
}
