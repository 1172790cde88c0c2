import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  pushAppQuerySchema,
  pushDeviceParamsSchema,
  pushStatusQuerySchema,
  pushStatusResponseSchema,
  pushSubscriptionSchema,
  registerPushSubscriptionSchema,
  vapidPublicKeyResponseSchema,
} from '../../domain/schemas/push';
import { z } from '../../domain/schemas/zod';
import { currentUser } from '../auth/authenticate';
import type { PushService } from './push-subscriptions.service';

// The push calls of docs/groups-and-bets.md §7 under /api. The VAPID public key is public (the browser needs
// it before it can subscribe, and it carries no secret); everything else is per signed-in user.

export interface PushRoutesOptions {
  push: PushService;
  vapidPublicKey: string;
}

export async function pushRoutes(
  instance: FastifyInstance,
  { push, vapidPublicKey }: PushRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: [app.authenticate] };

  app.get(
    '/push-subscriptions/vapid-public-key',
    { schema: { response: { 200: vapidPublicKeyResponseSchema } } },
    async () => ({
      publicKey: vapidPublicKey,
    }),
  );

  app.get(
    '/push-subscriptions/status',
    {
      ...signedIn,
      schema: { querystring: pushStatusQuerySchema, response: { 200: pushStatusResponseSchema } },
    },
    async (request) => ({
      active: await push.isActive(
        currentUser(request),
        request.query.deviceId,
        request.query.appName,
      ),
    }),
  );

  app.post(
    '/push-subscriptions',
    {
      ...signedIn,
      schema: { body: registerPushSubscriptionSchema, response: { 201: pushSubscriptionSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await push.register(currentUser(request), request.body)),
  );

  app.delete(
    '/push-subscriptions/user/:deviceId',
    {
      ...signedIn,
      schema: {
        params: pushDeviceParamsSchema,
        querystring: pushAppQuerySchema,
        response: { 204: z.null().describe('Removed.') },
      },
    },
    async (request, reply) => {
      await push.remove(currentUser(request), request.params.deviceId, request.query.appName);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/push-subscriptions/user/:deviceId/deactivate',
    {
      ...signedIn,
      schema: {
        params: pushDeviceParamsSchema,
        querystring: pushAppQuerySchema,
        response: { 200: pushSubscriptionSchema },
      },
    },
    async (request) =>
      push.deactivate(currentUser(request), request.params.deviceId, request.query.appName),
  );
}
