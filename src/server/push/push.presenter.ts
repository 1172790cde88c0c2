import type { PushSubscription } from '../../domain/push';
import type { PushSubscriptionRow } from '../db/schema';
import { isoTime } from '../iso-time';

// Never send a database row (docs/conventions.md): the endpoint and keys stay on the server.

export function presentPushSubscription(row: PushSubscriptionRow): PushSubscription {
  return {
    appName: row.appName,
    deviceId: row.deviceId,
    deviceName: row.deviceName,
    active: row.active,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}
