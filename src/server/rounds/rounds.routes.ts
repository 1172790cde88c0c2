import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { groupIdParamsSchema } from '../../domain/schemas/groups';
import {
  createRoundRequestSchema,
  roundListSchema,
  roundParamsSchema,
  roundSchema,
  updateRoundRequestSchema,
} from '../../domain/schemas/rounds';
import { currentUser, requireSignIn } from '../auth/authenticate';
import type { RateLimits } from '../config';
import {
  createdRowId,
  registerWrites,
  writeWith,
  type Writes,
  type WriteRunner,
} from '../writes/writes';
import type { RoundsService } from './rounds.service';

// A group's tipping rounds under /api/groups/{id}/rounds, for signed-in users. Tips and
// results go through the bets' own calls (POST /bets/wagers, PUT /bets/{id}/resolve). The
// writes serve the push too (src/server/writes/writes.ts), so a round made offline is sent once.

export interface RoundsRoutesOptions {
  rounds: RoundsService;
  writes: WriteRunner;
  rateLimits: RateLimits;
}

const write = writeWith<{ rounds: RoundsService }>();

export const ROUND_WRITES = {
  createRound: write({
    params: groupIdParamsSchema,
    body: createRoundRequestSchema,
    response: roundSchema,
    status: 201,
    run: (s, caller, { params, body }) => s.rounds.createRound(caller, params.id, body),
    created: createdRowId,
  }),
  updateRound: write({
    params: roundParamsSchema,
    body: updateRoundRequestSchema,
    response: roundSchema,
    run: (s, caller, { params, body }) =>
      s.rounds.updateScoring(caller, params.id, params.roundId, body.scoring),
  }),
} satisfies Writes;

export async function roundsRoutes(
  instance: FastifyInstance,
  { rounds, writes, rateLimits }: RoundsRoutesOptions,
): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.get(
    '/groups/:id/rounds',
    { schema: { params: groupIdParamsSchema, response: { 200: roundListSchema } } },
    async (request) => rounds.listRounds(currentUser(request), request.params.id),
  );

  app.get(
    '/groups/:id/rounds/:roundId',
    { schema: { params: roundParamsSchema, response: { 200: roundSchema } } },
    async (request) =>
      rounds.getRound(currentUser(request), request.params.id, request.params.roundId),
  );

  registerWrites(app, ROUND_WRITES, { runner: writes, rateLimits });
}
