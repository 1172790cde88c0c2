import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiTokenListSchema,
  apiTokenParamsSchema,
  createApiTokenRequestSchema,
  createdApiTokenSchema,
} from '../../domain/schemas/api-tokens';
import { messageResponseSchema } from '../../domain/schemas/auth';
import { currentUser, requireSignIn } from './authenticate';
import type { ApiTokenService } from './api-tokens.service';

// Personal API tokens under /api/tokens: make one (its secret answered this once), list them,
// revoke one. Signed in, and never with a token (no scope allows these: token-scopes.ts).

export async function apiTokenRoutes(
  instance: FastifyInstance,
  { apiTokens }: { apiTokens: ApiTokenService },
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.post(
    '/tokens',
    {
      schema: {
        description: 'Makes a personal API token; `token` is in this answer only.',
        body: createApiTokenRequestSchema,
        response: { 201: createdApiTokenSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await apiTokens.create(currentUser(request), request.body)),
  );

  app.get(
    '/tokens',
    {
      schema: {
        description: "The caller's API tokens, newest first (never the tokens themselves).",
        response: { 200: apiTokenListSchema },
      },
    },
    async (request) => apiTokens.list(currentUser(request)),
  );

  app.delete(
    '/tokens/:id',
    {
      schema: {
        description: 'Revokes the token: from this answer on, no instance lets it in.',
        params: apiTokenParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => apiTokens.revoke(currentUser(request), request.params.id),
  );
}
