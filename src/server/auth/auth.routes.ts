import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../domain/schemas/zod';
import {
  authResponseSchema,
  confirmEmailChangeRequestSchema,
  forgotPasswordRequestSchema,
  loginRequestSchema,
  messageResponseSchema,
  refreshTokenRequestSchema,
  registerGuestRequestSchema,
  registerRequestSchema,
  registrationSettingsSchema,
  resetPasswordRequestSchema,
  revokeTokenRequestSchema,
  updateProfileRequestSchema,
  updateProfileResponseSchema,
  userBubbleSchema,
  userIdsQuerySchema,
  userSchema,
} from '../../domain/schemas/auth';
import type { RegistrationSettings } from '../../domain/registration';
import type { RateLimits } from '../config';
import { byIp, rateLimitHook } from '../rate-limits';
import type { AuthService } from './auth.service';
import { currentUser } from './authenticate';

// The accounts API of docs/accounts-and-shell.md §7 under /auth. Each route declares its schemas, its auth and
// its limits, and calls one service function.

export interface AuthRoutesOptions {
  auth: AuthService;
  rateLimits: RateLimits;
  /** REGISTRATION and GUESTS, told to the sign-in screens. */
  registration: RegistrationSettings;
}

/**
 * Profile updates naming an email, per user and window: each new address gets a mail, which
 * must not make Hunch a way to flood anyone's mailbox. The app's edit form sends the email with
 * every save, so the limit is a human's pace.
 */
const EMAIL_UPDATES_PER_USER = 10;

export async function authRoutes(
  instance: FastifyInstance,
  { auth, rateLimits, registration }: AuthRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const windowMs = rateLimits.windowMs;
  const limit = {
    loginPerIp: rateLimitHook(app, {
      name: 'login-ip',
      max: rateLimits.loginPerIp,
      windowMs,
      key: byIp,
    }),
    loginPerEmail: rateLimitHook(app, {
      name: 'login-email',
      max: rateLimits.loginPerEmail,
      windowMs,
      key: (request) => (request.body as { email?: string } | undefined)?.email,
    }),
    guestPerIp: rateLimitHook(app, {
      name: 'guest-ip',
      max: rateLimits.guestPerIp,
      windowMs,
      key: byIp,
    }),
    forgotPerIp: rateLimitHook(app, {
      name: 'forgot-ip',
      max: rateLimits.forgotPasswordPerIp,
      windowMs,
      key: byIp,
    }),
    registerPerIp: rateLimitHook(app, {
      name: 'register-ip',
      max: rateLimits.registerPerIp,
      windowMs,
      key: byIp,
    }),
    refreshPerIp: rateLimitHook(app, {
      name: 'refresh-ip',
      max: rateLimits.refreshPerIp,
      windowMs,
      key: byIp,
    }),
    resetPerIp: rateLimitHook(app, {
      name: 'reset-ip',
      max: rateLimits.resetPasswordPerIp,
      windowMs,
      key: byIp,
    }),
    // Opening an email confirmation link counts like a password reset.
    confirmEmailPerIp: rateLimitHook(app, {
      name: 'confirm-email-ip',
      max: rateLimits.resetPasswordPerIp,
      windowMs,
      key: byIp,
    }),
    emailUpdatesPerUser: rateLimitHook(app, {
      name: 'email-update-user',
      max: EMAIL_UPDATES_PER_USER,
      windowMs,
      key: (request) =>
        request.user && (request.body as { email?: unknown } | undefined)?.email !== undefined
          ? String(request.user.id)
          : undefined,
    }),
  };

  // Public: the sign-in screens offer only the ways in this server accepts. No-store like every
  // other answer: an operator who closes sign-ups is believed at the next page load.
  app.get(
    '/registration',
    { schema: { response: { 200: registrationSettingsSchema } } },
    async () => registration,
  );

  app.post(
    '/register',
    {
      onRequest: [limit.registerPerIp],
      schema: { body: registerRequestSchema, response: { 201: authResponseSchema } },
    },
    async (request, reply) => reply.status(201).send(await auth.register(request.body)),
  );

  app.post(
    '/login',
    {
      // Per IP before parsing, so even malformed attempts count; per email once it is known.
      onRequest: [limit.loginPerIp],
      preHandler: [limit.loginPerEmail],
      schema: { body: loginRequestSchema, response: { 200: authResponseSchema } },
    },
    async (request) => auth.login(request.body),
  );

  app.post(
    '/register-guest',
    {
      onRequest: [limit.guestPerIp],
      schema: { body: registerGuestRequestSchema, response: { 201: authResponseSchema } },
    },
    async (request, reply) => reply.status(201).send(await auth.registerGuest(request.body)),
  );

  app.post(
    '/refresh-token',
    {
      onRequest: [limit.refreshPerIp],
      schema: { body: refreshTokenRequestSchema, response: { 200: authResponseSchema } },
    },
    async (request) => auth.refresh(request.body.refreshToken),
  );

  app.post(
    '/revoke-token',
    { schema: { body: revokeTokenRequestSchema, response: { 200: messageResponseSchema } } },
    async (request) => auth.revoke(request.body.refreshToken),
  );

  app.post(
    '/forgot-password',
    {
      onRequest: [limit.forgotPerIp],
      schema: { body: forgotPasswordRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => auth.forgotPassword(request.body),
  );

  app.post(
    '/reset-password',
    {
      onRequest: [limit.resetPerIp],
      schema: { body: resetPasswordRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => auth.resetPassword(request.body),
  );

  app.get(
    '/users/me',
    { onRequest: [app.authenticate], schema: { response: { 200: userSchema } } },
    async (request) => auth.getProfile(currentUser(request)),
  );

  // A full account's new email is mailed a confirmation link and set once it is opened.
  app.put(
    '/users/me',
    {
      onRequest: [app.authenticate],
      preHandler: [limit.emailUpdatesPerUser],
      schema: { body: updateProfileRequestSchema, response: { 200: updateProfileResponseSchema } },
    },
    async (request) => auth.updateProfile(currentUser(request), request.body),
  );

  app.post(
    '/confirm-email',
    {
      onRequest: [limit.confirmEmailPerIp],
      schema: { body: confirmEmailChangeRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => auth.confirmEmailChange(request.body),
  );

  // Sign out everywhere: every session of the caller ends and their open sockets are dropped.
  app.delete(
    '/users/me/sessions',
    { onRequest: [app.authenticate], schema: { response: { 200: messageResponseSchema } } },
    async (request) => auth.revokeAll(currentUser(request)),
  );

  app.get(
    '/users/ids',
    {
      onRequest: [app.authenticate],
      schema: { querystring: userIdsQuerySchema, response: { 200: z.array(userBubbleSchema) } },
    },
    async (request) => auth.findUsersByIds(currentUser(request), request.query.ids),
  );
}
