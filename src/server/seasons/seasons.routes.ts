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
import type { RateLimits } from '../config';
import {
  createdRowId,
  registerWrites,
  writeWith,
  type Writes,
  type WriteRunner,
} from '../writes/writes';
import type { SeasonsService } from './seasons.service';

// A group's seasons under /api/groups/{id}/seasons, for signed-in users. The writes serve the
// push too (src/server/writes/writes.ts).

export interface SeasonsRoutesOptions {
  seasons: SeasonsService;
  writes: WriteRunner;
  rateLimits: RateLimits;
}

const write = writeWith<{ seasons: SeasonsService }>();

export const SEASON_WRITES = {
  startSeason: write({
    params: groupIdParamsSchema,
    body: startSeasonRequestSchema,
    response: seasonSchema,
    status: 201,
    run: (s, caller, { params, body }) => s.seasons.startSeason(caller, params.id, body),
    created: createdRowId,
  }),
  endSeason: write({
    params: seasonParamsSchema,
    response: seasonSchema,
    run: (s, caller, { params }) => s.seasons.endSeasonNow(caller, params.id, params.seasonId),
  }),
} satisfies Writes;

export async function seasonsRoutes(
  instance: FastifyInstance,
  { seasons, writes, rateLimits }: SeasonsRoutesOptions,
): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.get(
    '/groups/:id/seasons',
    { schema: { params: groupIdParamsSchema, response: { 200: seasonListSchema } } },
    async (request) => seasons.listSeasons(currentUser(request), request.params.id),
  );

  registerWrites(app, SEASON_WRITES, { runner: writes, rateLimits });
}
