import { and, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { PushSubscription, RegisterPushSubscriptionRequest } from '../../domain/push';
import type { AuthUser } from '../auth/tokens';
import type { Database } from '../db/connect';
import { pushSubscriptions, users, type PushSubscriptionRow } from '../db/schema';
import {
  invalidAccessToken,
  pushEndpointTaken,
  pushSubscriptionNotFound,
  unknownPushService,
} from '../errors';
import { presentPushSubscription } from './push.presenter';

// Push subscriptions of docs/groups-and-bets.md §3 and §7: one per user, app and device, and the reads and
// marks the notifier needs (who can be reached, gone endpoints). The only
// code that touches the push tables.

export interface PushServiceDeps {
  db: Database;
  now?: () => Date;
  /** Whether an endpoint is one of the push services the server may request (../push-endpoints.ts). */
  isAllowedEndpoint: (endpoint: string) => boolean;
}

export type PushService = ReturnType<typeof createPushService>;

/** A subscription the notifier may send to. */
export type Destination = Pick<
  PushSubscriptionRow,
  'id' | 'userId' | 'endpoint' | 'p256dh' | 'auth'
>;

const destinationColumns = {
  id: pushSubscriptions.id,
  userId: pushSubscriptions.userId,
  endpoint: pushSubscriptions.endpoint,
  p256dh: pushSubscriptions.p256dh,
  auth: pushSubscriptions.auth,
};

function deviceKey(userId: number, appName: string, deviceId: string) {
  return and(
    eq(pushSubscriptions.userId, userId),
    eq(pushSubscriptions.appName, appName),
    eq(pushSubscriptions.deviceId, deviceId),
  );
}

export function createPushService({
  db,
  now = () => new Date(),
  isAllowedEndpoint,
}: PushServiceDeps) {
  return {
    /** GET /push-subscriptions/status: whether this device of the caller gets notifications now. */
    async isActive(caller: AuthUser, deviceId: string, appName: string): Promise<boolean> {
      const [row] = await db
        .select({ active: pushSubscriptions.active })
        .from(pushSubscriptions)
        .where(deviceKey(caller.id, appName, deviceId))
        .limit(1);
      return row?.active ?? false;
    },

    /**
     * POST /push-subscriptions: creates or refreshes the caller's subscription for this app and
     * device, active. The endpoint belongs to one row: a row elsewhere holding it (another
     * account signed in on this browser before, or this device under an old id) gives it up.
     */
    async register(
      caller: AuthUser,
      input: RegisterPushSubscriptionRequest,
    ): Promise<PushSubscription> {
      if (!isAllowedEndpoint(input.endpoint)) throw unknownPushService();
      const at = now();
      const fields = {
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        userAgent: input.userAgent ?? null,
        deviceName: input.deviceName ?? null,
        active: true,
        updatedAt: at,
      };
      const row = await db.transaction(async (tx) => {
        // The account's row, key-share locked as the subscription's foreign key would lock it: a
        // deletion committing meanwhile (its token let this request in) is waited for and seen,
        // so a deleted account never gets a subscription back.
        const [account] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, caller.id), isNull(users.deletedAt)))
          .for('key share');
        if (!account) throw invalidAccessToken();
        // Another account may take an endpoint over only with the subscription's own keys (the
        // same browser, signed in as someone else): knowing an endpoint is not owning it
        // (otherwise anyone could re-register it and silence its owner).
        const [holder] = await tx
          .select({
            userId: pushSubscriptions.userId,
            p256dh: pushSubscriptions.p256dh,
            auth: pushSubscriptions.auth,
          })
          .from(pushSubscriptions)
          .where(
            and(
              eq(pushSubscriptions.endpoint, input.endpoint),
              ne(pushSubscriptions.userId, caller.id),
            ),
          )
          .for('update')
          .limit(1);
        if (holder && (holder.p256dh !== input.keys.p256dh || holder.auth !== input.keys.auth))
          throw pushEndpointTaken();
        await tx
          .delete(pushSubscriptions)
          .where(
            and(
              eq(pushSubscriptions.endpoint, input.endpoint),
              or(
                ne(pushSubscriptions.userId, caller.id),
                ne(pushSubscriptions.appName, input.appName),
                ne(pushSubscriptions.deviceId, input.deviceId),
              ),
            ),
          );
        const [saved] = await tx
          .insert(pushSubscriptions)
          .values({
            userId: caller.id,
            appName: input.appName,
            deviceId: input.deviceId,
            ...fields,
            createdAt: at,
          })
          .onConflictDoUpdate({
            target: [
              pushSubscriptions.userId,
              pushSubscriptions.appName,
              pushSubscriptions.deviceId,
            ],
            set: fields,
          })
          .returning();
        return saved!;
      });
      return presentPushSubscription(row);
    },

    /** DELETE /push-subscriptions/user/{deviceId}: the device no longer wants notifications; already gone is fine. */
    async remove(caller: AuthUser, deviceId: string, appName: string): Promise<void> {
      await db.delete(pushSubscriptions).where(deviceKey(caller.id, appName, deviceId));
    },

    /** PATCH /push-subscriptions/user/{deviceId}/deactivate: kept but silent (logout detaches the device). */
    async deactivate(
      caller: AuthUser,
      deviceId: string,
      appName: string,
    ): Promise<PushSubscription> {
      const [row] = await db
        .update(pushSubscriptions)
        .set({ active: false, updatedAt: now() })
        .where(deviceKey(caller.id, appName, deviceId))
        .returning();
      if (!row) throw pushSubscriptionNotFound();
      return presentPushSubscription(row);
    },

    // ---- for the notifier ----

    /** The active subscriptions of `userIds`. */
    async listDestinations(userIds: readonly number[]): Promise<Destination[]> {
      if (userIds.length === 0) return [];
      return db
        .select(destinationColumns)
        .from(pushSubscriptions)
        .where(
          and(inArray(pushSubscriptions.userId, [...userIds]), eq(pushSubscriptions.active, true)),
        )
        .orderBy(pushSubscriptions.id);
    },

    /** The push service answered 404/410: the browser dropped this subscription, stop sending to it (docs/architecture.md §7). */
    async markGone(destination: Destination): Promise<void> {
      // Matching the endpoint too: the device may have re-registered with a new one meanwhile.
      await db
        .update(pushSubscriptions)
        .set({ active: false, updatedAt: now() })
        .where(
          and(
            eq(pushSubscriptions.id, destination.id),
            eq(pushSubscriptions.endpoint, destination.endpoint),
          ),
        );
    },

    async markDelivered(destination: Destination): Promise<void> {
      await db
        .update(pushSubscriptions)
        .set({ lastSuccessAt: now() })
        .where(eq(pushSubscriptions.id, destination.id));
    },
  };
}
