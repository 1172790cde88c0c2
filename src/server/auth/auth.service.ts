import { and, eq, exists, gt, inArray, isNull, ne, or } from 'drizzle-orm';
import type { z } from '../../domain/schemas/zod';
import type {
  AuthResponse,
  MessageResponse,
  UpdateProfileResponse,
  User,
  UserBubble,
} from '../../domain/auth';
import type {
  confirmEmailChangeRequestSchema,
  forgotPasswordRequestSchema,
  loginRequestSchema,
  registerGuestRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  updateProfileRequestSchema,
} from '../../domain/schemas/auth';
import { TOKEN_LIFETIME } from '../../domain/constants';
import {
  OPEN_REGISTRATION,
  signUpRefusal,
  type NewAccountKind,
  type RegistrationSettings,
  type SignUpRefusal,
} from '../../domain/registration';
import type { Database } from '../db/connect';
import {
  deviceTransfers,
  emailChanges,
  passwordResets,
  refreshTokens,
  users,
  type UserRow,
} from '../db/schema';
import {
  cannotBecomeTemporary,
  emailOrUsernameTaken,
  invalidAccessToken,
  invalidCredentials,
  invalidCurrentPassword,
  invalidEmailChangeToken,
  invalidRefreshToken,
  invalidResetToken,
  guestsDisabled,
  inviteRequired,
  registrationClosed,
  upgradeIncomplete,
  upgradeRequired,
  validationFailed,
} from '../errors';
import type { EventBus } from '../events';
import type { Mailer } from '../mail/mailer';
import { requireInviteCode } from '../groups/group-access';
import { usersKnownTo } from '../groups/membership.service';
import { renderEmailChangeMail } from '../mail/email-change.mail';
import { renderPasswordResetMail } from '../mail/password-reset.mail';
import {
  type AccessTokens,
  type AuthUser,
  generateOpaqueToken,
  hashOpaqueToken,
  hashPassword,
  newTokenFamily,
  verifyPassword,
} from './tokens';
import { presentUser, presentUserBubble } from './user.presenter';
import { lockAccountForSessionEnd } from './session-liveness';

// The rules of accounts and sessions (docs/accounts-and-shell.md, docs/architecture.md §6). Each change runs in one
// transaction; routes only validate, call one function here and send what it returns.

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
type Executor = Database | Transaction;

const FORGOT_PASSWORD_MESSAGE = 'Password reset link has been sent to your email.';
const RESET_PASSWORD_MESSAGE = 'Your password has been reset successfully.';
const REVOKE_TOKEN_MESSAGE = 'Refresh token revoked.';
const REVOKE_ALL_MESSAGE = 'Signed out everywhere.';
const EMAIL_CHANGED_MESSAGE = 'Your email address has been changed.';

/** The roles of a full account; guests have none (docs/accounts-and-shell.md §3). */
const FULL_ACCOUNT_ROLES = ['user'];

export interface AuthServiceDeps {
  db: Database;
  /** Sessions ended are announced after the commit (the realtime gateway drops the user's sockets). */
  events?: EventBus;
  accessTokens: AccessTokens;
  mailer: Mailer;
  publicUrl: string;
  /** REGISTRATION and GUESTS: who may create an account (default: anyone, guests too). */
  registration?: RegistrationSettings;
  /** The clock; tests move it to expire tokens. */
  now?: () => Date;
}

const SIGN_UP_REFUSALS: Record<SignUpRefusal, () => Error> = {
  registration_closed: registrationClosed,
  invite_required: inviteRequired,
  guests_disabled: guestsDisabled,
};

interface Invite {
  groupId: number;
  inviteCode: string;
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService({
  db,
  events,
  accessTokens,
  mailer,
  publicUrl,
  registration = OPEN_REGISTRATION,
  now = () => new Date(),
}: AuthServiceDeps) {
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

  async function assertEmailAndUsernameFree(
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

  /**
   * Refuses a new account the operator's settings do not allow: before any work when no invite
   * could change the answer, else in the sign-up's transaction, where the invite's code is
   * checked against the group as it is then (403 invalid_invite_code for a wrong one).
   */
  async function assertMaySignUp(tx: Executor | null, kind: NewAccountKind, invite?: Invite) {
    let hasValidInvite = false;
    if (tx && registration.registration === 'invite' && invite) {
      await requireInviteCode(tx, invite.groupId, invite.inviteCode);
      hasValidInvite = true;
    }
    // Without the transaction: could any invite let it through?
    const refusal = signUpRefusal(registration, kind, tx ? hasValidInvite : invite !== undefined);
    if (refusal) throw SIGN_UP_REFUSALS[refusal]();
  }

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

  async function findUser(tx: Executor, id: number): Promise<UserRow> {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
    // A valid token for a user who no longer exists, or deleted their account, is a dead session.
    if (!row || row.deletedAt !== null) throw invalidAccessToken();
    return row;
  }

  return {
    startSession,
    revokeTransfers,
    createPasswordResetLink,

    async register(input: z.output<typeof registerRequestSchema>): Promise<AuthResponse> {
      if (input.isTemporary) {
        throw validationFailed('Use the guest registration for a temporary account', {
          isTemporary: 'Must be false',
        });
      }
      await assertMaySignUp(null, 'account', input.invite);
      const passwordHash = await hashPassword(input.password);
      return db.transaction(async (tx) => {
        await assertMaySignUp(tx, 'account', input.invite);
        await assertEmailAndUsernameFree(tx, input);
        const [user] = await tx
          .insert(users)
          .values({
            appName: input.appName,
            email: input.email,
            username: input.username,
            passwordHash,
            firstName: input.firstName,
            lastName: input.lastName,
            displayName: input.displayName,
            isTemporary: false,
            roles: FULL_ACCOUNT_ROLES,
          })
          .returning();
        return startSession(tx, user!, input.appName);
      });
    },

    async login(input: z.output<typeof loginRequestSchema>): Promise<AuthResponse> {
      const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
      // Unknown email, wrong password and a guest (no password) all look the same (docs/accounts-and-shell.md §8).
      const isValid = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !isValid) throw invalidCredentials();
      return db.transaction((tx) => startSession(tx, user, input.appName));
    },

    async registerGuest(input: z.output<typeof registerGuestRequestSchema>): Promise<AuthResponse> {
      await assertMaySignUp(null, 'guest', input.invite);
      return db.transaction(async (tx) => {
        await assertMaySignUp(tx, 'guest', input.invite);
        const [user] = await tx
          .insert(users)
          .values({
            appName: input.appName,
            displayName: input.displayName,
            isTemporary: true,
            roles: [],
          })
          .returning();
        return startSession(tx, user!, input.appName);
      });
    },

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

    /** Signs out everywhere: every session of the caller ends, their open sockets are dropped. */
    async revokeAll(auth: Pick<AuthUser, 'id'>): Promise<MessageResponse> {
      await db.transaction((tx) => revokeAllSessions(tx, auth.id));
      announceSessionsRevoked(auth.id);
      return { message: REVOKE_ALL_MESSAGE };
    },

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
      });
      announceSessionsRevoked(known.userId);
      return { message: RESET_PASSWORD_MESSAGE };
    },

    async getProfile(auth: AuthUser): Promise<User> {
      return presentUser(await findUser(db, auth.id));
    },

    /**
     * Profile update and guest upgrade (docs/accounts-and-shell.md §3, docs/architecture.md §6). A guest becomes a full
     * user with the same id by sending every account field and isTemporary false. When the
     * account type or the password changes, every other session is signed out and a new pair
     * of tokens is returned. A full account's new email is not set here: a link is mailed to
     * it (`startEmailChange`), and the answer is the same whether or not it has an account.
     */
    async updateProfile(
      auth: AuthUser,
      input: z.output<typeof updateProfileRequestSchema>,
    ): Promise<UpdateProfileResponse> {
      const passwordHash =
        input.password !== undefined ? await hashPassword(input.password) : undefined;
      const { response, emailConfirmation } = await db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(users)
          .where(eq(users.id, auth.id))
          .for('update')
          .limit(1);
        // A deleted account's tombstone never takes personal data again.
        if (!current || current.deletedAt !== null) throw invalidAccessToken();

        if (input.isTemporary === true && !current.isTemporary) throw cannotBecomeTemporary();
        const isUpgrade = current.isTemporary && input.isTemporary === false;
        if (isUpgrade) {
          const required = [
            'firstName',
            'lastName',
            'username',
            'email',
            'password',
            'passwordConfirm',
          ] as const;
          const missing = required.filter((field) => input[field] === undefined);
          if (missing.length > 0) throw upgradeIncomplete(missing);
        } else if (
          current.isTemporary &&
          (input.email !== undefined ||
            input.username !== undefined ||
            input.password !== undefined)
        ) {
          throw upgradeRequired();
        }

        // A stolen access token alone must not take the account: a full account's password or
        // email changes only with its current password (docs/security.md).
        const isEmailChange = input.email !== undefined && input.email !== current.email;
        if (!current.isTemporary && (passwordHash !== undefined || isEmailChange)) {
          const isCorrect =
            input.currentPassword !== undefined &&
            (await verifyPassword(current.passwordHash, input.currentPassword));
          if (!isCorrect) throw invalidCurrentPassword();
        }
        // A full account's new email waits for its link (so a taken one cannot be told from a
        // free one); a guest upgrade sets it at once, 409 when taken (docs/accounts-and-shell.md §3).
        const pendingEmail = isEmailChange && !current.isTemporary ? input.email : undefined;
        const email = pendingEmail === undefined ? input.email : undefined;
        await assertEmailAndUsernameFree(tx, { email, username: input.username }, current.id);
        const [updated] = await tx
          .update(users)
          .set({
            firstName: input.firstName,
            lastName: input.lastName,
            displayName: input.displayName,
            username: input.username,
            email,
            appName: input.appName,
            passwordHash,
            ...(isUpgrade ? { isTemporary: false, roles: FULL_ACCOUNT_ROLES } : {}),
            updatedAt: now(),
          })
          .where(eq(users.id, current.id))
          .returning();

        const isNewSession = isUpgrade || passwordHash !== undefined;
        if (isNewSession) await revokeAllSessions(tx, current.id);
        // After the sessions end: this request's own change outlives the password change it came with.
        const emailConfirmation =
          pendingEmail === undefined
            ? undefined
            : { to: pendingEmail, token: await startEmailChange(tx, current.id, pendingEmail) };
        const response: UpdateProfileResponse = isNewSession
          ? await startSession(tx, updated!, auth.appName)
          : { user: presentUser(updated!) };
        return { response, emailConfirmation };
      });
      if (response.accessToken) announceSessionsRevoked(auth.id);
      if (emailConfirmation) {
        mailer.send(
          renderEmailChangeMail({
            to: emailConfirmation.to,
            link: `${publicUrl}/confirm-email/${emailConfirmation.token}`,
          }),
        );
      }
      return response;
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

    /**
     * User bubbles for the given ids: the caller and the people of the caller's groups;
     * every other id is skipped like an unknown one, so ids cannot be walked to list accounts.
     */
    async findUsersByIds(auth: AuthUser, ids: number[]): Promise<UserBubble[]> {
      const safeIds = ids.filter((id) => id > 0 && id <= 2_147_483_647);
      if (safeIds.length === 0) return [];
      const known = await usersKnownTo(db, auth.id, safeIds);
      if (known.size === 0) return [];
      const rows = await db
        .select()
        .from(users)
        .where(inArray(users.id, [...known]));
      const byId = new Map(rows.map((row) => [row.id, row]));
      return safeIds.flatMap((id) => {
        const row = byId.get(id);
        return row ? [presentUserBubble(row, auth.id)] : [];
      });
    },
  };
}
