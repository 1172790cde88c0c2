import type {
  AuthResponse,
  ForgotPasswordForm,
  LoginForm,
  MessageResponse,
  RegisterForm,
  ResetPasswordRequest,
  UpdateProfileRequest,
  UpdateProfileResponse,
  User,
} from '../../domain/auth';
import { AUTH_BASE, DEFAULT_APP_NAME } from '../../domain/constants';
import type { RegistrationSettings } from '../../domain/registration';
import { api, sessionStore } from './session';

// The accounts API of docs/accounts-and-shell.md §7 as actions the screens call. Each one updates the session
// as the spec says (remember-me, registration persistent, profile update replaces the user).

export async function login({ email, password, rememberMe }: LoginForm): Promise<User> {
  const auth = await api.post<AuthResponse>(
    `${AUTH_BASE}/login`,
    { email, password, appName: DEFAULT_APP_NAME },
    { auth: false },
  );
  sessionStore.signIn(auth, rememberMe);
  return auth.user;
}

/** The group invite a visitor came through: on an invite-only server, their way in. */
export interface SignUpInvite {
  groupId: number;
  inviteCode: string;
}

/** Who may create an account on this server (the operator's REGISTRATION and GUESTS). */
export function fetchRegistrationSettings(): Promise<RegistrationSettings> {
  return api.get<RegistrationSettings>(`${AUTH_BASE}/registration`, { auth: false });
}

export async function register(form: RegisterForm, invite?: SignUpInvite | null): Promise<User> {
  const { acceptTerms: _acceptTerms, ...fields } = form;
  const auth = await api.post<AuthResponse>(
    `${AUTH_BASE}/register`,
    { ...fields, appName: DEFAULT_APP_NAME, isTemporary: false, ...(invite ? { invite } : {}) },
    { auth: false },
  );
  sessionStore.register(auth);
  return auth.user;
}

export async function registerGuest(
  displayName: string,
  invite?: SignUpInvite | null,
): Promise<User> {
  const auth = await api.post<AuthResponse>(
    `${AUTH_BASE}/register-guest`,
    { displayName, appName: DEFAULT_APP_NAME, ...(invite ? { invite } : {}) },
    { auth: false },
  );
  sessionStore.register(auth);
  return auth.user;
}

export function requestPasswordReset({ email }: ForgotPasswordForm) {
  return api.post<MessageResponse>(
    `${AUTH_BASE}/forgot-password`,
    { email, appName: DEFAULT_APP_NAME },
    { auth: false },
  );
}

export function resetPassword(request: ResetPasswordRequest) {
  return api.post<MessageResponse>(`${AUTH_BASE}/reset-password`, request, { auth: false });
}

/** Opens the link mailed to a new email address; it works signed in or not, on any device. */
export function confirmEmailChange(token: string) {
  return api.post<MessageResponse>(`${AUTH_BASE}/confirm-email`, { token }, { auth: false });
}

export async function fetchCurrentUser(): Promise<User> {
  const user = await api.get<User>(`${AUTH_BASE}/users/me`);
  sessionStore.replaceUser(user);
  return user;
}

/** PUT /auth/users/me; also used to upgrade a guest (the full fields plus isTemporary false). */
export async function updateProfile(changes: UpdateProfileRequest): Promise<User> {
  const { user, accessToken, refreshToken } = await api.put<UpdateProfileResponse>(
    `${AUTH_BASE}/users/me`,
    changes,
  );
  sessionStore.replaceUser(user, { accessToken, refreshToken });
  return user;
}

export function logout() {
  return sessionStore.logout();
}
