import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import { pushOddsNotices, pushSubscriptions } from '../db/schema';

// A player's push subscriptions for their data export, and their removal when they delete
// their account (src/server/auth/account-data.service.ts). Only this folder touches the push tables.

/** The user's subscriptions without their secrets: the endpoint is a capability URL, so only its host leaves here. */
export async function readPushSubscriptionsOf(tx: Executor, userId: number) {
  const rows = await tx
    .select({
      deviceName: pushSubscriptions.deviceName,
      userAgent: pushSubscriptions.userAgent,
      appName: pushSubscriptions.appName,
      endpoint: pushSubscriptions.endpoint,
      active: pushSubscriptions.active,
      createdAt: pushSubscriptions.createdAt,
      lastSuccessAt: pushSubscriptions.lastSuccessAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.id));
  return rows.map(({ endpoint, ...row }) => ({ ...row, endpointHost: endpointHost(endpoint) }));
}

function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
}

/** Deletes every subscription of the user and their odds-notice marks, inside the caller's transaction. */
export async function deletePushDataOf(tx: Executor, userId: number): Promise<void> {
  await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  await tx.delete(pushOddsNotices).where(eq(pushOddsNotices.userId, userId));
}
