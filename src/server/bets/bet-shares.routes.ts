import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { betIdParamsSchema } from '../../domain/schemas/bets';
import {
  betShareSchema,
  sharedBetSchema,
  shareTokenParamsSchema,
} from '../../domain/schemas/bet-shares';
import { requireSignIn } from '../auth/authenticate';
import type { RateLimits } from '../config';
import { rateLimitHook, visitorLookupsPerIpRule } from '../rate-limits';
import { registerWrites, writeWith, type Writes, type WriteRunner } from '../writes/writes';
import type { BetSharesService } from './bet-shares.service';

// A bet's public link (docs/groups-and-bets.md, "Sharing a bet"): Share and Stop sharing are
// signed-in writes (declared once, for their REST routes and the push); the read is public,
// limited per address like the invite preview, the other read for visitors not signed in.

const write = writeWith<{ shares: BetSharesService }>();

export const BET_SHARE_WRITES = {
  shareBet: write({
    params: betIdParamsSchema,
    response: betShareSchema,
    run: (s, caller, { params }) => s.shares.shareBet(caller, params.id),
  }),
  stopSharingBet: write({
    params: betIdParamsSchema,
    response: betShareSchema,
    run: (s, caller, { params }) => s.shares.stopSharingBet(caller, params.id),
  }),
} satisfies Writes;

export interface BetShareRoutesOptions {
  shares: BetSharesService;
  writes: WriteRunner;
  rateLimits: RateLimits;
}

/**
 * GET /api/shared-bets/:token, the one bet a shared link opens, for anyone (no sign-in); and
 * the signed-in writes POST and DELETE /api/bets/:id/share.
 */
export async function betShareRoutes(
  instance: FastifyInstance,
  { shares, writes, rateLimits }: BetShareRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const readsPerIp = rateLimitHook(app, visitorLookupsPerIpRule('shared-bet-ip', rateLimits));
  app.get(
    '/shared-bets/:token',
    {
      onRequest: [readsPerIp],
      schema: { params: shareTokenParamsSchema, response: { 200: sharedBetSchema } },
    },
    async (request) => shares.readSharedBet(request.params.token),
  );
  await app.register(async (signedIn) => {
    requireSignIn(signedIn);
    registerWrites(signedIn, BET_SHARE_WRITES, { runner: writes, rateLimits });
  });
}
