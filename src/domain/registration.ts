// Who may create an account on this server: the operator's REGISTRATION and GUESTS settings
// (README, Configuration). The server refuses a sign-up the rule refuses; the sign-in screens
// ask the same rule, so they never offer a button that can only fail.

export const REGISTRATION_MODES = ['open', 'invite', 'closed'] as const;
/** open: anyone signs up; invite: only through a valid group invite; closed: existing accounts only. */
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** What the server tells the client (`GET /auth/registration`). */
export interface RegistrationSettings {
  registration: RegistrationMode;
  /** GUESTS=on: a visitor may play without an account (still subject to `registration`). */
  guests: boolean;
}

export const OPEN_REGISTRATION: RegistrationSettings = { registration: 'open', guests: true };

export type NewAccountKind = 'account' | 'guest';

/** Why a new account is refused; null when it may be made. */
export type SignUpRefusal = 'registration_closed' | 'invite_required' | 'guests_disabled';

/**
 * Whether a new account of `kind` may be made, `hasValidInvite` saying whether the sign-up
 * comes through a valid invite to a group (the server checks the code; the screens know only
 * that the visitor came from an invite link).
 */
export function signUpRefusal(
  settings: RegistrationSettings,
  kind: NewAccountKind,
  hasValidInvite: boolean,
): SignUpRefusal | null {
  if (settings.registration === 'closed') return 'registration_closed';
  if (kind === 'guest' && !settings.guests) return 'guests_disabled';
  if (settings.registration === 'invite' && !hasValidInvite) return 'invite_required';
  return null;
}

/** The texts a refused sign-up shows (the server's message and the screens' notice alike). */
export const SIGN_UP_REFUSAL_MESSAGES: Record<SignUpRefusal, string> = {
  registration_closed: 'This server is not taking new accounts. Sign in with an existing account.',
  invite_required:
    'New accounts on this server join through an invite link. Ask a friend in a group for theirs.',
  guests_disabled: 'This server does not allow guests.',
};
