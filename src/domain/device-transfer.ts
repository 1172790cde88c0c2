import { appName } from './auth';
import { DEFAULT_APP_NAME } from './constants';
import { z } from './zod';

// Moving an account to another device or to the installed app: the signed-in
// device makes a one-time code, shown as a QR code and a link; the other device redeems it
// for a session of its own. The code is `<id>.<secret>`: the server finds the row by id and
// compares the secret's hash in constant time.

/** The link's path; the code travels in the fragment, which no request, proxy or log sees. */
export const DEVICE_TRANSFER_PATH = '/move';

export const deviceTransferLink = (publicOrigin: string, code: string) =>
  `${publicOrigin}${DEVICE_TRANSFER_PATH}#${code}`;

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
export type DeviceTransfer = z.infer<typeof deviceTransferSchema>;

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
export type DeviceTransferPreview = z.infer<typeof deviceTransferPreviewSchema>;

/** POST /auth/device-transfers/redeem → accessToken, refreshToken, user, as a login. */
export const redeemDeviceTransferRequestSchema = z.strictObject({
  transferCode: deviceTransferCode,
  appName: appName.default(DEFAULT_APP_NAME),
});
export type RedeemDeviceTransferRequest = z.input<typeof redeemDeviceTransferRequestSchema>;

/** The code from a pasted sign-in link (its fragment), or a pasted code as it is. */
export function transferCodeFrom(pasted: string): string {
  const text = pasted.trim();
  const hash = text.indexOf('#');
  return hash === -1 ? text : text.slice(hash + 1);
}
