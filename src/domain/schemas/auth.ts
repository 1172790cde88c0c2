import { z } from './zod';
import { DEFAULT_APP_NAME, LIMITS } from '../constants';
import { MAX_ID } from '../ids';
import { CURRENT_PASSWORD_REQUIRED, isValidEmail } from '../auth';
import { unmetPasswordRule } from '../password-strength';
import { hasVisibleCharacter, normalizeName, TEXT_MESSAGES } from '../text-rules';
import { REGISTRATION_MODES } from '../registration';
import { joinPrivateRequestSchema } from './groups';

// Request and response schemas of the accounts API, with the exact messages users see (types
// and rules: auth.ts). The server validates with them; the client's
// forms use the form schemas.

// ---- the shared registration schema (docs/accounts-and-shell.md §5) ----

const email = z
  .string({ error: 'Invalid email' })
  .trim()
  .refine(isValidEmail, 'Invalid email')
  .transform((value) => value.toLowerCase());

const password = z
  .string({ error: 'Password must be 8–72 chars' })
  .min(LIMITS.passwordMin, 'Password must be 8–72 chars')
  .max(LIMITS.passwordMax, 'Password must be 8–72 chars');

// Names are normalised (NFC, no invisible characters, one space between words) and a display
// name must show something (docs/rules.md "Text").
const displayName = z
  .string({ error: 'Display name must be 2–50 chars' })
  .overwrite(normalizeName)
  .min(LIMITS.displayNameMin, 'Display name must be 2–50 chars')
  .max(LIMITS.displayNameMax, 'Display name must be 2–50 chars')
  .refine(hasVisibleCharacter, TEXT_MESSAGES.displayNameInvisible);

const username = z
  .string({ error: 'Username must be 3–30 chars' })
  .trim()
  .toLowerCase()
  .min(LIMITS.usernameMin, 'Username must be 3–30 chars')
  .max(LIMITS.usernameMax, 'Username must be 3–30 chars')
  .regex(/^[a-z0-9_]+$/, 'Only lowercase letters, numbers, underscore');

const personName = z
  .string({ error: 'Required' })
  .overwrite(normalizeName)
  .min(LIMITS.nameMin, 'Required')
  .max(LIMITS.nameMax, 'Max 50 chars');

/** The app a session is for (docs/accounts-and-shell.md §3); other features' sign-ins take it too. */
export const appName = z
  .string({ error: 'App name is required' })
  .trim()
  .min(1, 'App name is required')
  .max(LIMITS.appNameMax, `App name must be at most ${LIMITS.appNameMax} characters`);

const passwordsMatch = (value: { password?: string; passwordConfirm?: string }) =>
  value.password === undefined || value.password === value.passwordConfirm;

export const registerRequestSchema = z
  .strictObject({
    firstName: personName,
    lastName: personName,
    displayName,
    username,
    email,
    password,
    passwordConfirm: z.string({ error: 'Passwords do not match' }),
    appName,
    isTemporary: z.boolean({ error: 'isTemporary must be true or false' }).default(false),
    /** The group invite the visitor came through: on a server with REGISTRATION=invite, the way in. */
    invite: joinPrivateRequestSchema.optional(),
  })
  .refine(passwordsMatch, { message: 'Passwords do not match', path: ['passwordConfirm'] });

/** PUT /auth/users/me: the register fields, all optional (docs/accounts-and-shell.md §3). */
export const updateProfileRequestSchema = z
  .strictObject({
    firstName: personName.optional(),
    lastName: personName.optional(),
    displayName: displayName.optional(),
    username: username.optional(),
    email: email.optional(),
    password: password.optional(),
    passwordConfirm: z.string().optional(),
    /** A full account's password, required to change its password or its email (docs/security.md). */
    currentPassword: z
      .string()
      .max(LIMITS.passwordMax * 4)
      .optional(),
    appName: appName.optional(),
    isTemporary: z.boolean({ error: 'isTemporary must be true or false' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.password === undefined) return;
    if (value.passwordConfirm === undefined || value.passwordConfirm === '') {
      ctx.addIssue({
        code: 'custom',
        message: 'Please confirm your password',
        path: ['passwordConfirm'],
      });
    } else if (value.passwordConfirm !== value.password) {
      ctx.addIssue({
        code: 'custom',
        message: 'Passwords do not match',
        path: ['passwordConfirm'],
      });
    }
  });

export const loginRequestSchema = z.strictObject({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .transform((v) => v.toLowerCase()),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
  appName: appName.default(DEFAULT_APP_NAME),
});

export const registerGuestRequestSchema = z.strictObject({
  displayName,
  appName: appName.default(DEFAULT_APP_NAME),
  invite: joinPrivateRequestSchema.optional(),
});

/** GET /auth/registration: who may create an account on this server (src/domain/registration.ts). */
export const registrationSettingsSchema = z.object({
  registration: z.enum(REGISTRATION_MODES),
  guests: z.boolean(),
});

export const refreshTokenRequestSchema = z.strictObject({
  refreshToken: z
    .string({ error: 'Refresh token is required' })
    .min(1, 'Refresh token is required')
    .max(512),
});
export const revokeTokenRequestSchema = refreshTokenRequestSchema;

export const forgotPasswordRequestSchema = z.strictObject({
  email,
  appName: appName.default(DEFAULT_APP_NAME),
});

export const resetPasswordRequestSchema = z
  .strictObject({
    token: z
      .string({ error: 'Reset token is required' })
      .min(1, 'Reset token is required')
      .max(512),
    password,
    passwordConfirm: z.string({ error: 'Passwords do not match' }),
  })
  .refine(passwordsMatch, { message: 'Passwords do not match', path: ['passwordConfirm'] });

/** POST /auth/confirm-email: the token of the link mailed to a new address. */
export const confirmEmailChangeRequestSchema = z.strictObject({
  token: z
    .string({ error: 'Confirmation token is required' })
    .min(1, 'Confirmation token is required')
    .max(512),
});

/** GET /auth/users/ids?ids=1,2,3 */
export const userIdsQuerySchema = z.strictObject({
  ids: z
    .string({ error: 'ids is required' })
    .regex(/^\d{1,10}(,\d{1,10}){0,199}$/, 'ids must be a comma-joined list of up to 200 user ids')
    .transform((value) => [...new Set(value.split(',').map(Number))])
    .refine(
      (ids) => ids.every((id) => id >= 1 && id <= MAX_ID),
      'ids must be a comma-joined list of up to 200 user ids',
    ),
});

// ---- responses ----

/**
 * The user as the API returns it: the session user of docs/accounts-and-shell.md §3 (id, appName, displayName,
 * isTemporary, email, username, roles) together with the full user's fields. A guest has
 * empty email, username, names and roles.
 */
export const userSchema = z.object({
  id: z.number().int(),
  appName: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  isTemporary: z.boolean(),
  roles: z.array(z.string()),
  profilePictureUrl: z.string().nullable(),
});

export const authResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  user: userSchema,
});

export const updateProfileResponseSchema = z.object({
  user: userSchema,
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
});

/** A user bubble (docs/accounts-and-shell.md §3): email only for yourself, empty for everyone else (docs/security.md). */
export const userBubbleSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  username: z.string(),
  email: z.string(),
});

export const messageResponseSchema = z.object({ message: z.string() });

// ---- the client's form schemas (docs/accounts-and-shell.md §5, "Login form", "Register form", "Other forms") ----

export const loginFormSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .refine(isValidEmail, 'Please enter a valid email address'),
  password: z
    .string()
    .min(1, 'Password is required')
    .min(LIMITS.loginPasswordMin, 'Password must be at least 6 characters'),
  rememberMe: z.boolean(),
});

/** The characters a password needs beyond its length: the rule's other parts. */
const lacksCharacters = (password: string) =>
  unmetPasswordRule(password).some((part) => part !== 'length' && part !== 'maxLength');

/**
 * The sign-up rule of `password-strength.ts`, part for part, so the strength meter never says
 * "Strong" for a password this refuses (tests/domain/password-strength.test.ts).
 */
const strongPassword = z
  .string()
  .min(1, 'Password is required')
  .min(LIMITS.passwordMin, 'Password must be at least 8 characters')
  .refine(
    (password) => !lacksCharacters(password),
    'Password must include at least one uppercase letter, one lowercase letter, and one number or special character',
  )
  .max(LIMITS.passwordMax, 'Password must be 8–72 chars');

const confirmation = <T extends { password: string; passwordConfirm: string }>(
  value: T,
  ctx: z.RefinementCtx,
) => {
  if (value.passwordConfirm === '') {
    ctx.addIssue({
      code: 'custom',
      message: 'Please confirm your password',
      path: ['passwordConfirm'],
    });
  } else if (value.passwordConfirm !== value.password) {
    ctx.addIssue({ code: 'custom', message: 'Passwords do not match', path: ['passwordConfirm'] });
  }
};

/** A form's display name: the request's rule, with the form's message for an empty field. */
const displayNameField = z
  .string()
  .overwrite(normalizeName)
  .min(1, 'Display name is required')
  .min(LIMITS.displayNameMin, 'Display name must be 2–50 chars')
  .max(LIMITS.displayNameMax, 'Display name must be 2–50 chars')
  .refine(hasVisibleCharacter, TEXT_MESSAGES.displayNameInvisible);

/** The account fields the register and edit-account forms share, with the form messages of docs/accounts-and-shell.md §5. */
const accountFormFields = {
  firstName: z
    .string()
    .overwrite(normalizeName)
    .min(1, 'First name is required')
    .max(LIMITS.nameMax, 'Max 50 chars'),
  lastName: z
    .string()
    .overwrite(normalizeName)
    .min(1, 'Last name is required')
    .max(LIMITS.nameMax, 'Max 50 chars'),
  displayName: displayNameField,
  username: z
    .string()
    .trim()
    .min(1, 'Username is required')
    .min(LIMITS.usernameMin, 'Username must be at least 3 characters')
    .max(LIMITS.usernameMax, 'Username must be 3–30 chars')
    .regex(/^[A-Za-z0-9_]+$/, 'Only lowercase letters, numbers, underscore'),
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .refine(isValidEmail, 'Please enter a valid email address'),
};

export const registerFormSchema = z
  .object({
    ...accountFormFields,
    password: strongPassword,
    passwordConfirm: z.string(),
    acceptTerms: z.boolean().refine((v) => v, 'You must agree to the terms and conditions'),
  })
  .superRefine(confirmation);

export const editAccountFormSchema = z
  .object({
    ...accountFormFields,
    password: z.union([z.literal(''), strongPassword]),
    passwordConfirm: z.string(),
    currentPassword: z.string(),
  })
  .superRefine((value, ctx) => {
    if (value.password !== '') confirmation(value, ctx);
    // An email change needs it too; the form knows the current email (edit-account-modal.tsx).
    if (value.password !== '' && value.currentPassword === '') {
      ctx.addIssue({
        code: 'custom',
        message: CURRENT_PASSWORD_REQUIRED,
        path: ['currentPassword'],
      });
    }
  });

export const forgotPasswordFormSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .refine(isValidEmail, 'Please enter a valid email address'),
});

export const resetPasswordFormSchema = z
  .object({ password: strongPassword, passwordConfirm: z.string() })
  .superRefine(confirmation);

export const guestFormSchema = z.object({
  displayName: displayNameField,
});
