import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountExportFileName } from '../../domain/account-data';
import { accountExportSchema, deleteAccountRequestSchema } from '../../domain/schemas/account-data';
import { messageResponseSchema } from '../../domain/schemas/auth';
import { rateLimitHook } from '../rate-limits';
import type { AccountDataService } from './account-data.service';
import { currentUser } from './authenticate';

// The player's own data under /auth/users/me: the export download and the
// account deletion. Registered with the /auth prefix next to auth.routes.ts.

/** Per user and minute: an export reads every row of the player; a deletion checks a password. */
const ACCOUNT_DATA_LIMITS = { exportsPerUser: 5, deletionsPerUser: 5 };

export interface AccountDataRoutesOptions {
  accountData: AccountDataService;
  windowMs: number;
}

export async function accountDataRoutes(
  instance: FastifyInstance,
  { accountData, windowMs }: AccountDataRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const byUser = (request: { user: { id: number } | null }) =>
    request.user ? String(request.user.id) : undefined;
  const exportsPerUser = rateLimitHook(app, {
    name: 'export-user',
    max: ACCOUNT_DATA_LIMITS.exportsPerUser,
    windowMs,
    key: byUser,
  });
  const deletionsPerUser = rateLimitHook(app, {
    name: 'delete-account-user',
    max: ACCOUNT_DATA_LIMITS.deletionsPerUser,
    windowMs,
    key: byUser,
  });

  // A download: the browser saves it under the name given, and no cache keeps a copy.
  app.get(
    '/users/me/export',
    {
      onRequest: [app.authenticate, exportsPerUser],
      schema: { response: { 200: accountExportSchema } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const document = await accountData.exportAccount(user);
      return reply
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="${accountExportFileName(user.id, new Date(document.exportedAt))}"`,
        )
        .send(document);
    },
  );

  app.delete(
    '/users/me',
    {
      onRequest: [app.authenticate, deletionsPerUser],
      schema: { body: deleteAccountRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => accountData.deleteAccount(currentUser(request), request.body),
  );
}
