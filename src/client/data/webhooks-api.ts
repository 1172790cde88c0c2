import { API_BASE } from '../../domain/constants';
import type {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookWithSecret,
} from '../../domain/schemas/webhooks';
import { api } from './session';

// A group's webhooks (docs/integrations.md, "Webhooks"), for its admins. Asked straight of the
// server, not queued in the outbox: a hook's secret is the server's and shown once, and what a
// receiver answered is only known there, so the screen needs a connection.

const hooksOf = (groupId: number) => `${API_BASE}/groups/${groupId}/webhooks`;

export async function listWebhooks(groupId: number): Promise<Webhook[]> {
  return (await api.get<WebhookList>(hooksOf(groupId))).webhooks;
}

export function createWebhook(
  groupId: number,
  body: CreateWebhookRequest,
): Promise<WebhookWithSecret> {
  return api.post<WebhookWithSecret>(hooksOf(groupId), body);
}

export function updateWebhook(
  groupId: number,
  hookId: number,
  body: UpdateWebhookRequest,
): Promise<Webhook> {
  return api.patch<Webhook>(`${hooksOf(groupId)}/${hookId}`, body);
}

export function deleteWebhook(groupId: number, hookId: number): Promise<void> {
  return api.delete<void>(`${hooksOf(groupId)}/${hookId}`);
}

export function rotateWebhookSecret(groupId: number, hookId: number): Promise<WebhookWithSecret> {
  return api.post<WebhookWithSecret>(`${hooksOf(groupId)}/${hookId}/rotate-secret`);
}

export async function listDeliveries(groupId: number, hookId: number): Promise<WebhookDelivery[]> {
  const url = `${hooksOf(groupId)}/${hookId}/deliveries`;
  return (await api.get<WebhookDeliveryList>(url)).deliveries;
}

export function retryDelivery(
  groupId: number,
  hookId: number,
  deliveryId: number,
): Promise<unknown> {
  return api.post(`${hooksOf(groupId)}/${hookId}/deliveries/${deliveryId}/retry`);
}
