import { eq, inArray } from 'drizzle-orm';
import type { z } from '../../domain/schemas/zod';
import type { AuthResponse, UpdateProfileResponse, User, UserBubble } from '../../domain/auth';
import type {
  loginRequestSchema,
  registerGuestRequestSchema,
  registerRequestSchema,
  updateProfileRequestSchema,
} from '../../domain/schemas/auth';
import {
  OPEN_REGISTRATION,
  signUpRefusal,
  type NewAccountKind,
  type RegistrationSettings,
  type SignUpRefusal,
} from '../../domain/registration';
import type { Database, Executor } from '../db/connect';
import { users } from '../db/schema';
import {
  cannotBecomeTemporary,
  invalidAccessToken,
  invalidCredentials,
  invalidCurrentPassword,
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
import { usersKnownTo } from '../groups/membership-queries';
import { type AccessTokens, type AuthUser, hashPassword, verifyPassword } from './tokens';
import { revokeApiTokensOf } from './api-tokens.service';
import { presentUser, presentUserBubble } from './user.presenter';
import { assertEmailAndUsernameFree, createEmailChanges } from './email-change';
import { createPasswordResets } from './password-reset';
import { createSessions, findUser } from './sessions';

// The rules of accounts (docs/accounts-and-shell.md, docs/architecture.md §6): signing up and
// in, the profile and a guest's upgrade; sessions (sessions.ts), password resets
// (password-reset.ts) and email changes (email-change.ts) are composed in. Each change runs in
// one transaction; routes only validate, call one function here and send what it returns.

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
  const sessions = createSessions({ db, events, accessTokens, now });
  const { announceSessionsRevoked, startSession, revokeAllSessions } = sessions;
  const passwordResets = createPasswordResets({ db, mailer, publicUrl, now, sessions });
  const emailChanges = createEmailChanges({ db, mailer, publicUrl, now });

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

  return {
    startSession,
    revokeTransfers: sessions.revokeTransfers,
    createPasswordResetLink: passwordResets.createPasswordResetLink,

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
    refresh: sessions.refresh,
    revoke: sessions.revoke,
    revokeAll: sessions.revokeAll,
    revokeAllAsOperator: sessions.revokeAllAsOperator,
    forgotPassword: passwordResets.forgotPassword,
    resetPassword: passwordResets.resetPassword,

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
        // A new password revokes every API token too (docs/integrations.md, "API tokens").
        if (passwordHash !== undefined) await revokeApiTokensOf(tx, current.id);
        // After the sessions end: this request's own change outlives the password change it came with.
        const emailConfirmation =
          pendingEmail === undefined
            ? undefined
            : {
                to: pendingEmail,
                token: await emailChanges.startEmailChange(tx, current.id, pendingEmail),
              };
        const response: UpdateProfileResponse = isNewSession
          ? await startSession(tx, updated!, auth.appName)
          : { user: presentUser(updated!) };
        return { response, emailConfirmation };
      });
      if (response.accessToken) announceSessionsRevoked(auth.id);
      if (emailConfirmation) emailChanges.sendLink(emailConfirmation.to, emailConfirmation.token);
      return response;
    },
    confirmEmailChange: emailChanges.confirmEmailChange,

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
