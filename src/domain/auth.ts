import { LIMITS } from './constants';
import { normalizeName } from './text-rules';

// The accounts API's types and the rules its schemas and forms share (the schemas, with the
// exact messages users see: schemas/auth.ts).

const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The standard address pattern with the length limits of docs/accounts-and-shell.md §5 (254 overall, 64 local part). */
export function isValidEmail(value: string): boolean {
  if (value.length > LIMITS.emailMax || !EMAIL_PATTERN.test(value)) return false;
  return value.indexOf('@') <= LIMITS.emailLocalMax;
}

/**
 * The display name the sign-up form suggests from the first name (issue #42: a friend from an
 * invite types name, email and password): the first name as names are kept.
 */
export function suggestDisplayName(firstName: string): string {
  return normalizeName(firstName).slice(0, LIMITS.displayNameMax).trim();
}

/**
 * The username the sign-up form suggests from the first name: its letters and digits without
 * accents, lowercased, then `suffix` (two digits the form picks once, so "Sam" rarely meets
 * another "sam"); "" when the name has no such letter (the player types one). Whether it is
 * free is the server's to say when the form is sent, as for a typed one.
 */
export function suggestUsername(firstName: string, suffix: number): string {
  const letters = firstName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '');
  if (letters === '') return '';
  const tail = String(suffix);
  return letters.slice(0, LIMITS.usernameMax - tail.length) + tail;
}

export const CURRENT_PASSWORD_REQUIRED =
  'Enter your current password to change your email or password';

// ---- requests, as sent ----

export type RegisterRequest = {
  firstName: string;
  lastName: string;
  displayName: string;
  username: string;
  email: string;
  password: string;
  passwordConfirm: string;
  appName: string;
  isTemporary?: boolean | undefined;
  /** The group invite the visitor came through (REGISTRATION=invite lets only these in). */
  invite?: { groupId: number | string; inviteCode: string } | undefined;
};

/** PUT /auth/users/me: the register fields, all optional (docs/accounts-and-shell.md §3). */
export type UpdateProfileRequest = {
  firstName?: string | undefined;
  lastName?: string | undefined;
  displayName?: string | undefined;
  username?: string | undefined;
  email?: string | undefined;
  password?: string | undefined;
  passwordConfirm?: string | undefined;
  /** A full account's password, required to change its password or its email (docs/security.md). */
  currentPassword?: string | undefined;
  appName?: string | undefined;
  isTemporary?: boolean | undefined;
};

export type ResetPasswordRequest = { token: string; password: string; passwordConfirm: string };

/** POST /auth/confirm-email: the token of the link mailed to a new address. */
export type ConfirmEmailChangeRequest = { token: string };

// ---- responses ----

/**
 * The user as the API returns it: the session user of docs/accounts-and-shell.md §3 (id, appName, displayName,
 * isTemporary, email, username, roles) together with the full user's fields. A guest has
 * empty email, username, names and roles.
 */
export type User = {
  id: number;
  appName: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  displayName: string;
  isTemporary: boolean;
  roles: string[];
  profilePictureUrl: string | null;
};

export type AuthResponse = { accessToken: string; refreshToken: string; user: User };

export type UpdateProfileResponse = {
  user: User;
  accessToken?: string | undefined;
  refreshToken?: string | undefined;
};

/** A user bubble (docs/accounts-and-shell.md §3): email only for yourself, empty for everyone else (docs/security.md). */
export type UserBubble = { id: number; displayName: string; username: string; email: string };

export type MessageResponse = { message: string };

// ---- the client's forms (docs/accounts-and-shell.md §5, "Login form", "Register form", "Other forms") ----

export type LoginForm = { email: string; password: string; rememberMe: boolean };

interface AccountFormFields {
  firstName: string;
  lastName: string;
  displayName: string;
  username: string;
  email: string;
}

export interface RegisterForm extends AccountFormFields {
  password: string;
  passwordConfirm: string;
  acceptTerms: boolean;
}

export interface EditAccountForm extends AccountFormFields {
  password: string;
  passwordConfirm: string;
  currentPassword: string;
}

export type ForgotPasswordForm = { email: string };

export type ResetPasswordForm = { password: string; passwordConfirm: string };

export type GuestForm = { displayName: string };
