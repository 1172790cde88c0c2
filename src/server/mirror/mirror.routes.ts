import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../domain/schemas/zod';
import { memberStateResponseSchema } from '../../domain/schemas/member-state';
import { mirrorQuerySchema } from '../../domain/schemas/mirror';
import { currentUser, requireSignIn } from '../auth/authenticate';
import { requireSpokenProtocol } from '../protocol-version';
import type { MirrorService } from './mirror.service';
import { mirrorPullResponseSchema, type MirrorPullResponse } from './synced-tables';

// GET /api/member/state, for signed-in users (401 first): the device's pull and the spec's
// member state (docs/architecture.md §8).

export interface MirrorRoutesOptions {
  /** Both answers: the spec's member state and, with a cursor, the pull. */
  mirror: MirrorService;
}

export async function mirrorRoutes(instance: FastifyInstance, { mirror }: MirrorRoutesOptions) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  // The largest answer of the API (every open bet of every group: hundreds of bets). Encoding
  // it through zod was most of the request's CPU, so it is written with JSON.stringify: the
  // presenters build every field explicitly (typed by MemberStateResponse), so nothing extra
  // can leak; the schema still documents the answer. Errors keep the usual serializer.
  // Both answers are the local mirror's (src/server/mirror): with `cursor` its pull, what changed
  // since; without, the spec's member state, from the same readers.
  app.get(
    '/member/state',
    {
      schema: {
        querystring: mirrorQuerySchema,
        response: { 200: z.union([memberStateResponseSchema, mirrorPullResponseSchema]) },
      },
      // A device's pull speaks its sync protocol (protocol-version.ts).
      onRequest: [requireSpokenProtocol],
      // A pull (it has a cursor) is counted with its rows and bytes (src/server/metrics.ts).
      serializerCompiler: () => (data) => {
        const text = JSON.stringify(data);
        if (typeof data === 'object' && data !== null && 'cursor' in data)
          instance.metrics.pullServed(data as MirrorPullResponse, text);
        return text;
      },
    },
    async (request) =>
      request.query.cursor === undefined
        ? mirror.memberState(currentUser(request))
        : mirror.pull(
            currentUser(request),
            request.query.cursor,
            request.query.clientGroupID,
            request.arrivedAt,
          ),
  );
}
