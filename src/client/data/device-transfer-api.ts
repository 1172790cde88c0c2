import type { AuthResponse, MessageResponse, User } from '../../domain/auth';
import { AUTH_BASE, DEFAULT_APP_NAME } from '../../domain/constants';
import type { DeviceTransfer, DeviceTransferPreview } from '../../domain/device-transfer';
import { api, sessionStore } from './session';

// Move to another device as actions the screens call: this device makes or
// cancels a one-time sign-in code; the other device sees whose it is, then redeems it for a
// session of its own, kept like a registration's (this device is the player's now).

const BASE = `${AUTH_BASE}/device-transfers`;

export function createDeviceTransfer(): Promise<DeviceTransfer> {
  return api.post<DeviceTransfer>(BASE);
}

export function cancelDeviceTransfers(): Promise<MessageResponse> {
  return api.delete<MessageResponse>(BASE);
}

export function previewDeviceTransfer(transferCode: string): Promise<DeviceTransferPreview> {
  return api.post<DeviceTransferPreview>(`${BASE}/preview`, { transferCode }, { auth: false });
}

export async function redeemDeviceTransfer(transferCode: string): Promise<User> {
  const auth = await api.post<AuthResponse>(
    `${BASE}/redeem`,
    { transferCode, appName: DEFAULT_APP_NAME },
    { auth: false },
  );
  sessionStore.signIn(auth, true);
  return auth.user;
}
