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
import type { RateLimits } from '../config';
import { registerWrites, writeWith, type Writes, type WriteRunner } from '../writes/writes';
import type { NotificationsService } from './notifications.service';

// The inbox calls under /api, for signed-in users (401 before the body is parsed); each declares
// its schemas from src/domain and calls one service function. The writes serve the push too
// (src/server/writes/writes.ts).

export interface NotificationsRoutesOptions {
  notifications: NotificationsService;
  writes: WriteRunner;
  rateLimits: RateLimits;
}

const write = writeWith<{ notifications: NotificationsService }>();

export const NOTIFICATION_WRITES = {
  markNotificationsRead: write({
    body: markNotificationsReadRequestSchema,
    response: z.object({ notifications: z.array(notificationSchema) }),
    run: (s, caller, { body }) => s.notifications.markRead(caller, body),
  }),
  markAllNotificationsRead: write({
    body: markAllNotificationsReadRequestSchema,
    response: z.object({ readCount: z.number().int() }),
    run: (s, caller, { body }) => s.notifications.markAllRead(caller, body),
  }),
  setPushKinds: write({
    body: pushKindsRequestSchema,
    response: notificationSettingsSchema,
    run: (s, caller, { body }) => s.notifications.setPushKinds(caller, body),
  }),
  muteGroup: write({
    params: groupIdParamsSchema,
    body: muteRequestSchema,
    response: notificationSettingsSchema,
    run: (s, caller, { params, body }) => s.notifications.muteGroup(caller, params.id, body),
  }),
  muteBet: write({
    params: betIdParamsSchema,
    body: muteRequestSchema,
    response: notificationSettingsSchema,
    run: (s, caller, { params, body }) => s.notifications.muteBet(caller, params.id, body),
  }),
} satisfies Writes;

export async function notificationsRoutes(
  instance: FastifyInstance,
  { notifications, writes, rateLimits }: NotificationsRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.get(
    '/notifications',
    { schema: { response: { 200: notificationListSchema } } },
    async (request) => notifications.listNotifications(currentUser(request)),
  );

  app.get(
    '/notification-settings',
    { schema: { response: { 200: notificationSettingsSchema } } },
    async (request) => notifications.getSettings(currentUser(request)),
  );

  registerWrites(app, NOTIFICATION_WRITES, { runner: writes, rateLimits });
}
