import { API_BASE } from '../../domain/constants';
import type {
  PushStatusResponse,
  RegisterPushSubscriptionRequest,
  VapidPublicKeyResponse,
} from '../../domain/push';
import type { ApiClient } from '../data/api-client';

// The push calls of spec 02 §7, under /api (ARCHITECTURE.md). Each takes the app's name and
// this device's id; the server keeps one subscription per user, app and device.

const BASE = `${API_BASE}/push-subscriptions`;

export type PushApi = ReturnType<typeof createPushApi>;

export function createPushApi(api: ApiClient) {
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return {
    getVapidPublicKey: () =>
      api
        .get<VapidPublicKeyResponse>(`${BASE}/vapid-public-key`, { auth: false })
        .then((body) => body.publicKey),
    getStatus: (deviceId: string, appName: string, signal?: AbortSignal) =>
      api
        .get<PushStatusResponse>(`${BASE}/status?${query({ deviceId, appName })}`, { signal })
        .then((body) => body.active),
    register: (subscription: RegisterPushSubscriptionRequest) =>
      api.post<unknown>(BASE, subscription),
    remove: (deviceId: string, appName: string) =>
      api.delete<unknown>(`${BASE}/user/${encodeURIComponent(deviceId)}?${query({ appName })}`),
    /**
     * At logout: the access token is passed in, read before the session cleared it, and sent
     * without the refresh-on-401 path (a refresh after logout would sign out twice).
     */
    deactivate: (deviceId: string, appName: string, accessToken: string) =>
      api.patch<unknown>(
        `${BASE}/user/${encodeURIComponent(deviceId)}/deactivate?${query({ appName })}`,
        undefined,
        {
          auth: false,
          headers: { Authorization: `Bearer ${accessToken}` },
        },
      ),
  };
}
