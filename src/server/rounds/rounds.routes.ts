import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { groupIdParamsSchema } from '../../domain/schemas/groups';
import {
  createRoundRequestSchema,
  roundListSchema,
  roundParamsSchema,
  roundSchema,
  updateRoundRequestSchema,
  type Round,
} from '../../domain/schemas/rounds';
import { currentUser, requireSignIn } from '../auth/authenticate';
import { write } from '../sync/writes';
import type { WriteRunner } from '../sync/write-services';
import type { RoundsService } from './rounds.service';

// A group's tipping rounds under /api/groups/{id}/rounds, for signed-in users. Tips and
// results go through the bets' own calls (POST /bets/wagers, PUT /bets/{id}/resolve).

export interface RoundsRoutesOptions {
  rounds: RoundsService;
  writes: WriteRunner;
}

// The writes run as every write does (sync/write-services.ts: the caller's account and session
// checked under its lock, then one transaction); they are not push mutations.
const createRound = write({
  params: groupIdParamsSchema,
  body: createRoundRequestSchema,
  response: roundSchema,
  status: 201,
  run: (s, caller, { params, body }) => s.rounds.createRound(caller, params.id, body),
});
const updateRound = write({
  params: roundParamsSchema,
  body: updateRoundRequestSchema,
  response: roundSchema,
  run: (s, caller, { params, body }) =>
    s.rounds.updateScoring(caller, params.id, params.roundId, body.scoring),
});

export async function roundsRoutes(
  instance: FastifyInstance,
  { rounds, writes }: RoundsRoutesOptions,
): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.post(
    '/groups/:id/rounds',
    {
      schema: {
        params: groupIdParamsSchema,
        body: createRoundRequestSchema,
        response: { 201: roundSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        (await writes.run(currentUser(request), createRound, {
          params: request.params,
          body: request.body,
        })) as Round,
      ),
  );

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

  app.patch(
    '/groups/:id/rounds/:roundId',
    {
      schema: {
        params: roundParamsSchema,
        body: updateRoundRequestSchema,
        response: { 200: roundSchema },
      },
    },
    async (request) =>
      (await writes.run(currentUser(request), updateRound, {
        params: request.params,
        body: request.body,
      })) as Round,
  );
}
