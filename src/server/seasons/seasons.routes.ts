import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { groupIdParamsSchema } from '../../domain/schemas/groups';
import {
  seasonListSchema,
  seasonParamsSchema,
  seasonSchema,
  startSeasonRequestSchema,
} from '../../domain/schemas/seasons';
import { currentUser, requireSignIn } from '../auth/authenticate';
import type { SeasonsService } from './seasons.service';

// A group's seasons under /api/groups/{id}/seasons, for signed-in users.

export async function seasonsRoutes(
  instance: FastifyInstance,
  { seasons }: { seasons: SeasonsService },
): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.get(
    '/groups/:id/seasons',
    { schema: { params: groupIdParamsSchema, response: { 200: seasonListSchema } } },
    async (request) => seasons.listSeasons(currentUser(request), request.params.id),
  );

  app.post(
    '/groups/:id/seasons',
    {
      schema: {
        params: groupIdParamsSchema,
        body: startSeasonRequestSchema,
        response: { 201: seasonSchema },
      },
    },
    async (request, reply) => {
      const season = await seasons.startSeason(
        currentUser(request),
        request.params.id,
        request.body,
      );
      return reply.code(201).send(season);
    },
  );

  app.post(
    '/groups/:id/seasons/:seasonId/end',
    { schema: { params: seasonParamsSchema, response: { 200: seasonSchema } } },
    async (request) =>
      seasons.endSeasonNow(currentUser(request), request.params.id, request.params.seasonId),
  );
}
