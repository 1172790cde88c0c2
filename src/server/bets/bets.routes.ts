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
import type { RateLimits } from '../config';
import {
  createdRowId,
  registerWrites,
  writeWith,
  type Writes,
  type WriteRunner,
} from '../writes/writes';
import type { BetsService } from './bets.service';
import type { FairResolutionService } from './fair-resolution.service';
import type { WagersService } from './wagers.service';

// The bets calls of docs/groups-and-bets.md §7 under /api, and GET /api/groups/{id}/bets. Every route is for
// signed-in users (401 before the body is parsed); each declares its schemas from
// src/domain and calls one service function. The writes are declared once in BET_WRITES, for
// their REST routes and the push alike (src/server/writes/writes.ts).

export interface BetsRoutesOptions {
  bets: BetsService;
  wagers: WagersService;
  fair: FairResolutionService;
  writes: WriteRunner;
  rateLimits: RateLimits;
}

const write = writeWith<{
  bets: BetsService;
  wagers: WagersService;
  fair: FairResolutionService;
}>();

export const BET_WRITES = {
  createBet: write({
    body: createBetRequestSchema,
    response: betSchema,
    status: 201,
    run: (s, caller, { body }) => s.bets.createBet(caller, body),
    created: createdRowId,
  }),
  placeWager: write({
    body: placeWagerRequestSchema,
    response: wagerSchema,
    status: 201,
    run: (s, caller, { body }) => s.wagers.placeWager(caller, body),
    created: createdRowId,
  }),
  updateWager: write({
    params: wagerIdParamsSchema,
    body: updateWagerRequestSchema,
    response: wagerSchema,
    run: (s, caller, { params, body }) => s.wagers.updateWager(caller, params.wagerId, body),
  }),
  resolveBet: write({
    params: betIdParamsSchema,
    body: resolveRequestSchema,
    response: betSchema,
    run: (s, caller, { params, body }) => s.bets.resolveBet(caller, params.id, body.correctAnswer),
  }),
  // docs/groups-and-bets.md §7: the body is not shown; none is read. Send it without a Content-Type (or `{}`).
  cancelBet: write({
    params: betIdParamsSchema,
    response: betSchema,
    run: (s, caller, { params }) => s.bets.cancelBet(caller, params.id),
  }),
  // The undo window, disputes and their review.
  undoResolution: write({
    params: betIdParamsSchema,
    response: betSchema,
    run: (s, caller, { params }) => s.fair.undoResolution(caller, params.id),
  }),
  disputeResolution: write({
    params: betIdParamsSchema,
    body: disputeRequestSchema,
    response: betSchema,
    run: (s, caller, { params, body }) => s.fair.disputeResolution(caller, params.id, body.reason),
  }),
  dismissDispute: write({
    params: betIdParamsSchema,
    response: betSchema,
    run: (s, caller, { params }) => s.fair.dismissDispute(caller, params.id),
  }),
  reResolveBet: write({
    params: betIdParamsSchema,
    body: resolveRequestSchema,
    response: betSchema,
    run: (s, caller, { params, body }) => s.fair.reResolve(caller, params.id, body.correctAnswer),
  }),
} satisfies Writes;

const betGroupParamsSchema = z.object({ groupId: idSchema(BET_MESSAGES.groupRequired) });

export async function betsRoutes(
  instance: FastifyInstance,
  { bets, wagers, fair, writes, rateLimits }: BetsRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

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

  registerWrites(app, BET_WRITES, { runner: writes, rateLimits });
}
