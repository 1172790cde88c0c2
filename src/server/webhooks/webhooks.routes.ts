import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { groupIdParamsSchema } from '../../domain/schemas/groups';
import {
  createWebhookRequestSchema,
  updateWebhookRequestSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from '../../domain/schemas/webhooks';
import { z } from '../../domain/schemas/zod';
import { currentUser, requireSignIn } from '../auth/authenticate';
import type { WebhooksService } from './webhooks.service';

// A group's webhooks under /api/groups/{id}/webhooks, for its admins (docs/integrations.md).
// Thin: each route checks its input and calls one service function.

export async function webhooksRoutes(
  instance: FastifyInstance,
  { webhooks }: { webhooks: WebhooksService },
): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.post(
    '/groups/:id/webhooks',
    {
      schema: {
        params: groupIdParamsSchema,
        body: createWebhookRequestSchema,
        response: {
          201: webhookWithSecretSchema.describe('The hook, with its secret: shown once.'),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await webhooks.createWebhook(currentUser(request), request.params.id, request.body)),
  );

  app.get(
    '/groups/:id/webhooks',
    { schema: { params: groupIdParamsSchema, response: { 200: webhookListSchema } } },
    async (request) => ({
      webhooks: await webhooks.listWebhooks(currentUser(request), request.params.id),
    }),
  );

  app.patch(
    '/groups/:id/webhooks/:hookId',
    {
      schema: {
        params: webhookParamsSchema,
        body: updateWebhookRequestSchema,
        response: { 200: webhookSchema },
      },
    },
    async (request) => {
      const { id, hookId } = request.params;
      return webhooks.updateWebhook(currentUser(request), id, hookId, request.body);
    },
  );

  app.delete(
    '/groups/:id/webhooks/:hookId',
    {
      schema: {
        params: webhookParamsSchema,
        response: { 204: z.null().describe('Deleted, with its deliveries.') },
      },
    },
    async (request, reply) => {
      const { id, hookId } = request.params;
      await webhooks.deleteWebhook(currentUser(request), id, hookId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/groups/:id/webhooks/:hookId/rotate-secret',
    {
      schema: {
        params: webhookParamsSchema,
        response: {
          200: webhookWithSecretSchema.describe(
            'The new secret, shown once; the old one signs beside it for a day.',
          ),
        },
      },
    },
    async (request) => {
      const { id, hookId } = request.params;
      return webhooks.rotateSecret(currentUser(request), id, hookId);
    },
  );

  app.get(
    '/groups/:id/webhooks/:hookId/deliveries',
    { schema: { params: webhookParamsSchema, response: { 200: webhookDeliveryListSchema } } },
    async (request) => {
      const { id, hookId } = request.params;
      return { deliveries: await webhooks.listDeliveries(currentUser(request), id, hookId) };
    },
  );

  app.post(
    '/groups/:id/webhooks/:hookId/deliveries/:deliveryId/retry',
    {
      schema: {
        params: webhookDeliveryParamsSchema,
        response: { 202: webhookDeliverySchema.describe('The new delivery, due now.') },
      },
    },
    async (request, reply) => {
      const { id, hookId, deliveryId } = request.params;
      return reply
        .status(202)
        .send(await webhooks.retryDelivery(currentUser(request), id, hookId, deliveryId));
    },
  );
}
