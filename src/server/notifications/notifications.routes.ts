import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { betIdParamsSchema } from '../../domain/schemas/bets';
import { groupIdParamsSchema } from '../../domain/schemas/groups';
import {
  markAllNotificationsReadRequestSchema,
  markNotificationsReadRequestSchema,
  muteRequestSchema,
  notificationListSchema,
  notificationSchema,
  notificationSettingsSchema,
  pushKindsRequestSchema,
} from '../../domain/schemas/notifications';
import { z } from '../../domain/schemas/zod';
import { currentUser, requireSignIn } from '../auth/authenticate';
import type { NotificationsService } from './notifications.service';

// The inbox calls under /api, for signed-in users (401 before the body is parsed); each declares
// its schemas from src/domain and calls one service function.

export interface NotificationsRoutesOptions {
  notifications: NotificationsService;
}

export async function notificationsRoutes(
  instance: FastifyInstance,
  { notifications }: NotificationsRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.get(
    '/notifications',
    { schema: { response: { 200: notificationListSchema } } },
    async (request) => notifications.listNotifications(currentUser(request)),
  );

  app.post(
    '/notifications/read',
    {
      schema: {
        body: markNotificationsReadRequestSchema,
        response: { 200: z.object({ notifications: z.array(notificationSchema) }) },
      },
    },
    async (request) => notifications.markRead(currentUser(request), request.body),
  );

  app.post(
    '/notifications/read-all',
    {
      schema: {
        body: markAllNotificationsReadRequestSchema,
        response: { 200: z.object({ readCount: z.number().int() }) },
      },
    },
    async (request) => notifications.markAllRead(currentUser(request), request.body),
  );

  app.get(
    '/notification-settings',
    { schema: { response: { 200: notificationSettingsSchema } } },
    async (request) => notifications.getSettings(currentUser(request)),
  );

  app.put(
    '/notification-settings/push',
    {
      schema: { body: pushKindsRequestSchema, response: { 200: notificationSettingsSchema } },
    },
    async (request) => notifications.setPushKinds(currentUser(request), request.body),
  );

  app.put(
    '/groups/:id/mute',
    {
      schema: {
        params: groupIdParamsSchema,
        body: muteRequestSchema,
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request) =>
      notifications.muteGroup(currentUser(request), request.params.id, request.body),
  );

  app.put(
    '/bets/:id/mute',
    {
      schema: {
        params: betIdParamsSchema,
        body: muteRequestSchema,
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request) => notifications.muteBet(currentUser(request), request.params.id, request.body),
  );
}
