import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../domain/schemas/zod';
import { BET_MESSAGES } from '../../domain/bet-limits';
import {
  betIdParamsSchema,
  betSchema,
  betStatisticsSchema,
  betUserContextSchema,
  createBetRequestSchema,
  groupBetsResponseSchema,
  placeWagerRequestSchema,
  resolveRequestSchema,
  updateWagerRequestSchema,
  userWagersQuerySchema,
  wagerIdParamsSchema,
  wagerSchema,
} from '../../domain/schemas/bets';
import {
  betHistoryEntrySchema,
  disputeRequestSchema,
  picksResponseSchema,
} from '../../domain/schemas/fair-resolution';
import { groupIdParamsSchema } from '../../domain/schemas/groups';
import { idSchema } from '../../domain/schemas/ids';
import { currentUser, requireSignIn } from '../auth/authenticate';
import type { BetsService } from './bets.service';
import type { FairResolutionService } from './fair-resolution.service';
import type { WagersService } from './wagers.service';

// The bets calls of docs/groups-and-bets.md §7 under /api, and GET /api/groups/{id}/bets. Every route is for
// signed-in users (401 before the body is parsed); each declares its schemas from
// src/domain and calls one service function.

export interface BetsRoutesOptions {
  bets: BetsService;
  wagers: WagersService;
  fair: FairResolutionService;
}

const betGroupParamsSchema = z.object({ groupId: idSchema(BET_MESSAGES.groupRequired) });

export async function betsRoutes(
  instance: FastifyInstance,
  { bets, wagers, fair }: BetsRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.post(
    '/bets',
    { schema: { body: createBetRequestSchema, response: { 201: betSchema } } },
    async (request, reply) =>
      reply.status(201).send(await bets.createBet(currentUser(request), request.body)),
  );

  app.get(
    '/bets/user/wagers',
    { schema: { querystring: userWagersQuerySchema, response: { 200: z.array(wagerSchema) } } },
    async (request) => wagers.listUserWagers(currentUser(request), request.query.group),
  );

  app.get(
    '/bets/group/:groupId',
    { schema: { params: betGroupParamsSchema, response: { 200: z.array(betSchema) } } },
    async (request) => bets.listGroupBets(currentUser(request), request.params.groupId),
  );

  app.get(
    '/groups/:id/bets',
    { schema: { params: groupIdParamsSchema, response: { 200: groupBetsResponseSchema } } },
    async (request) => bets.listGroupBetsWithStatistics(currentUser(request), request.params.id),
  );

  app.post(
    '/bets/wagers',
    { schema: { body: placeWagerRequestSchema, response: { 201: wagerSchema } } },
    async (request, reply) =>
      reply.status(201).send(await wagers.placeWager(currentUser(request), request.body)),
  );

  app.put(
    '/bets/wagers/:wagerId',
    {
      schema: {
        params: wagerIdParamsSchema,
        body: updateWagerRequestSchema,
        response: { 200: wagerSchema },
      },
    },
    async (request) =>
      wagers.updateWager(currentUser(request), request.params.wagerId, request.body),
  );

  app.get(
    '/bets/:id',
    { schema: { params: betIdParamsSchema, response: { 200: betSchema } } },
    async (request) => bets.getBet(currentUser(request), request.params.id),
  );

  app.get(
    '/bets/:id/user-context',
    { schema: { params: betIdParamsSchema, response: { 200: betUserContextSchema } } },
    async (request) => bets.getUserContext(currentUser(request), request.params.id),
  );

  app.get(
    '/bets/:id/statistics',
    { schema: { params: betIdParamsSchema, response: { 200: betStatisticsSchema } } },
    async (request) => bets.getStatistics(currentUser(request), request.params.id),
  );

  app.put(
    '/bets/:id/resolve',
    {
      schema: {
        params: betIdParamsSchema,
        body: resolveRequestSchema,
        response: { 200: betSchema },
      },
    },
    async (request) =>
      bets.resolveBet(currentUser(request), request.params.id, request.body.correctAnswer),
  );

  // docs/groups-and-bets.md §7: the body is not shown; none is read. Send it without a Content-Type (or `{}`).
  app.post(
    '/bets/:id/cancel',
    { schema: { params: betIdParamsSchema, response: { 200: betSchema } } },
    async (request) => bets.cancelBet(currentUser(request), request.params.id),
  );

  // Who picked what, once betting has closed.
  app.get(
    '/bets/:id/picks',
    { schema: { params: betIdParamsSchema, response: { 200: picksResponseSchema } } },
    async (request) => fair.getPicks(currentUser(request), request.params.id),
  );

  // The bet's history, the undo window, disputes and their review.
  app.get(
    '/bets/:id/history',
    { schema: { params: betIdParamsSchema, response: { 200: z.array(betHistoryEntrySchema) } } },
    async (request) => fair.getHistory(currentUser(request), request.params.id),
  );

  app.post(
    '/bets/:id/undo-resolution',
    { schema: { params: betIdParamsSchema, response: { 200: betSchema } } },
    async (request) => fair.undoResolution(currentUser(request), request.params.id),
  );

  app.post(
    '/bets/:id/dispute',
    {
      schema: {
        params: betIdParamsSchema,
        body: disputeRequestSchema,
        response: { 200: betSchema },
      },
    },
    async (request) =>
      fair.disputeResolution(currentUser(request), request.params.id, request.body.reason),
  );

  app.post(
    '/bets/:id/dispute/dismiss',
    { schema: { params: betIdParamsSchema, response: { 200: betSchema } } },
    async (request) => fair.dismissDispute(currentUser(request), request.params.id),
  );

  app.put(
    '/bets/:id/re-resolve',
    {
      schema: {
        params: betIdParamsSchema,
        body: resolveRequestSchema,
        response: { 200: betSchema },
      },
    },
    async (request) =>
      fair.reResolve(currentUser(request), request.params.id, request.body.correctAnswer),
  );
}
