import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authResponseSchema, messageResponseSchema } from '../../domain/schemas/auth';
import {
  deviceTransferPreviewRequestSchema,
  deviceTransferPreviewSchema,
  deviceTransferSchema,
  redeemDeviceTransferRequestSchema,
} from '../../domain/schemas/device-transfer';
import type { RateLimits } from '../config';
import { byIp, rateLimitHook } from '../rate-limits';
import { currentUser } from './authenticate';
import type { DeviceTransferService } from './device-transfer.service';

// Move to another device under /auth/device-transfers: make a code (signed in),
// cancel it, and, on the other device (signed out or not), see whose it is and redeem it.
// Codes travel in bodies only, never in a URL the server sees or logs.

export interface DeviceTransferRoutesOptions {
  deviceTransfers: DeviceTransferService;
  rateLimits: RateLimits;
}

export async function deviceTransferRoutes(
  instance: FastifyInstance,
  { deviceTransfers, rateLimits }: DeviceTransferRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const createsPerUser = rateLimitHook(app, {
    name: 'device-transfer-user',
    max: rateLimits.transferCodesPerUser,
    windowMs: rateLimits.windowMs,
    key: (request) => (request.user ? String(request.user.id) : undefined),
  });
  // Preview and redeem share one count per IP, before the body is even parsed.
  const triesPerIp = rateLimitHook(app, {
    name: 'device-transfer-ip',
    max: rateLimits.transferTriesPerIp,
    windowMs: rateLimits.windowMs,
    key: byIp,
  });
  const noStore = { 'cache-control': 'no-store' };

  app.post(
    '/device-transfers',
    {
      onRequest: [app.authenticate, createsPerUser],
      schema: { response: { 201: deviceTransferSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .headers(noStore)
        .send(await deviceTransfers.create(currentUser(request))),
  );

  app.delete(
    '/device-transfers',
    { onRequest: [app.authenticate], schema: { response: { 200: messageResponseSchema } } },
    async (request) => deviceTransfers.revoke(currentUser(request)),
  );

  app.post(
    '/device-transfers/preview',
    {
      onRequest: [triesPerIp],
      schema: {
        body: deviceTransferPreviewRequestSchema,
        response: { 200: deviceTransferPreviewSchema },
      },
    },
    async (request, reply) =>
      reply.headers(noStore).send(await deviceTransfers.preview(request.body.transferCode)),
  );

  app.post(
    '/device-transfers/redeem',
    {
      onRequest: [triesPerIp],
      schema: { body: redeemDeviceTransferRequestSchema, response: { 200: authResponseSchema } },
    },
    async (request, reply) =>
      reply.headers(noStore).send(await deviceTransfers.redeem(request.body)),
  );
}
