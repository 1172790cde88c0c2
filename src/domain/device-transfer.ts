// Moving an account to another device or to the installed app: the signed-in
// device makes a one-time code, shown as a QR code and a link; the other device redeems it
// for a session of its own. The code is `<id>.<secret>`: the server finds the row by id and
// compares the secret's hash in constant time. The wire schemas: schemas/device-transfer.ts.

/** The link's path; the code travels in the fragment, which no request, proxy or log sees. */
export const DEVICE_TRANSFER_PATH = '/move';

export const deviceTransferLink = (publicOrigin: string, code: string) =>
  `${publicOrigin}${DEVICE_TRANSFER_PATH}#${code}`;

/** POST /auth/device-transfers → the code, once (it is stored only as a hash). */
export type DeviceTransfer = { transferCode: string; expiresAt: string };

/** POST /auth/device-transfers/preview: whose account the code opens, before signing in. */
export type DeviceTransferPreview = {
  userId: number;
  displayName: string;
  isTemporary: boolean;
  expiresAt: string;
};

/** POST /auth/device-transfers/redeem → accessToken, refreshToken, user, as a login. */
export type RedeemDeviceTransferRequest = { transferCode: string; appName?: string | undefined };

/** The code from a pasted sign-in link (its fragment), or a pasted code as it is. */
export function transferCodeFrom(pasted: string): string {
  const text = pasted.trim();
  const hash = text.indexOf('#');
  return hash === -1 ? text : text.slice(hash + 1);
}
