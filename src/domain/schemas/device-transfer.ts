import { z } from './zod';
import { DEFAULT_APP_NAME } from '../constants';
import { appName } from './auth';

// Moving an account to another device, on the wire (the link and the code's rules:
// device-transfer.ts).

export const deviceTransferCode = z
  .string({ error: 'The sign-in code is missing' })
  .regex(
    /^\d{1,10}\.[A-Za-z0-9_-]{43}$/,
    'This sign-in link is not complete. Scan or copy it again.',
  );

/** POST /auth/device-transfers → the code, once (it is stored only as a hash). */
export const deviceTransferSchema = z.object({
  transferCode: z.string(),
  expiresAt: z.string(),
});

/** POST /auth/device-transfers/preview: whose account the code opens, before signing in. */
export const deviceTransferPreviewRequestSchema = z.strictObject({
  transferCode: deviceTransferCode,
});
export const deviceTransferPreviewSchema = z.object({
  userId: z.number().int(),
  displayName: z.string(),
  isTemporary: z.boolean(),
  expiresAt: z.string(),
});

/** POST /auth/device-transfers/redeem → accessToken, refreshToken, user, as a login. */
export const redeemDeviceTransferRequestSchema = z.strictObject({
  transferCode: deviceTransferCode,
  appName: appName.default(DEFAULT_APP_NAME),
});
